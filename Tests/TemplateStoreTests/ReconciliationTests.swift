import Foundation
import Testing
@testable import TemplateStore

@Suite struct ReconciliationPlannerTests {
    let template = sampleTemplate(1)

    func enroll(_ id: Int64, slot: Int?, template: [UInt8]?, state: Intent.State = .moduleWritten) -> Intent {
        Intent(id: id, kind: .enroll, user: "alice", label: "right-index", slot: slot, template: template, quality: 80, state: state)
    }

    /// A whole user's delete cut between fingers: the finger in flight is settled first, then the
    /// user's delete is finished (after every slot, so the caller deletes what the user still has).
    @Test func interruptedUserDeleteIsFinishedAfterTheSlots() {
        let user = Intent(id: 1, kind: .delete, user: "carol", label: nil, slot: nil, template: nil, quality: nil, state: .pending)
        let finger = Intent(id: 2, kind: .delete, user: "carol", label: "right-index", slot: 3, template: nil, quality: nil, state: .moduleWritten)
        let plan = planReconciliation(storeSlots: [3: "c", 4: "d"], moduleOccupied: [4], pending: [user, finger])
        #expect(plan == [.finishDelete(intentID: 2, slot: 3, deleteFromModule: false), .finishDeleteUser(intentID: 1, user: "carol")])
        #expect(plan[1].moduleWork == nil)
        #expect(plan[1].description == "finished interrupted delete #1 of user carol")
    }

    @Test func aWipeSupersedesAnInterruptedUserDelete() {
        let user = Intent(id: 1, kind: .delete, user: "carol", label: nil, slot: nil, template: nil, quality: nil, state: .pending)
        let wipe = Intent(id: 2, kind: .wipe, user: nil, label: nil, slot: nil, template: nil, quality: nil, state: .pending)
        let plan = planReconciliation(storeSlots: [3: "c"], moduleOccupied: [3], pending: [user, wipe])
        #expect(plan.first == .finishWipe(intentID: 2))
        guard case .dropIntent(1, _)? = plan.last else { Issue.record("expected the user delete dropped, got \(plan)"); return }
    }

    @Test func agreementNeedsNothing() {
        #expect(planReconciliation(storeSlots: [1: "a", 2: "b"], moduleOccupied: [1, 2], pending: []).isEmpty)
    }

    @Test func confirmedEnrollOnOccupiedSlotIsFinished() {
        let plan = planReconciliation(storeSlots: [:], moduleOccupied: [4], pending: [enroll(1, slot: 4, template: template)])
        #expect(plan == [.finishEnroll(intentID: 1, slot: 4, rewriteModule: false)])
        #expect(plan[0].moduleWork == nil)
    }

    @Test func unconfirmedEnrollOnOccupiedSlotIsFinishedByRewriting() {
        let plan = planReconciliation(storeSlots: [:], moduleOccupied: [4],
                                      pending: [enroll(1, slot: 4, template: template, state: .pending)])
        #expect(plan == [.finishEnroll(intentID: 1, slot: 4, rewriteModule: true)])
        #expect(plan[0].moduleWork == .writeTemplate(slot: 4))
    }

    @Test func enrollWithEmptyModuleSlotIsRolledBack() {
        let plan = planReconciliation(storeSlots: [:], moduleOccupied: [], pending: [enroll(1, slot: 4, template: template, state: .pending)])
        #expect(plan == [.rollBackEnroll(intentID: 1, slot: 4, deleteFromModule: false)])
        #expect(plan[0].moduleWork == nil)
    }

    @Test func enrollWithoutTemplateOnOccupiedSlotIsDeletedFromModule() {
        let plan = planReconciliation(storeSlots: [:], moduleOccupied: [4], pending: [enroll(1, slot: 4, template: nil)])
        #expect(plan == [.rollBackEnroll(intentID: 1, slot: 4, deleteFromModule: true)])
        #expect(plan[0].moduleWork == .deleteSlot(4))
    }

    @Test func enrollThatCanNeverFinishIsAbandonedAndItsSlotErased() {
        let plan = planReconciliation(storeSlots: [:], moduleOccupied: [4], pending: [enroll(1, slot: 4, template: template)],
                                      unfinishable: [1: "bad name"])
        #expect(plan == [.abandonEnroll(intentID: 1, slot: 4, deleteFromModule: true, reason: "bad name")])
        #expect(plan[0].moduleWork == .deleteSlot(4))
        #expect(plan[0].description.contains("can never finish (bad name)"))
        #expect(!plan[0].description.contains("\n"))
    }

