import FingerprintProtocol

/// What one Search costs on a module: a fixed part per Search (the module's setup plus the
/// command and its ack on the wire) and a part per template compared. Pure figures, so the
/// hot-set planner, `fpmod status` and `fpmod bench` reason with the same model.
public struct SearchCost: Sendable, Equatable {
    public var fixedMilliseconds: Double
    public var perTemplateMilliseconds: Double

    public init(fixedMilliseconds: Double, perTemplateMilliseconds: Double) {
        self.fixedMilliseconds = fixedMilliseconds
        self.perTemplateMilliseconds = perTemplateMilliseconds
    }

    /// One Search over `templates` occupied slots.
    public func milliseconds(templates: Int) -> Double {
        fixedMilliseconds + perTemplateMilliseconds * Double(templates)
    }

    /// The datasheet figures of protocol.md §7 as the simulator's timing model uses them
    /// (R307 "< 1 s at 1:1000" → 10 ms + 0.9 ms per template; AS608 "< 1 s at 1:500" → 10 +
    /// 1.8; R503 "< 10 ms per fingerprint" → 5 + 8), plus the wire time of one Search command
    /// (17 bytes) and its ack (16 bytes) at `baudRate`. SynoChip modules publish no figure:
    /// the R30x one stands in.
    public static func datasheet(for family: ModuleFamily?, baudRate: Int = 57_600) -> SearchCost {
        let (fixed, perTemplate): (Double, Double) = switch family {
        case .as608: (10, 1.8)
        case .r50x: (5, 8)
        case .r30x, .synochip, nil: (10, 0.9)
        }
        let wire = baudRate > 0 ? Double((17 + 16) * 10) * 1000 / Double(baudRate) : 0
        return SearchCost(fixedMilliseconds: fixed + wire, perTemplateMilliseconds: perTemplate)
    }
}

/// The fingers that touch most often, hottest first, sized so that searching their range first
/// and the rest only on a miss minimises the expected search time of one identify.
public struct HotSet: Sendable, Equatable {
    /// Current module slots of the hot fingers, hottest first. Empty: no hot set beats one
    /// Search over everything (a uniform use, or a library so small the fixed cost dominates).
    public var slots: [Int]
    /// Expected module search time per identify with the hot set contiguous and searched first.
    public var expectedSearchMilliseconds: Double
    /// One Search over every occupied slot, for comparison.
    public var wholeSearchMilliseconds: Double
    /// Share of the history's touches (strangers included) the hot set answers.
    public var hotShare: Double
    /// Touches (matches and strangers) the plan is based on.
    public var historyTouches: Int
    /// What a stranger (or a cold finger) pays beyond a whole-range Search: one more fixed
    /// Search cost, since the two ranges together compare the same templates.
    public var missPenaltyMilliseconds: Double

    public init(slots: [Int], expectedSearchMilliseconds: Double, wholeSearchMilliseconds: Double,
                hotShare: Double, historyTouches: Int, missPenaltyMilliseconds: Double) {
        self.slots = slots
        self.expectedSearchMilliseconds = expectedSearchMilliseconds
        self.wholeSearchMilliseconds = wholeSearchMilliseconds
        self.hotShare = hotShare
        self.historyTouches = historyTouches
        self.missPenaltyMilliseconds = missPenaltyMilliseconds
    }

    /// Expected search time ÷ whole-range search time (below 1 is a gain).
    public var expectedRatio: Double {
        wholeSearchMilliseconds > 0 ? expectedSearchMilliseconds / wholeSearchMilliseconds : 1
    }
}

/// Chooses the hot set from match counts. Pure.
///
/// With the n occupied templates, the hot set's h templates in one range searched first and the
/// other n − h after a miss, a touch costs `S(h)` when a hot finger answers and `S(h) + S(n − h)`
/// otherwise (`S(k)` = fixed + k × per-template). The expected cost
/// `S(h) + (1 − P(h)) · S(n − h)`, with P(h) the share of touches the h most frequent fingers
/// answered, is computed for every h and the smallest kept — if it beats `S(n)`.
public struct HotSetPlanner: Sendable {
    public var cost: SearchCost
    /// Fewer touches than this in the history: no plan (nil), the whole range is searched.
    public var minimumHistory: Int
    /// A finger seen fewer times than this is not a regular: one or two matches in a window of
    /// hundreds is noise, and moving its template would spend flash writes on chance.
    public var minimumMatches: Int

    public init(cost: SearchCost, minimumHistory: Int = 50, minimumMatches: Int = 3) {
        self.cost = cost
        self.minimumHistory = minimumHistory
        self.minimumMatches = minimumMatches
    }

    /// `matchCounts`: matches per current slot over the history window; `occupied`: the occupied
    /// slots; `strangers`: touches in the same window that matched nobody. Counts for slots that
    /// are not occupied are ignored. nil when the history is shorter than `minimumHistory`.
    public func plan(matchCounts: [Int: Int], occupied: [Int], strangers: Int = 0) -> HotSet? {
        let occupiedSet = Set(occupied)
        let matches = matchCounts.filter { occupiedSet.contains($0.key) && $0.value > 0 }
        let touches = matches.values.reduce(0, +) + max(0, strangers)
        guard touches >= max(1, minimumHistory) else { return nil }
        let n = occupiedSet.count
        let whole = cost.milliseconds(templates: n)
        let ranked = matches.filter { $0.value >= minimumMatches }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        var best = (size: 0, expected: whole, share: 0.0)
        var answered = 0
        for (index, entry) in ranked.enumerated() where index + 1 < n {
            answered += entry.value
            let h = index + 1
            let share = Double(answered) / Double(touches)
            let expected = cost.milliseconds(templates: h) + (1 - share) * cost.milliseconds(templates: n - h)
            if expected < best.expected { best = (h, expected, share) }
        }
        return HotSet(slots: ranked.prefix(best.size).map(\.key), expectedSearchMilliseconds: best.expected,
                      wholeSearchMilliseconds: whole, hotShare: best.share, historyTouches: touches,
                      missPenaltyMilliseconds: best.size > 0 ? cost.fixedMilliseconds : 0)
    }
}
