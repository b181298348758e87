@testable import HostMatching
import Testing

/// The link between scores and false-match rates: measured where the impostor scores reach,
/// fitted beyond, and never lower than what was measured.
@Suite struct ScoreCalibrationTests {
    /// 10,000 impostor scores: score s (0…99) appears 100 times, so exactly (100 − s) % score ≥ s.
    let uniform = ScoreCalibration.fitted(impostorScores: (0..<10_000).map { $0 / 100 }, fitCount: 1_000)

    @Test func withinTheMeasuredTailTheRateIsTheMeasuredShare() {
        #expect(uniform.impostorCount == 10_000)
        #expect(uniform.fitCount == 1_000 && uniform.fitFloor == 90)
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
        let lumpy = ScoreCalibration(impostorCount: 4, decay: 1, fitCount: 4, counts: [900: 1, 10: 3])
        #expect(lumpy.falseMatchRate(atScore: 900) == 0.25)
        #expect(lumpy.threshold(perComparison: 0.2) == 901)
    }

    @Test func aLargeMeasurementAnswersCommonRatesFromItsCountsNotFromItsFit() {
        // 100,000 scores, s (0…99) 1,000 times each: the fit rests on the highest 200 (all 99s),
        // and the counts reach down to 2 % of the scores (98 and 99) — below them only a bound.
        let large = ScoreCalibration.fitted(impostorScores: (0..<100_000).map { $0 / 1_000 })
        #expect(large.fitFloor == 99 && large.measuredFrom == 98)
        #expect(large.falseMatchRate(atScore: 98) == 0.02)
        #expect(large.threshold(perComparison: 0.02) == 98)
        #expect(large.threshold(perComparison: 0.015) == 99)
        // Built from a histogram of the same scores, the same calibration.
        var histogram: [Int: Int] = [:]
        for score in 0..<100 { histogram[score] = 1_000 }
        #expect(ScoreCalibration.fitted(histogram: histogram) == large)
        // Asked to keep more, the counts answer 1 in 20 exactly, where the fit would say the floor.
        let wider = ScoreCalibration.fitted(impostorScores: (0..<100_000).map { $0 / 1_000 }, measuredShare: 0.1)
        #expect(wider.threshold(perComparison: 0.05) == 95)
    }

    @Test func theFVC2002CalibrationIsOfRealImpostorPairs() {
        for shipped in [ScoreCalibration.fvc2002Crops, .fvc2002CropPairs] {
            #expect(shipped.impostorCount > 100_000)
            // The counts reach every rate an enrollment's link asks (1 in 100) directly.
            #expect(shipped.falseMatchRate(atScore: shipped.measuredFrom) >= 0.01)
            // The matcher's default threshold for one comparison lies above every measured impostor
            // score only when asked for a rate below the measurement's resolution.
            let resolution = 1 / Double(shipped.impostorCount)
            #expect(shipped.threshold(perComparison: resolution / 10) > shipped.highest)
        }
    }
}
