import FingerprintModule
import Foundation

/// How identify searches the library, and why: the decision `fpmod status` shows. Pure.
public struct SearchOrder: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        /// One Search over the occupied range.
        case whole
        /// The hot set's range first, the rest only on a miss.
        case regularsFirst = "regulars-first"
    }

    /// What the configuration asks for.
    public var configured: Mode
    /// What identify does now.
    public var mode: Mode
    public var plan: SearchPlan
    /// The hot set from the history (nil: history too short, or `whole` configured).
    public var hotSet: HotSet?
    public var history: MatchHistory
    /// Mean module search time per identify with `plan` on the library as it is laid out now.
    public var expectedSearchMilliseconds: Double
    public var wholeSearchMilliseconds: Double
    /// Moves still needed to bring the hot set into one range at the start of the library.
    public var layoutMoves: [SlotMove]
    /// A sentence: why this mode.
    public var reason: String

    /// The history window: the last `touches` identify touches, none older than `days` days.
    /// A count keeps the statistics equally solid in a busy office and a quiet house; the age
    /// cap lets a tenant who moved out leave the hot set within weeks even where few touch.
    /// Four weeks weigh every weekday the same.
    public struct Window: Sendable, Equatable {
        public var touches: Int
        public var days: Int
        public init(touches: Int = 500, days: Int = 28) {
            self.touches = touches
            self.days = days
        }
    }

    /// Moves are planned only when the layout would cut the expected search time by at least
    /// this share of a whole-range Search.
    public static let layoutGainThreshold = 0.05

    /// Decides from the history and the occupied slots. `regularsFirst` is used only when the
    /// history is long enough and the plan's expected time on the current layout beats one
    /// whole-range Search; otherwise whole, with the reason.
    public static func choose(configured: Mode, history: MatchHistory, occupied: [Int], capacity: Int,
                              planner: HotSetPlanner) -> SearchOrder {
        let sorted = Set(occupied).sorted()
        let whole = SearchPlan.whole(sorted.isEmpty ? 0..<0 : sorted[0]..<(sorted[sorted.count - 1] + 1))
        let wholeMilliseconds = planner.cost.milliseconds(templates: sorted.count)
        var order = SearchOrder(configured: configured, mode: .whole, plan: whole, hotSet: nil, history: history,
                                expectedSearchMilliseconds: wholeMilliseconds, wholeSearchMilliseconds: wholeMilliseconds,
                                layoutMoves: [], reason: "")
        guard configured == .regularsFirst else {
            order.reason = "the configuration asks for one search over the whole library"
            return order
        }
        guard let hot = planner.plan(matchCounts: history.matchCounts, occupied: sorted, strangers: history.strangers) else {
            order.reason = "history too short: \(history.touches) of the \(planner.minimumHistory) identify touches needed"
            return order
        }
        order.hotSet = hot
        guard !hot.slots.isEmpty else {
            order.reason = "no hot set beats one search over all \(sorted.count) templates (use is spread evenly)"
            return order
        }
        // On the layout as it is, the best plan may search only the hottest few first (those
        // already side by side): each prefix of the hot set is tried.
        var plan = whole
        var expected = wholeMilliseconds
        for size in 1...hot.slots.count {
            let candidate = SearchPlan.regularsFirst(hot: Array(hot.slots.prefix(size)), occupied: sorted)
            let time = candidate.expectedMilliseconds(matchCounts: history.matchCounts, strangers: history.strangers,
                                                      occupied: sorted, cost: planner.cost)
            if time < expected {
                plan = candidate
                expected = time
            }
        }
        // Moves only for a real gain: a hot set that changed by a marginal finger is not worth
        // flash writes, and without this margin the layout would chase the noise of the window.
        if expected - hot.expectedSearchMilliseconds >= layoutGainThreshold * wholeMilliseconds {
            order.layoutMoves = LibraryLayout.moves(occupied: sorted, hot: hot.slots, capacity: capacity)
        }
        guard expected < wholeMilliseconds else {
            order.reason = "the \(hot.slots.count) regulars are spread over the library"
                + (order.layoutMoves.isEmpty ? "" : "; \(order.layoutMoves.count) move(s) will bring them together")
            return order
        }
        order.mode = .regularsFirst
        order.plan = plan
        order.expectedSearchMilliseconds = expected
        order.reason = "\(hot.slots.count) regulars answer \(Int((hot.hotShare * 100).rounded())) % of the last \(history.touches) touches"
            + (order.layoutMoves.isEmpty ? "" : "; \(order.layoutMoves.count) move(s) will bring them together")
        return order
    }
}
