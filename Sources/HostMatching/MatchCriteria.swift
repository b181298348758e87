/// What one enrolled template shows of a probe: the scores of its best two impressions (`second`
/// is -1 for a template of one impression).
public struct TemplateEvidence: Sendable, Equatable {
    public let best: Int
    public let second: Int

    public init(best: Int, second: Int) {
        self.best = best
        self.second = second
    }

    /// The two highest of one template's impression scores.
    init(_ scores: some Sequence<Int>) {
        var best = -1, second = -1
        for score in scores {
            if score > best { (best, second) = (score, best) } else if score > second { second = score }
        }
        self.init(best: best, second: second)
    }
}

/// When a template's evidence is a match: its best impression alone clears `single`, or its two
/// best impressions both clear `pair`.
///
/// A small window's later touch often overlaps two enrolled touches a little rather than one
/// well; two touches of one stranger's finger both resembling the probe is much rarer than one
/// doing so, so `pair` sits far below `single` (measured on real impostors, not assumed
/// independent: `ScoreCalibration.fvc2002CropPairs` holds the lower score of a probe against two
/// impressions of another finger). The attempt's false-match rate is split between the two
/// criteria, each divided among the comparisons it makes (every impression, every two
/// impressions of one template): by the union bound the attempt's rate stays at most the one
/// configured, without assuming the two criteria independent.
public struct MatchCriteria: Sendable, Equatable {
    public let single: Int
    public let pair: Int
    let singleCalibration: ScoreCalibration
    let singleRate: Double
    let pairCalibration: ScoreCalibration
    let pairRate: Double

    /// `singleRate` and `pairRate` are per comparison (one impression, two impressions).
    public init(singleCalibration: ScoreCalibration, singleRate: Double, pairCalibration: ScoreCalibration, pairRate: Double) {
        self.singleCalibration = singleCalibration
        self.singleRate = singleRate
        self.pairCalibration = pairCalibration
        self.pairRate = pairRate
        single = singleCalibration.threshold(perComparison: singleRate)
        pair = pairCalibration.threshold(perComparison: pairRate)
    }

    /// Given thresholds (tests): rarity is then measured against the fvc2002 calibrations' rates at them.
    init(single: Int, pair: Int, singleCalibration: ScoreCalibration = .fvc2002Crops, pairCalibration: ScoreCalibration = .fvc2002CropPairs) {
        self.single = single
        self.pair = pair
        self.singleCalibration = singleCalibration
        self.pairCalibration = pairCalibration
        singleRate = singleCalibration.falseMatchRate(atScore: single)
        pairRate = pairCalibration.falseMatchRate(atScore: pair)
    }

    /// Below this no comparison can help a decision: neither as a template's best nor as its second.
    public var lowest: Int { min(single, pair) }

    public func admits(_ evidence: TemplateEvidence) -> Bool { evidence.best >= single || evidence.second >= pair }

    /// How much rarer than its criterion's own rate a stranger reaches this evidence, the rarer of
    /// the two (below 1 for every admitted template): what ranks two admitted templates, so the
    /// best is the one least likely to be a chance resemblance, whichever criterion admitted it.
    func rarity(_ evidence: TemplateEvidence) -> Double {
        let single = singleCalibration.falseMatchRate(atScore: evidence.best) / singleRate
        guard evidence.second >= 0 else { return single }
        return min(single, pairCalibration.falseMatchRate(atScore: evidence.second) / pairRate)
    }
}
