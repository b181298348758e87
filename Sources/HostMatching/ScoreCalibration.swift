import Glibc

/// How often a different finger reaches a score: the link between the matcher's scores and
/// the false-match rate a door is configured with ("1 in 10,000"), measured on impostor pairs
/// of real impressions, never guessed.
///
/// Where the measurement reaches (rates down to a few in the whole count) the rate is the
/// measured share of impostor scores at or above a score: the calibration keeps how many
/// impostors scored each score from `measuredFrom` up, enough to cover every rate a door asks
/// for directly (an enrollment's link of two touches at 1 in 100 included). Rarer rates (a
/// 1:1000 search at 1 in 10,000 per attempt needs 1 in 10⁷ per comparison) come from the fit of
/// the highest `fitCount` scores: an exponential fall beyond the lowest of them (peaks over a
/// threshold, ξ = 0), with its scale their mean excess, the maximum-likelihood estimate. Where
/// the measured share is higher than the fit (a lumpy tail), the measured one is used: the
/// threshold errs towards keeping people out.
public struct ScoreCalibration: Sendable, Equatable {
    /// How many impostor comparisons were measured.
    public let impostorCount: Int
    /// How many impostors scored each score, for every score from `measuredFrom` up.
    public let counts: [Int: Int]
    /// The lowest score `counts` covers: below it only a bound is known.
    public let measuredFrom: Int
    /// How many of the highest scores the fit beyond them rests on.
    public let fitCount: Int
    /// The lowest of those `fitCount` scores: the fit starts there.
    public let fitFloor: Int
    /// Beyond `fitFloor`, the rate falls by a factor e every `decay` points.
    public let decay: Double
    /// The highest impostor score measured.
    public let highest: Int
    /// atOrAbove[s - measuredFrom]: how many impostors scored s or more.
    private let atOrAbove: [Int]

    /// `counts`: how many impostors scored each score, complete from its lowest key up, which
    /// must hold at least `fitCount` of them.
    public init(impostorCount: Int, decay: Double, fitCount: Int, counts: [Int: Int]) {
        let total = counts.values.reduce(0, +)
        precondition(impostorCount > 0 && fitCount > 0 && total >= fitCount && total <= impostorCount && decay > 0,
                     "a calibration needs impostor scores, at least as many as its fit")
        precondition(counts.values.allSatisfy { $0 >= 0 }, "a count is never negative")
        self.impostorCount = impostorCount
        self.counts = counts
        self.fitCount = fitCount
        self.decay = decay
        let lowest = counts.keys.min()!, top = counts.keys.max()!
        measuredFrom = lowest
        highest = top
        var cumulative = [Int](repeating: 0, count: top - lowest + 1)
        var running = 0, floor = top
        for score in stride(from: top, through: lowest, by: -1) {
            let before = running
            running += counts[score, default: 0]
            cumulative[score - lowest] = running
            if before < fitCount { floor = score }
        }
        atOrAbove = cumulative
        fitFloor = floor
    }

    /// The calibration of `impostorScores`: the fit on the highest `fitCount` of them, and the
    /// counts kept down to where at least `measuredShare` of them (and the fit's scores) lie.
    public static func fitted(impostorScores: [Int], fitCount: Int = 200, measuredShare: Double = 0.02) -> ScoreCalibration {
        var histogram: [Int: Int] = [:]
        for score in impostorScores { histogram[score, default: 0] += 1 }
        return fitted(histogram: histogram, fitCount: fitCount, measuredShare: measuredShare)
    }

    /// The same from how many impostors scored each score (every score measured, however low):
    /// for measurements too large to keep every score.
    public static func fitted(histogram: [Int: Int], fitCount: Int = 200, measuredShare: Double = 0.02) -> ScoreCalibration {
        let total = histogram.values.reduce(0, +)
        precondition(total > 0, "a calibration needs impostor scores")
        let fit = max(2, min(fitCount, total))
        let kept = max(fit, Int((measuredShare * Double(total)).rounded(.up)))
        var counts: [Int: Int] = [:], running = 0, taken = 0, excess = 0
        var fitScores: [(score: Int, count: Int)] = []
        for score in histogram.keys.sorted(by: >) where running < kept {
            let count = histogram[score]!
            counts[score] = count
            running += count
            if taken < fit {
                let used = min(count, fit - taken)
                fitScores.append((score, used))
                taken += used
            }
        }
        // The mean excess of the highest `fit` scores over the lowest of them.
        let floor = fitScores.last!.score
        for (score, count) in fitScores { excess += (score - floor) * count }
        return ScoreCalibration(impostorCount: total, decay: max(1, Double(excess) / Double(fit)), fitCount: fit, counts: counts)
    }

    /// The share of impostor comparisons scoring `score` or more.
    public func falseMatchRate(atScore score: Int) -> Double {
        guard score >= measuredFrom else {
            // Below the counts: at least every counted score's share (a bound that is enough:
            // no threshold is ever set that low).
            return Double(atOrAbove[0]) / Double(impostorCount)
        }
        let measured = score > highest ? 0 : Double(atOrAbove[score - measuredFrom]) / Double(impostorCount)
        guard score > fitFloor else { return measured }
        let fitted = Double(fitCount) / Double(impostorCount) * exp(-Double(score - fitFloor) / decay)
        return max(measured, fitted)
    }

    /// The lowest score at which impostors reach at most `rate` per comparison.
    public func threshold(perComparison rate: Double) -> Int {
        precondition(rate > 0, "a false-match rate is above 0")
        var score = measuredFrom
        // Both rates only fall as the score rises, so the first score at or below the rate is
        // the answer; the bound keeps a rate of 1e-300 finite.
        let bound = max(highest + 1, fitFloor + Int(decay * 800))
        while falseMatchRate(atScore: score) > rate, score < bound { score += 1 }
        return score
    }
}
