import Foundation
import Testing
@testable import TemplateStore

/// How an interrupted move (slot 5 → 0) is settled, for every state and what the module holds.
/// The invariant: a slot the store gives a finger is never deleted, and afterwards each store
/// slot is the one the module holds the finger in.
@Suite struct MoveReconciliationTests {
    func move(_ state: Intent.State, id: Int64 = 1, from: Int = 5, to: Int = 0) -> Intent {
        Intent(id: id, kind: .move, user: "carol", label: "right-index", slot: from, state: state, targetSlot: to)
    }

    @Test func anUnconfirmedCopyIsDeletedAndTheStoreKeepsTheOldSlot() {
        let plan = planReconciliation(storeSlots: [5: "c", 1: "a"], moduleOccupied: [0, 1, 5], pending: [move(.pending)])
        #expect(plan == [.rollBackMove(intentID: 1, from: 5, to: 0, deleteTarget: true)])
        #expect(plan[0].moduleWork == .deleteSlot(0))
        let nothingCopied = planReconciliation(storeSlots: [5: "c"], moduleOccupied: [5], pending: [move(.pending)])
        #expect(nothingCopied == [.rollBackMove(intentID: 1, from: 5, to: 0, deleteTarget: false)])
        #expect(nothingCopied[0].moduleWork == nil)
    }

    @Test func aConfirmedCopyIsFinished() {
        let both = planReconciliation(storeSlots: [5: "c"], moduleOccupied: [0, 5], pending: [move(.moduleWritten)])
        #expect(both == [.finishMove(intentID: 1, from: 5, to: 0, commitStore: true, deleteSource: true)])
        #expect(both[0].moduleWork == .deleteSlot(5))
        // Killed between the DeletChar of a repair and its store commit: only the commit is left.
        let copyOnly = planReconciliation(storeSlots: [5: "c"], moduleOccupied: [0], pending: [move(.moduleWritten)])
        #expect(copyOnly == [.finishMove(intentID: 1, from: 5, to: 0, commitStore: true, deleteSource: false)])
        #expect(copyOnly[0].moduleWork == nil)
    }

    @Test func afterTheCommitOnlyTheOldCopyIsDeleted() {
        let plan = planReconciliation(storeSlots: [0: "c"], moduleOccupied: [0, 5], pending: [move(.storeCommitted)])
        #expect(plan == [.finishMove(intentID: 1, from: 5, to: 0, commitStore: false, deleteSource: true)])
        let done = planReconciliation(storeSlots: [0: "c"], moduleOccupied: [0], pending: [move(.storeCommitted)])
        #expect(done == [.finishMove(intentID: 1, from: 5, to: 0, commitStore: false, deleteSource: false)])
    }

    /// The target slot belongs to someone in the store (it should never, but a store edited by
    /// hand or restored could say so): it is neither deleted nor given to the moving finger.
    @Test func aTargetTheStoreGivesSomeoneElseIsNeverTouched() {
        for state in [Intent.State.pending, .moduleWritten] {
            let plan = planReconciliation(storeSlots: [5: "c", 0: "d"], moduleOccupied: [0, 5], pending: [move(state)])
            #expect(plan == [.rollBackMove(intentID: 1, from: 5, to: 0, deleteTarget: false)])
            #expect(plan.allSatisfy { $0.moduleWork == nil })
        }
        // Committed, and the old slot was given to someone else meanwhile: it is not deleted.
        let reused = planReconciliation(storeSlots: [0: "c", 5: "e"], moduleOccupied: [0, 5], pending: [move(.storeCommitted)])
        #expect(reused == [.finishMove(intentID: 1, from: 5, to: 0, commitStore: false, deleteSource: false)])
    }

    @Test func aMoveWithoutTwoSlotsIsDropped() {
        let plan = planReconciliation(storeSlots: [5: "c"], moduleOccupied: [5], pending: [move(.pending, to: 5)])
        #expect(plan == [.dropIntent(intentID: 1, reason: "move without two slots")])
    }

    /// The settled slots are not also "repaired" as missing or orphaned.
    @Test func settledSlotsAreNotRepairedAgain() {
        let plan = planReconciliation(storeSlots: [5: "c", 2: "b"], moduleOccupied: [0, 5], pending: [move(.moduleWritten)])
        #expect(plan == [.finishMove(intentID: 1, from: 5, to: 0, commitStore: true, deleteSource: true), .restoreToModule(slot: 2)])
    }

    /// The store side: the finger row moves, its template re-sealed for the new slot.
    @Test func movingAFingerReSealsItsTemplate() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try directory.openStore()
        try store.addUser(name: "carol")
        let template = sampleTemplate(3)
        try store.addFinger(user: "carol", label: "right-index", slot: 5, template: template, quality: 90)
        let digest = try store.enrolledSetDigest()
        try store.moveFinger(from: 5, to: 0)
        #expect(try store.finger(atSlot: 5) == nil)
        #expect(try store.template(atSlot: 0) == template)
        #expect(try store.enrolledSetDigest() == digest)  // a move is not a change of who is enrolled
        try store.addUser(name: "dave")
        try store.addFinger(user: "dave", label: "right-index", slot: 5, template: sampleTemplate(4), quality: 90)
        #expect(try store.enrolledSetDigest() != digest)
        #expect(throws: StoreError.self) { try store.moveFinger(from: 0, to: 5) }
        #expect(throws: StoreError.self) { try store.moveFinger(from: 9, to: 7) }
    }
}
