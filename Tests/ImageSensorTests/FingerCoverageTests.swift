import Imaging
import Testing
@testable import ImageSensor

@Suite struct FingerCoverageTests {
    @Test func aWholeFingerCoversEveryBlock() {
        let result = FingerCoverage().evaluate(SyntheticPrints.wholeFinger)
        #expect(result.totalBlocks == 144)
        #expect(result.coveredBlocks == 144)
        #expect(result.holdsFinger)
    }

    @Test func anEmptySensorCoversNone() {
        let result = FingerCoverage().evaluate(SyntheticPrints.empty)
        #expect(result.coveredBlocks == 0)
        #expect(!result.holdsFinger)
    }

    @Test func aFingerAtTheEdgeIsTooLittle() {
        let result = FingerCoverage().evaluate(SyntheticPrints.edgeOnly)
        // 64 px of 192 is exactly 4 of the 12 block columns.
        #expect(result.coveredBlocks == 48)
        #expect(!result.holdsFinger)
        #expect(result.description.contains("48 of 144 blocks"))
    }

    @Test func saturatedBlocksDoNotCount() {
        // Alternating black and white has all the contrast in the world but a mean of 127;
        // all-white with single black specks is saturated and must not count.
        let specks = try! SensorImage(width: 48, height: 48, pixels: (0..<(48 * 48)).map { $0 % 97 == 0 ? 0 : 255 })
        #expect(FingerCoverage().evaluate(specks).coveredBlocks == 0)
    }

    @Test func theThresholdIsTheCaller_s() {
        let lenient = FingerCoverage(minimumCoverage: 0.25)
        #expect(lenient.evaluate(SyntheticPrints.edgeOnly).holdsFinger)
    }
}
