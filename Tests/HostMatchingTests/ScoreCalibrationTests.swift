@testable import HostMatching
import Testing

/// The link between scores and false-match rates: measured where the impostor scores reach,
/// fitted beyond, and never lower than what was measured.
@Suite struct ScoreCalibrationTests {
    /// 10,000 impostor scores: score s (0…99) appears 100 times, so exactly (100 − s) % score ≥ s.
    let uniform = ScoreCalibration.fitted(impostorScores: (0..<10_000).map { $0 / 100 }, tailSize: 1_000)

    @Test func withinTheMeasuredTailTheRateIsTheMeasuredShare() {
        #expect(uniform.impostorCount == 10_000)
        #expect(uniform.tail.count == 1_000)
        #expect(uniform.falseMatchRate(atScore: 95) == 0.05)
        // Near the top the fitted fall is slower than the measured steps: the higher of the two counts.
        #expect(uniform.falseMatchRate(atScore: 99) >= 0.01)
    }

    @Test func beyondTheHighestImpostorTheFitKeepsFallingAndStaysAboveZero() {
        let rate100 = uniform.falseMatchRate(atScore: 100)
        let rate120 = uniform.falseMatchRate(atScore: 120)
        #expect(rate100 > 0 && rate100 < 0.02)
        #expect(rate120 > 0 && rate120 < rate100)
    }

    @Test func theThresholdIsTheFirstScoreAtOrBelowTheRate() {
        #expect(uniform.threshold(perComparison: 0.05) == 95)
        let onePercent = uniform.threshold(perComparison: 0.01)
        #expect(onePercent >= 99 && uniform.falseMatchRate(atScore: onePercent) <= 0.01)
        let strict = uniform.threshold(perComparison: 1e-7)
        #expect(strict > 99)
        #expect(uniform.falseMatchRate(atScore: strict) <= 1e-7)
        #expect(uniform.falseMatchRate(atScore: strict - 1) > 1e-7)
        // A stricter rate never lowers the threshold.
        #expect(uniform.threshold(perComparison: 1e-9) >= strict)
    }

    @Test func theMeasuredShareWinsOverALowerFit() {
        // One outlier far above the rest: the fit alone would put a 1-in-4 rate well below it.
        let lumpy = ScoreCalibration(impostorCount: 4, decay: 1, tail: [900, 10, 10, 10])
        #expect(lumpy.falseMatchRate(atScore: 900) == 0.25)
        #expect(lumpy.threshold(perComparison: 0.2) == 901)
    }

    @Test func theFVC2002CalibrationIsOfRealImpostorPairs() {
        let shipped = ScoreCalibration.fvc2002Crops
        #expect(shipped.impostorCount > 10_000)
        #expect(shipped.tail == shipped.tail.sorted(by: >))
        // The matcher's default threshold for one comparison lies above every measured impostor
        // score only when asked for a rate below the measurement's resolution.
        let resolution = 1 / Double(shipped.impostorCount)
        #expect(shipped.threshold(perComparison: resolution / 10) > shipped.tail[0])
    }
}
