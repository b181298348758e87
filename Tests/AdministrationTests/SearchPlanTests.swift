import Administration
import FingerprintModule
import Foundation
import TemplateStore
import Testing

/// Plans, their expected cost, the search-order decision and the history behind it.
@Suite struct SearchPlanTests {
    let cost = SearchCost(fixedMilliseconds: 10, perTemplateMilliseconds: 1)

    @Test func regularsFirstSplitsTheOccupiedRangeWithoutOverlap() {
        let occupied = [0, 1, 2, 3, 10, 11, 50]
        #expect(SearchPlan.regularsFirst(hot: [2, 0, 1], occupied: occupied).ranges == [0..<3, 3..<51])
        #expect(SearchPlan.regularsFirst(hot: [10, 11], occupied: occupied).ranges == [10..<12, 50..<51, 0..<4])
        #expect(SearchPlan.regularsFirst(hot: [], occupied: occupied) == .whole(0..<51))
        #expect(SearchPlan.regularsFirst(hot: [99], occupied: occupied) == .whole(0..<51))
        #expect(SearchPlan.regularsFirst(hot: [], occupied: []).isEmpty)
        #expect(SearchPlan(ranges: [0..<3, 5..<5, 3..<51]).description == "slots 0 to 2, then slots 3 to 50")
        #expect(SearchPlan.whole(4..<5).description == "slot 4")
    }

    @Test func expectedCostCountsEverySearchUpToTheHit() {
        let occupied = Array(0..<100)
        let plan = SearchPlan(ranges: [0..<10, 10..<100])
        // 30 touches on slot 3 pay S(10) = 20; 10 on slot 50 pay 20 + S(90) = 120; 10 strangers also 120.
        let expected = plan.expectedMilliseconds(matchCounts: [3: 30, 50: 10], strangers: 10, occupied: occupied, cost: cost)
        #expect(abs(expected - (30 * 20 + 20 * 120) / 50.0) < 1e-9)
        #expect(SearchPlan.whole(0..<100).expectedMilliseconds(matchCounts: [3: 1], occupied: occupied, cost: cost) == 110)
    }

    @Test func theDecisionNeedsHistoryAndAGain() {
        let occupied = Array(0..<100)
        let planner = HotSetPlanner(cost: cost, minimumHistory: 20)
        var history = MatchHistory()
        history.matchCounts = [0: 5]
        let short = SearchOrder.choose(configured: .regularsFirst, history: history, occupied: occupied, capacity: 200, planner: planner)
        #expect(short.mode == .whole && short.reason.contains("history too short"))

        history.matchCounts = [0: 40, 1: 40, 99: 40]
        let spread = SearchOrder.choose(configured: .regularsFirst, history: history, occupied: occupied, capacity: 200, planner: planner)
        #expect(spread.hotSet?.slots.count == 3)
        // 0, 1 and 99 span the library: until 99 is moved, only 0 and 1 go first.
        #expect(spread.mode == .regularsFirst)
        #expect(spread.plan.ranges == [0..<2, 2..<100])
        #expect(spread.layoutMoves == [SlotMove(from: 2, to: 100), SlotMove(from: 99, to: 2)])

        history.matchCounts = [0: 40, 1: 40, 2: 40]
        history.strangers = 5
        let ready = SearchOrder.choose(configured: .regularsFirst, history: history, occupied: occupied, capacity: 200, planner: planner)
        #expect(ready.mode == .regularsFirst)
        #expect(ready.plan.ranges == [0..<3, 3..<100])
        #expect(ready.layoutMoves.isEmpty)
        #expect(ready.expectedSearchMilliseconds < ready.wholeSearchMilliseconds)

        // A layout that is nearly right is left alone: one marginal finger (1 touch in 120 here)
        // spread away from the others is not worth two flash writes.
        history.matchCounts = [0: 40, 1: 40, 2: 40, 60: 3]
        history.strangers = 0
        let nearly = SearchOrder.choose(configured: .regularsFirst, history: history, occupied: occupied, capacity: 200, planner: planner)
        #expect(nearly.hotSet?.slots.count == 4)
        #expect(nearly.layoutMoves.isEmpty)
        #expect(nearly.mode == .regularsFirst)

        let whole = SearchOrder.choose(configured: .whole, history: history, occupied: occupied, capacity: 200, planner: planner)
        #expect(whole.mode == .whole && whole.hotSet == nil && whole.plan == .whole(0..<100))
    }

    func row(_ id: Int64, _ event: String, slot: Int? = nil, score: Int? = nil, timed: Bool = false, detail: String? = nil) -> AuditEntry {
        AuditEntry(id: id, time: Date(timeIntervalSince1970: Double(id)), event: event, user: "u", slot: slot, score: score,
                   latencyJSON: timed ? "{}" : nil, detail: detail)
    }

    /// Matches follow their finger across moves; a reused slot forgets the old finger's matches.
    @Test func historyFollowsFingersAcrossMoves() {
        let rows = [
            row(1, "match", slot: 40, score: 100, timed: true),           // finger now in 0
            row(2, "identify-match", slot: 40, score: 90, timed: true),   // same
            row(3, "match", slot: 7, score: 80, timed: true),             // finger deleted later
            row(4, "no-match", timed: true),
            row(5, "layout-move", slot: 0, detail: LayoutAudit.detail(label: "x", from: 40, to: 0)),
            row(6, "match", slot: 0, score: 100, timed: true),
            row(7, "delete", slot: 7),
            row(8, "enroll", slot: 7),
            row(9, "match", slot: 7, score: 50, timed: true),             // the new finger in 7
            row(10, "duress", slot: 0, score: 100, timed: true),          // repeats a match row
            row(11, "verify-match", slot: 0, score: 100, timed: true),
            row(12, "no-match"),                                          // a PIN refusal, no scan
            row(13, "repair", slot: 3, detail: "finished interrupted move #4 of the template from slot 3 to slot 5"),
            row(14, "repair", slot: 9, detail: "rolled back interrupted move #5 of slot 8 to slot 9; slot 9 was empty"),
        ]
        let history = MatchHistory.count(rows)
        #expect(history.matchCounts == [0: 3, 7: 1])
        #expect(history.strangers == 1)
        #expect(history.forgotten == 1)
        #expect(history.touches == 5)
        #expect(MatchHistory.count(rows, limit: 2).matchCounts == [7: 1, 0: 1])
        // A wipe ends the history.
        #expect(MatchHistory.count(rows + [row(15, "wipe"), row(16, "match", slot: 1, score: 1, timed: true)]).matchCounts == [1: 1])
    }

    @Test func moveDetailsReadBack() {
        #expect(LayoutAudit.move(in: LayoutAudit.detail(label: "right-index", from: 412, to: 3)) == SlotMove(from: 412, to: 3))
        #expect(LayoutAudit.move(in: "slot 4, score 100") == nil)
        #expect(LayoutAudit.move(in: "from slot x to slot 3") == nil)
    }
}
