import Testing
@testable import Imaging

/// The coverage check, the synthetic fingers and the impressions made from them.
@Suite struct FingerImageTests {
    @Test func anEmptySensorShowsNoFinger() {
        let empty = GreyImage(width: 192, height: 192, filledWith: 240).withNoise(sigma: 8, seed: 1)
        let coverage = FingerCoverage().evaluate(empty)
        #expect(coverage.totalBlocks == 144)
        #expect(coverage.coveredBlocks == 0)
        #expect(!coverage.holdsFinger)
    }

    @Test func aFingerCoveringHalfTheSensorIsMeasuredAsHalf() {
        var image = SyntheticFinger(seed: 5).image().fitted(width: 192, height: 192)
        for y in 0..<192 { for x in 96..<192 { image[x, y] = 255 } }
        let coverage = FingerCoverage().evaluate(image)
        #expect(coverage.coverage > 0.4 && coverage.coverage <= 0.5)
        #expect(FingerCoverage().evaluate(SyntheticFinger(seed: 5).image()).holdsFinger)
    }

    @Test func syntheticFingersRepeatPerSeedAndDifferAcrossSeeds() {
        let first = SyntheticFinger(seed: 21).image()
        #expect(first == SyntheticFinger(seed: 21).image())
        #expect(meanAbsoluteDifference(first, SyntheticFinger(seed: 22).image(), inset: 0) > 40)
        #expect(first.width == 256 && first.height == 256)
    }

    @Test func impressionsHaveTheSensorSizeAndDifferFromEachOther() {
        let master = SyntheticFinger(seed: 9).image()
        let impressions = ImpressionMaker().impressions(of: master, count: 3, seed: 4)
        #expect(impressions.allSatisfy { $0.width == 192 && $0.height == 192 })
        #expect(impressions[0] != impressions[1])
        #expect(impressions == ImpressionMaker().impressions(of: master, count: 3, seed: 4))
        #expect(impressions.allSatisfy { FingerCoverage().evaluate($0).holdsFinger })
    }
}
