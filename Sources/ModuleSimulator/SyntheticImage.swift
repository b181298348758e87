import Foundation

/// Draws a fingerprint-like 4-bit image of a capture (what UpImage sends), and hides the
/// capture's char file in the bottom rows so an image that went up to a host and came back
/// down (DownImage) can still be turned into features by Img2Tz.
public enum SyntheticImage {
    /// The UART form: two pixels per byte, high nibble = left pixel, rows top to bottom.
    public static func render(finger: VirtualFinger?, quality: CaptureQuality, charFile: [UInt8],
                              width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var pixels = [UInt8](repeating: 0x0F, count: width * height)
        if let finger {
            let centerX = Double(width) * finger.core.x, centerY = Double(height) * finger.core.y
            let radiusX = Double(width) * 0.40, radiusY = Double(height) * 0.46
            let contrast: Double = quality == .poor ? 2.5 : 6.5
            let bottom = quality == .partial ? Double(height) * 0.55 : Double(height)
            for y in 0..<height {
                for x in 0..<width {
                    let fx = Double(x), fy = Double(y)
                    let outline = pow((fx - Double(width) / 2) / radiusX, 2) + pow((fy - Double(height) * 0.52) / radiusY, 2)
                    guard outline < 1, fy < bottom else { continue }
                    let dx = fx - centerX, dy = (fy - centerY) * finger.ellipse
                    // Concentric ridges bent by a slow swirl: enough to look like a whorl.
                    let swirl = 3.0 * sin(fx / 37 + finger.ridgePeriod) + 2.0 * cos(fy / 29)
                    let phase = (sqrt(dx * dx + dy * dy) + swirl) * 2 * Double.pi / finger.ridgePeriod
                    let noise = Double.random(in: -1.2...1.2, using: &random)
                    let value = 8.0 + contrast * sin(phase) + noise - (1 - outline) * 1.5
                    pixels[y * width + x] = UInt8(max(0, min(15, value.rounded())))
                }
            }
        }
        hide(charFile, in: &pixels, width: width, height: height)
        return pack(pixels)
    }

    /// Recovers the char file hidden by `render`, nil when the image carries none.
    public static func recoverCharFile(fromNibbles packed: [UInt8], width: Int, height: Int, size: Int) -> [UInt8]? {
        guard size > 0, packed.count == width * height / 2 else { return nil }
        let start = packed.count - size
        guard start >= 0 else { return nil }
        let file = Array(packed[start...])
        return CharFile.decode(file[...]) == nil ? nil : file
    }

    /// The char file's bytes occupy the last `size` bytes of the packed image (its bottom rows
    /// look like sensor-edge noise).
    static func hide(_ file: [UInt8], in pixels: inout [UInt8], width: Int, height: Int) {
        guard !file.isEmpty, file.count * 2 <= pixels.count else { return }
        var index = pixels.count - file.count * 2
        for byte in file {
            pixels[index] = byte >> 4
            pixels[index + 1] = byte & 0x0F
            index += 2
        }
    }

    static func pack(_ pixels: [UInt8]) -> [UInt8] {
        var packed = [UInt8](repeating: 0, count: pixels.count / 2)
        for index in 0..<packed.count {
            packed[index] = pixels[2 * index] << 4 | pixels[2 * index + 1] & 0x0F
        }
        return packed
    }
}