    @Test func unfinishableEnrollNeverTouchesASlotTheStoreGivesAFinger() {
        let plan = planReconciliation(storeSlots: [4: "d"], moduleOccupied: [4], pending: [enroll(1, slot: 4, template: template)],
                                      unfinishable: [1: "bad name"])
        guard case .dropIntent(1, _) = plan.first else { Issue.record("expected dropIntent, got \(plan)"); return }
        #expect(plan.allSatisfy { $0.moduleWork == nil })
    }

    @Test func enrollAlreadyInStoreIsDropped() {
        let plan = planReconciliation(storeSlots: [4: "d"], moduleOccupied: [4], pending: [enroll(1, slot: 4, template: template)])
        #expect(plan.count == 1)
        guard case .dropIntent(1, _) = plan[0] else { Issue.record("expected dropIntent, got \(plan)"); return }
    }

    @Test func intentWithoutSlotIsDropped() {
        let plan = planReconciliation(storeSlots: [:], moduleOccupied: [],
                                      pending: [enroll(1, slot: nil, template: template), Intent(id: 2, kind: .delete)])
        #expect(plan.map { (action: RepairAction) -> Int64 in if case .dropIntent(let id, _) = action { return id } else { return Int64(-1) } } == [1, 2])
    }

    @Test func orphanModuleSlotIsDeleted() {
        let plan = planReconciliation(storeSlots: [1: "a"], moduleOccupied: [1, 7], pending: [])
        #expect(plan == [.deleteOrphan(slot: 7)])
        #expect(plan[0].moduleWork == .deleteSlot(7))
    }

    @Test func slotMissingFromModuleIsRestored() {
        let plan = planReconciliation(storeSlots: [1: "a", 2: "b"], moduleOccupied: [1], pending: [])
        #expect(plan == [.restoreToModule(slot: 2)])
        #expect(plan[0].moduleWork == .writeTemplate(slot: 2))
    }

    @Test func pendingDeleteStillOnModuleIsFinished() {
        let plan = planReconciliation(storeSlots: [3: "c"], moduleOccupied: [3],
                                      pending: [Intent(id: 5, kind: .delete, user: "alice", slot: 3)])
        #expect(plan == [.finishDelete(intentID: 5, slot: 3, deleteFromModule: true)])
    }

    @Test func pendingDeleteGoneFromModuleOnlyDeletesRow() {
        let plan = planReconciliation(storeSlots: [3: "c"], moduleOccupied: [],
                                      pending: [Intent(id: 5, kind: .delete, user: "alice", slot: 3)])
        #expect(plan == [.finishDelete(intentID: 5, slot: 3, deleteFromModule: false)])
        #expect(plan[0].moduleWork == nil)
    }

    @Test func pendingWipeSupersedesEverything() {
        let plan = planReconciliation(storeSlots: [1: "a"], moduleOccupied: [9],
                                      pending: [enroll(1, slot: 4, template: template), Intent(id: 2, kind: .wipe)])
        #expect(plan.first == .finishWipe(intentID: 2))
        #expect(plan.first?.moduleWork == .emptyLibrary)
        #expect(plan.count == 2)
        guard case .dropIntent(1, _) = plan[1] else { Issue.record("expected dropIntent, got \(plan)"); return }
    }

    @Test func pendingRestoreRewritesEveryStoreSlot() {
        let plan = planReconciliation(storeSlots: [1: "a", 2: "b"], moduleOccupied: [1, 2, 8],
                                      pending: [Intent(id: 3, kind: .restore)])
        #expect(Array(plan.prefix(3)) == [.restoreToModule(slot: 1), .restoreToModule(slot: 2), .deleteOrphan(slot: 8)])
        guard plan.count == 4, case .dropIntent(3, _) = plan[3] else { Issue.record("expected dropIntent, got \(plan)"); return }
    }

    /// A restore of one slot (a finger the fleet's hub sent to a module door) writes that slot
    /// alone, whether the module has something there or not; the rest of the library is the
    /// plain comparison's. Once the store lost the slot, the write is dropped.
    @Test func aRestoreOfOneSlotWritesThatSlotAlone() {
        let load = Intent(id: 4, kind: .restore, user: "alice", label: "right-index", slot: 2)
        let plan = planReconciliation(storeSlots: [1: "a", 2: "b"], moduleOccupied: [1, 2], pending: [load])
        #expect(plan == [.loadFromHub(intentID: 4, slot: 2)])
        #expect(plan[0].moduleWork == .writeTemplate(slot: 2))
        let missing = planReconciliation(storeSlots: [1: "a", 2: "b"], moduleOccupied: [], pending: [load])
        #expect(missing == [.loadFromHub(intentID: 4, slot: 2), .restoreToModule(slot: 1)])
        let gone = planReconciliation(storeSlots: [1: "a"], moduleOccupied: [1, 2], pending: [load])
        guard gone.count == 2, case .dropIntent(4, _) = gone[0], gone[1] == .deleteOrphan(slot: 2) else {
            Issue.record("expected the write dropped and the slot's template deleted, got \(gone)")
            return
        }
    }

