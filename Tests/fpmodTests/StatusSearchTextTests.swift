import JSONValue
import Testing
@testable import fpmod

/// `fpmod status`'s Search line, from the service's `search` object.
@Suite struct StatusSearchTextTests {
    @Test func saysTheOrderTheHotSetAndTheHistory() {
        let search: JSONValue = .object([
            "order": "regulars-first", "reason": "2 regulars answer 90 % of the last 58 touches", "hotSetSize": 2,
            "historyTouches": 58, "historySince": "2026-12-01T15:51:44Z", "expectedSearchMs": .double(15.3),
            "wholeSearchMs": 42, "layoutMovesPending": 1, "flashWritesToday": 8, "maxFlashWritesPerDay": 100,
        ])
        let text = StatusCommand.searchText(search)
        #expect(text.hasPrefix("regulars-first: 2 regulars answer 90 % of the last 58 touches"))
        #expect(text.contains("hot set 2, history 58 touches since 2026-12-01T15:51:44Z"))
        #expect(text.contains("search 15 ms expected (whole 42 ms)"))
        #expect(text.contains("1 move pending, 8/100 flash writes today"))
    }

    @Test func beforeTheFirstPlan() {
        #expect(StatusCommand.searchText(nil).contains("not planned yet"))
        #expect(StatusCommand.searchText(.null).contains("not planned yet"))
    }
}
