import Glibc

/// How often a different finger reaches a score: the link between the matcher's scores and
/// the false-match rate a door is configured with ("1 in 10,000"), measured on impostor pairs
/// of real impressions, never guessed.
///
/// Up to the measured tail's lowest score the rate is the measured share of impostor scores at
/// or above it. Rarer rates than the measurement can show (a 1:1000 search at 1 in 10,000 per
/// attempt needs 1 in 10⁷ per comparison) come from the tail's fit: an exponential fall beyond
/// the tail's lowest score (peaks over a threshold, ξ = 0), with its scale the tail's mean
/// excess, the maximum-likelihood estimate. Where the measured share is higher than the fit
/// (a lumpy tail), the measured one is used: the threshold errs towards keeping people out.
public struct ScoreCalibration: Sendable, Equatable {
    /// How many impostor comparisons were measured.
    public let impostorCount: Int
    /// The highest impostor scores measured, highest first.
    public let tail: [Int]
    /// Beyond the tail, the rate falls by a factor e every `decay` points.
    public let decay: Double

    public init(impostorCount: Int, decay: Double, tail: [Int]) {
        precondition(impostorCount > 0 && !tail.isEmpty && tail.count <= impostorCount && decay > 0, "a calibration needs impostor scores")
        self.impostorCount = impostorCount
        self.tail = tail.sorted(by: >)
        self.decay = decay
    }

    /// The calibration of `impostorScores`, keeping the highest `tailSize` of them.
    public static func fitted(impostorScores: [Int], tailSize: Int = 200) -> ScoreCalibration {
        precondition(!impostorScores.isEmpty, "a calibration needs impostor scores")
        let tail = Array(impostorScores.sorted(by: >).prefix(max(2, min(tailSize, impostorScores.count))))
        let floor = tail[tail.count - 1]
        let meanExcess = Double(tail.reduce(0) { $0 + $1 - floor }) / Double(tail.count)
        return ScoreCalibration(impostorCount: impostorScores.count, decay: max(1, meanExcess), tail: tail)
    }

    /// The share of impostor comparisons scoring `score` or more.
    public func falseMatchRate(atScore score: Int) -> Double {
        let floor = tail[tail.count - 1]
        // Scores below the tail: at least the whole tail's share (a bound that is enough: no
        // threshold is ever set that low).
        let measured = Double(tail.count { $0 >= score }) / Double(impostorCount)
        guard score > floor else { return max(measured, Double(tail.count) / Double(impostorCount)) }
        let fitted = Double(tail.count) / Double(impostorCount) * exp(-Double(score - floor) / decay)
        return max(measured, fitted)
    }

    /// The lowest score at which impostors reach at most `rate` per comparison.
    public func threshold(perComparison rate: Double) -> Int {
        precondition(rate > 0, "a false-match rate is above 0")
        let floor = tail[tail.count - 1]
        var score = floor
        // The fitted rate falls steadily and the measured one only steps down, so the first score
        // with both at or below the rate is the answer; the bound keeps a rate of 1e-300 finite.
        let bound = max(tail[0] + 1, floor + Int(decay * 800))
        while falseMatchRate(atScore: score) > rate, score < bound { score += 1 }
        return score
    }
}