    @Test func settledSlotsAreNotTouchedAgain() {
        // An enroll rolled back on slot 4 must not also produce an orphan delete for it.
        let plan = planReconciliation(storeSlots: [:], moduleOccupied: [4], pending: [enroll(1, slot: 4, template: nil)])
        #expect(plan.count == 1)
    }

    @Test func everyActionDescribesItself() {
        let actions: [RepairAction] = [
            .finishEnroll(intentID: 1, slot: 2, rewriteModule: true), .rollBackEnroll(intentID: 1, slot: 2, deleteFromModule: true),
            .finishDelete(intentID: 1, slot: 2, deleteFromModule: false), .finishWipe(intentID: 1),
            .deleteOrphan(slot: 2), .restoreToModule(slot: 2), .dropIntent(intentID: 1, reason: "why"),
            .loadFromHub(intentID: 1, slot: 2),
        ]
        #expect(Set(actions.map(\.description)).count == actions.count)
        #expect(actions.allSatisfy { !$0.description.isEmpty })
    }
}

@Suite struct IntentStoreTests {
    @Test func interruptedEnrollIsFinishedFromTheIntent() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        do {
            let store = try dir.openStore()
            try store.addUser(name: "alice")
            let id = try store.beginEnrollIntent(user: "alice", label: "right-index", slot: 4, template: sampleTemplate(4), quality: 91)
            try store.markIntentModuleWritten(id)
            // … and the process dies before the finger row is written.
        }
        let store = try dir.openStore()
        let pending = try store.pendingIntents()
        #expect(pending.count == 1 && pending[0].template == sampleTemplate(4) && pending[0].state == .moduleWritten)
        let plan = try store.planReconciliation(moduleOccupied: [4])
        #expect(plan == [.finishEnroll(intentID: pending[0].id, slot: 4, rewriteModule: false)])
        try store.applyStoreSide(of: plan[0])
        #expect(try store.pendingIntents().isEmpty)
        #expect(try store.template(atSlot: 4) == sampleTemplate(4))
        #expect(try store.finger(atSlot: 4)?.quality == 91)
        let audit = try store.auditEntries()
        #expect(audit.last?.event == "repair" && audit.last?.detail == plan[0].description && audit.last?.user == "alice")
        #expect(try store.planReconciliation(moduleOccupied: [4]).isEmpty)
    }

    @Test func storeSideOfEachRepair() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "alice")
        try store.addFinger(user: "alice", label: "a", slot: 1, template: sampleTemplate(1), quality: 1)
        let rollBack = try store.beginEnrollIntent(user: "alice", label: "b", slot: 2)
        let delete = try store.beginIntent(.delete, user: "alice", label: "a", slot: 1)
        let plan = try store.planReconciliation(moduleOccupied: [1, 9])
        #expect(plan == [.rollBackEnroll(intentID: rollBack, slot: 2, deleteFromModule: false),
                         .finishDelete(intentID: delete, slot: 1, deleteFromModule: true),
                         .deleteOrphan(slot: 9)])
        for action in plan { try store.applyStoreSide(of: action) }
        #expect(try store.pendingIntents().isEmpty && store.occupiedSlots().isEmpty)
        #expect(try store.auditEntries().filter { $0.event == "repair" }.count == 3)

        try store.addFinger(user: "alice", label: "c", slot: 3, template: sampleTemplate(3), quality: 1)
        let wipe = try store.beginIntent(.wipe)
        try store.applyStoreSide(of: .finishWipe(intentID: wipe))
        #expect(try store.users().isEmpty && store.pendingIntents().isEmpty)
        #expect(throws: StoreError.unknownIntent(wipe)) { try store.completeIntent(wipe) }
    }

    @Test func completingInTheSameTransactionAsTheRow() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "alice")
        try store.addFinger(user: "alice", label: "a", slot: 1, template: sampleTemplate(1), quality: 1)
        let id = try store.beginEnrollIntent(user: "alice", label: "b", slot: 1, template: sampleTemplate(2))
        // The slot is taken, so the row insert fails and the intent must stay pending.
        #expect(throws: StoreError.slotTaken(slot: 1, user: "alice", label: "a")) {
            try store.transaction {
                try store.completeIntent(id)
                try store.addFinger(user: "alice", label: "b", slot: 1, template: sampleTemplate(2), quality: 1)
            }
        }
        #expect(try store.pendingIntents().map(\.id) == [id])
    }
}
