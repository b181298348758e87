import Testing
@testable import Imaging
import TestSupport

@Suite struct TransformTests {
    @Test func cropTakesTheWindowAndFillsOutside() {
        let image = testPattern()
        let window = image.cropped(x: 5, y: 7, width: 3, height: 2)
        #expect(window.pixels == [image[5, 7], image[6, 7], image[7, 7], image[5, 8], image[6, 8], image[7, 8]])
        let overhanging = image.cropped(x: -1, y: 0, width: 2, height: 1, fill: 9)
        #expect(overhanging.pixels == [9, image[0, 0]])
    }

    @Test func shiftMovesRightAndDown() {
        let image = testPattern()
        let moved = image.shifted(dx: 3, dy: 2)
        #expect(moved[13, 12] == image[10, 10])
        #expect(moved[0, 0] == 255 && moved[2, 1] == 255)
    }

    @Test func ninetyDegreesTurnsARightHandMarkUpward() {
        var image = GreyImage(width: 41, height: 41, filledWith: 255)
        image[30, 20] = 0  // 10 px right of the centre
        let turned = image.rotated(degrees: 90)
        #expect(turned[20, 10] == 0)
        #expect(turned[30, 20] == 255)
    }

    @Test func turningThereAndBackKeepsTheMiddle() {
        let image = SyntheticFinger(seed: 3).image()
        let back = image.rotated(degrees: 15).rotated(degrees: -15)
        #expect(meanAbsoluteDifference(image, back, inset: 60) < 25)
        #expect(meanAbsoluteDifference(image, image.rotated(degrees: 15), inset: 60) > 40)
        #expect(image.rotated(degrees: 0) == image)
    }

    @Test func scalingInterpolates() throws {
        let image = try GreyImage(width: 2, height: 2, pixels: [0, 100, 100, 200])
        let larger = image.scaled(width: 3, height: 3)
        #expect(larger[1, 1] == 100 && larger[1, 0] == 50 && larger[2, 2] == 200)
    }

    @Test func fittingCropsLargeImagesAndGrowsSmallOnes() {
        let large = testPattern(width: 256, height: 240)
        let fitted = large.fitted(width: 192, height: 192)
        #expect(fitted == large.centreCropped(width: 192, height: 192))
        #expect(fitted[0, 0] == large[32, 24])
        // Grown to cover the sensor, so no pixel is fill.
        let small = GreyImage(width: 100, height: 150, filledWith: 7).fitted(width: 192, height: 192)
        #expect(small.width == 192 && small.height == 192)
        #expect(small.pixels.allSatisfy { $0 == 7 })
    }

    @Test func noiseRepeatsForASeedAndHasItsStrength() {
        let flat = GreyImage(width: 100, height: 100, filledWith: 128)
        let noisy = flat.withNoise(sigma: 10, seed: 7)
        #expect(noisy == flat.withNoise(sigma: 10, seed: 7))
        #expect(noisy != flat.withNoise(sigma: 10, seed: 8))
        let values = noisy.pixels.map(Double.init)
        let mean = values.reduce(0, +) / Double(values.count)
        let deviation = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
        #expect(abs(mean - 128) < 1)
        #expect(abs(deviation - 10) < 1)
    }

    @Test func wrongPixelCountsAreRefused() {
        let error = expectThrows(ImagingError.self) { try GreyImage(width: 3, height: 3, pixels: [1, 2]) }
        #expect(error == .pixelCountMismatch(width: 3, height: 3, count: 2))
    }
}
