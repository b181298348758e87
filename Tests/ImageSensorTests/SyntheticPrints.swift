import Foundation
import Imaging
@testable import ImageSensor

/// Test images: ridges as a sine wave (period 9 px, about a ridge period at 508 dpi) where a
/// finger touches, a flat level with a little noise elsewhere, as an empty capacitive sensor reads.
enum SyntheticPrints {
    /// A 192×192 image; `touched(x, y)` says where the finger is.
    static func image(width: Int = 192, height: Int = 192, seed: UInt64 = 1, touched: (Int, Int) -> Bool) -> SensorImage {
        var state = seed
        func noise() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 59) - 16  // −16 … 15, small next to the ridge swing
        }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                let value: Double
                if touched(x, y) {
                    // Curved ridges: the phase follows the distance from a core off the image.
                    let distance = ((Double(x) - 60) * (Double(x) - 60) + (Double(y) + 40) * (Double(y) + 40)).squareRoot()
                    value = 128 + 90 * sin(distance * 2 * .pi / 9) + noise() / 4
                } else {
                    value = 200 + noise() / 8
                }
                pixels.append(UInt8(max(0, min(255, value.rounded()))))
            }
        }
        return try! SensorImage(width: width, height: height, pixels: pixels)
    }

    static let wholeFinger = image { _, _ in true }
    static let empty = image { _, _ in false }
    /// A finger on the left third only.
    static let edgeOnly = image { x, _ in x < 64 }
}
