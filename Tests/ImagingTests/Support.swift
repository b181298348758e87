import Glibc
import Testing
@testable import Imaging


/// A gradient with a mark, so that moves and turns show.
func testPattern(width: Int = 40, height: Int = 30) -> GreyImage {
    var image = GreyImage(width: width, height: height, filledWith: 0)
    for y in 0..<height { for x in 0..<width { image[x, y] = UInt8((x * 5 + y * 3) % 256) } }
    return image
}

func meanAbsoluteDifference(_ a: GreyImage, _ b: GreyImage, inset: Int) -> Double {
    var total = 0.0, count = 0
    for y in inset..<(a.height - inset) {
        for x in inset..<(a.width - inset) {
            total += abs(Double(a[x, y]) - Double(b[x, y]))
            count += 1
        }
    }
    return total / Double(count)
}
