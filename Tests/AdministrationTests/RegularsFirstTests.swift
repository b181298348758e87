import Administration
import FingerprintModule
import FingerprintProtocol
import ModuleSimulator
import TemplateStore
import Testing

/// `identify()` through the real simulator with a history written by real identifies: the search
/// order it picks, the layout moves that follow, and every finger still matching its own user.
@Suite(.serialized) struct RegularsFirstTests {
    static let users = (0..<10).map { "user\($0)" }

    /// user0…user9 in slots 0…9; user2 touches 30 times, user7 20 times, the others once, and a
    /// stranger 3 times.
    func history() throws -> (Bench, Administrator) {
        let bench = try Bench()
        let admin = try bench.open()
        for user in Self.users { try bench.enroll(admin, user) }
        admin.searchOrderMode = .whole
        for _ in 0..<30 { #expect(try bench.identify(admin, finger: "user2-right-index").matchedUser == "user2") }
        for _ in 0..<20 { #expect(try bench.identify(admin, finger: "user7-right-index").matchedUser == "user7") }
        for user in Self.users { #expect(try bench.identify(admin, finger: "\(user)-right-index").matchedUser == user) }
        for _ in 0..<3 { #expect(try bench.identify(admin, finger: "stranger").matchedUser == nil) }
        admin.searchOrderMode = .regularsFirst
        return (bench, admin)
    }

    /// A per-template cost that makes a 10-template library worth splitting.
    let cost = SearchCost(fixedMilliseconds: 2, perTemplateMilliseconds: 5)

    @Test func regularsAreFoundFirstOnceTheyAreTogether() throws {
        let (bench, admin) = try history()
        admin.searchCost = cost
        let spread = try admin.searchOrder(configured: .regularsFirst, cost: cost)
        #expect(spread.history.touches == 63)
        #expect(spread.history.strangers == 3)
        #expect(spread.hotSet?.slots == [2, 7])
        // Slots 3…6 lie between the regulars: until the layout brings them together, the
        // hottest alone goes first (cheaper than their span 2..<8 or one search of 10).
        #expect(spread.mode == .regularsFirst)
        #expect(spread.plan.searchedRanges == [2..<3, 3..<10, 0..<2])
        #expect(!spread.layoutMoves.isEmpty)

        let report = try LayoutMover(administrator: admin).apply(spread.layoutMoves, maxFlashWrites: 100)
        #expect(report.moves == spread.layoutMoves.count)
        let together = try admin.searchOrder(configured: .regularsFirst, cost: cost)
        // The history followed the moves: the same two fingers, now in slots 0 and 1.
        #expect(Set(together.hotSet?.slots ?? []) == [0, 1])
        #expect(try Set([0, 1].compactMap { try bench.store.finger(atSlot: $0)?.user }) == ["user2", "user7"])
        #expect(together.mode == .regularsFirst)
        #expect(together.plan.searchedRanges.first == 0..<2)
        #expect(together.layoutMoves.isEmpty)
        #expect(together.expectedSearchMilliseconds < spread.expectedSearchMilliseconds)

        // Regulars, the others (found in the second range) and strangers all get the right answer.
        for user in Self.users {
            #expect(try bench.identify(admin, finger: "\(user)-right-index").matchedUser == user)
            #expect(admin.lastSearchOrder?.mode == .regularsFirst)
        }
        #expect(try bench.identify(admin, finger: "stranger").matchedUser == nil)
        #expect(bench.auditEvents.filter { $0 == "layout-move" }.count == report.moves)
    }

    @Test func wholeIsKeptWhenConfiguredOrWithoutHistory() throws {
        let bench = try Bench()
        let admin = try bench.open()
        for user in Self.users.prefix(3) { try bench.enroll(admin, user) }
        #expect(try bench.identify(admin, finger: "user1-right-index").matchedUser == "user1")
        #expect(admin.lastSearchOrder?.mode == .whole)
        #expect(admin.lastSearchOrder?.reason.contains("history too short") == true)
        #expect(admin.lastSearchOrder?.plan == .whole(0..<3))
    }
}
