import Foundation
import Administration
import FingerprintModule
import FingerprintProtocol
import ModuleSimulator
import TemplateStore
import Testing

/// Moves on a real simulator over a pseudo-terminal and a real store: done, bounded, and
/// interrupted at each step (the failpoint throws), then settled by the next open.
@Suite(.serialized) struct LayoutMoverTests {
    /// alice…erin enrolled in slots 0…4; then slots 0 and 1 deleted so there is room at the front.
    func library() throws -> (Bench, Administrator) {
        let bench = try Bench()
        let admin = try bench.open()
        for user in ["zed", "yan", "alice", "bob", "carol", "dave"] { try bench.enroll(admin, user) }
        try admin.delete(user: "zed")
        try admin.delete(user: "yan")
        return (bench, admin)
    }

    /// The store and the module hold the same slots, and each slot holds its own finger's template.
    func expectAgreement(_ bench: Bench, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fingers = try bench.store.allFingers()
        #expect(Set(bench.server.library.keys) == Set(fingers.map(\.slot)), sourceLocation: sourceLocation)
        for finger in fingers {
            let stored = try bench.store.template(atSlot: finger.slot)
            #expect(bench.server.library[finger.slot] == stored,
                    "slot \(finger.slot) does not hold \(finger.user)'s template", sourceLocation: sourceLocation)
        }
        #expect(try bench.store.pendingIntents().isEmpty, sourceLocation: sourceLocation)
    }

    @Test func movesKeepEveryFingerItsOwn() throws {
        let (bench, admin) = try library()
        #expect(try bench.store.fingers(of: "dave").map(\.slot) == [5])
        let mover = LayoutMover(administrator: admin)
        let report = try mover.apply([SlotMove(from: 5, to: 0), SlotMove(from: 3, to: 1)], maxFlashWrites: 100)
        #expect(report.moves == 2 && report.flashWrites == 4 && report.stopped == .finished)
        #expect(report.milliseconds > 0)
        #expect(try bench.store.fingers(of: "dave").map(\.slot) == [0])
        #expect(try bench.store.fingers(of: "bob").map(\.slot) == [1])
        try expectAgreement(bench)
        for user in ["alice", "bob", "carol", "dave"] {
            #expect(try bench.identify(admin, finger: "\(user)-right-index").matchedUser == user)
        }
        #expect(try FlashWriteLedger(store: bench.store).used() == 4)
        #expect(bench.auditEvents.filter { $0 == "layout-move" }.count == 2)
        // The next open trusts the library: the slot table was recorded after the moves.
        #expect(try bench.open().finding.isTrusted)
    }

    @Test func theFlashBoundAndStaleMovesAreRespected() throws {
        let (bench, admin) = try library()
        let mover = LayoutMover(administrator: admin)
        // 4 → 2 is taken (carol), 9 is empty, 5 → 0 fits but the bound allows one move only.
        let report = try mover.apply([SlotMove(from: 4, to: 2), SlotMove(from: 9, to: 1), SlotMove(from: 5, to: 0),
                                      SlotMove(from: 3, to: 1)], maxFlashWrites: 3)
        #expect(report.skipped == 2 && report.moves == 1 && report.stopped == .budget)
        try expectAgreement(bench)
        // A target the module holds behind the store's back is never written over.
        try bench.plantTemplate(finger: "mallory-right-index", slot: 7, using: admin.module)
        let planted = bench.server.library[7]
        let refused = try mover.apply([SlotMove(from: 3, to: 7)], maxFlashWrites: 100)
        #expect(refused.skipped == 1 && refused.moves == 0)
        #expect(bench.server.library[7] == planted)
        try admin.module.deleteTemplates(start: 7, count: 1)
        var yields = 0
        let yielding = LayoutMover(administrator: admin, shouldYield: { yields += 1; return yields >= 2 })
        let yielded = try yielding.apply([SlotMove(from: 3, to: 1), SlotMove(from: 4, to: 6)], maxFlashWrites: 100)
        #expect(yielded.stopped == .yielded && yielded.moves == 0)  // abandoned after LoadChar, nothing written
        try expectAgreement(bench)
    }

    static let points = ["move.before-load", "move.before-store", "move.after-store", "move.before-commit",
                         "move.after-commit", "move.after-delete"]

    @Test(arguments: points)
    func anInterruptedMoveIsSettledAtTheNextOpen(point: String) throws {
        let (bench, admin) = try library()
        admin.failpoint = { if $0 == point { throw Crash(at: $0) } }
        let mover = LayoutMover(administrator: admin)
        #expect(throws: Crash(at: point)) { try mover.apply([SlotMove(from: 5, to: 0)], maxFlashWrites: 100) }
        #expect(try bench.store.pendingIntents().count == 1)
        let next = try bench.open()
        try expectAgreement(bench)
        // A confirmed copy (module-written) is finished forward; an unconfirmed one is rolled back.
        let committed = ["move.before-commit", "move.after-commit", "move.after-delete"].contains(point)
        #expect(try bench.store.fingers(of: "dave").map(\.slot) == [committed ? 0 : 5])
        #expect(next.finding.isTrusted, "\(next.finding)")
        for user in ["alice", "bob", "carol", "dave"] {
            #expect(try bench.identify(next, finger: "\(user)-right-index").matchedUser == user)
        }
    }

    /// A swap of two occupied slots (dave in 5, alice in 2): two Stores, no free slot needed.
    @Test func aSwapExchangesTwoFingers() throws {
        let (bench, admin) = try library()
        #expect(try bench.identify(admin, finger: "dave-right-index").matchedUser == "dave")
        let report = try LayoutMover(administrator: admin).apply([.swap(5, 2)], maxFlashWrites: 100)
        // The search history follows dave's match from slot 5 to slot 2.
        let history = try Administrator.history(of: bench.store, window: .init(), now: Date())
        #expect(history.matchCounts[2] == 1 && history.matchCounts[5] == nil && history.forgotten == 0)
        #expect(report.moves == 1 && report.flashWrites == 2 && report.stopped == .finished)
        #expect(try bench.store.fingers(of: "dave").map(\.slot) == [2])
        #expect(try bench.store.fingers(of: "alice").map(\.slot) == [5])
        try expectAgreement(bench)
        for user in ["alice", "bob", "carol", "dave"] {
            #expect(try bench.identify(admin, finger: "\(user)-right-index").matchedUser == user)
        }
        #expect(try FlashWriteLedger(store: bench.store).used() == 2)
        #expect(bench.auditEvents.filter { $0 == "layout-swap" }.count == 1)
        // A swap with an empty slot, or over the budget, is not made.
        let refused = try LayoutMover(administrator: admin).apply([.swap(5, 0), .swap(3, 4)], maxFlashWrites: 1)
        #expect(refused.moves == 0 && refused.stopped == .budget)
        let stale = try LayoutMover(administrator: admin).apply([.swap(5, 0)], maxFlashWrites: 100)
        #expect(stale.skipped == 1 && stale.moves == 0)
        try expectAgreement(bench)
        #expect(try bench.open().finding.isTrusted)
    }

    static let swapPoints = ["swap.before-load", "swap.before-first-store", "swap.after-first-store",
                             "swap.before-second-store", "swap.after-second-store", "swap.before-commit",
                             "swap.after-commit"]

    /// Cut at each step: after reopening every slot holds its own finger's template; a swap
    /// with both Stores confirmed is finished, any other rolled back from the store's copies.
    @Test(arguments: swapPoints)
    func anInterruptedSwapIsSettledAtTheNextOpen(point: String) throws {
        let (bench, admin) = try library()
        admin.failpoint = { if $0 == point { throw Crash(at: $0) } }
        let mover = LayoutMover(administrator: admin)
        #expect(throws: Crash(at: point)) { try mover.apply([.swap(5, 2)], maxFlashWrites: 100) }
        #expect(try bench.store.pendingIntents().count == (point == "swap.after-commit" ? 0 : 1))
        let next = try bench.open()
        try expectAgreement(bench)
        // At after-second-store the second Store was acked but not yet recorded: rolled back.
        let swapped = ["swap.before-commit", "swap.after-commit"].contains(point)
        #expect(try bench.store.fingers(of: "dave").map(\.slot) == [swapped ? 2 : 5])
        #expect(try bench.store.fingers(of: "alice").map(\.slot) == [swapped ? 5 : 2])
        #expect(next.finding.isTrusted, "\(next.finding)")
        for user in ["alice", "bob", "carol", "dave"] {
            #expect(try bench.identify(next, finger: "\(user)-right-index").matchedUser == user)
        }
    }
}
