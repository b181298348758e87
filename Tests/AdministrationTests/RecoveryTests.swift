import Administration
import FingerprintProtocol
import ModuleSimulator
import TemplateStore
import Testing

/// Interruptions at each step of the crash-sensitive sequences, then the next open.
@Suite(.serialized) struct RecoveryTests {
    func interruptedEnroll(at point: String) throws -> Bench {
        let bench = try Bench()
        let admin = try bench.open()
        admin.failpoint = { if $0 == point { throw Crash(at: $0) } }
        #expect(throws: Crash(at: point)) { try bench.enroll(admin, "alice") }
        return bench
    }

    @Test func enrollInterruptedBeforeModuleWriteIsRolledBack() throws {
        let bench = try interruptedEnroll(at: "enroll.before-module-write")
        #expect(try bench.store.pendingIntents().count == 1)
        _ = try bench.open()
        #expect(try bench.store.pendingIntents().isEmpty)
        #expect(try bench.store.user(named: "alice") == nil)
        #expect(bench.server.library.isEmpty)
        #expect(bench.auditEvents.last == "repair")
    }

    @Test(arguments: ["enroll.after-module-write", "enroll.before-commit"])
    func enrollInterruptedAfterModuleWriteIsFinished(point: String) throws {
        let bench = try interruptedEnroll(at: point)
        let admin = try bench.open()
        #expect(try bench.store.pendingIntents().isEmpty)
        #expect(try bench.store.fingers(of: "alice").map(\.slot) == [0])
        #expect(bench.auditEvents.last == "repair")
        #expect(try bench.identify(admin, finger: "alice-right-index").matchedUser == "alice")
    }

    @Test func enrollInterruptedDuringUploadLeavesNothing() throws {
        let bench = try interruptedEnroll(at: "enroll.during-upload")
        _ = try bench.open()
        #expect(try bench.store.pendingIntents().isEmpty)
        #expect(bench.server.library.isEmpty)
        #expect(try bench.store.users().isEmpty)
    }

    @Test func deleteAndWipeInterruptedAreFinished() throws {
        let bench = try Bench()
        let admin = try bench.open()
        try bench.enroll(admin, "alice")
        try bench.enroll(admin, "bob")
        admin.failpoint = { if $0 == "delete.before-module-write" { throw Crash(at: $0) } }
        #expect(throws: Crash(at: "delete.before-module-write")) { try admin.delete(user: "alice") }
        let next = try bench.open()
        // A whole user's delete is one change: the open finished it, user row included.
        #expect(try bench.store.user(named: "alice") == nil)
        #expect(try bench.store.users().map(\.name) == ["bob"])
        #expect(Set(bench.server.library.keys) == [1])
        next.failpoint = { if $0 == "wipe.after-module-write" { throw Crash(at: $0) } }
        #expect(throws: Crash(at: "wipe.after-module-write")) { try next.wipe() }
        #expect(try bench.store.users().count == 1)
        _ = try bench.open()
        #expect(try bench.store.users().isEmpty)
        #expect(bench.server.library.isEmpty)
    }

    @Test func restoreInterruptedIsRedoneAtNextOpen() throws {
        let source = try Bench()
        let admin = try source.open()
        try source.enroll(admin, "alice")
        try source.enroll(admin, "bob")
        let contents = try source.store.backupContents()
        let target = try Bench()
        let fresh = try target.open()
        fresh.failpoint = { if $0 == "restore.before-module-write" { throw Crash(at: $0) } }
        #expect(throws: Crash(at: "restore.before-module-write")) { try fresh.restore(contents, replacing: true) }
        #expect(target.server.library.isEmpty)
        let next = try target.open()
        #expect(Set(target.server.library.keys) == [0, 1])
        #expect(try target.store.pendingIntents().isEmpty)
        #expect(try target.identify(next, finger: "bob-right-index").matchedUser == "bob")
    }

    @Test func moduleThatStopsAnsweringBeforeStoreIsRolledBackLater() throws {
        let bench = try Bench()
        let admin = try bench.open()
        admin.failpoint = { if $0 == "enroll.before-module-write" { bench.server.fault(.silence) } }
        do {
            try bench.enroll(admin, "alice")
            Issue.record("enroll succeeded against a silent module")
        } catch AdministrationError.interrupted(let operation, _) {
            #expect(operation.contains("alice"))
        }
        #expect(try bench.store.pendingIntents().count == 1)
        bench.server.fault(.none)
        _ = try bench.open()
        #expect(try bench.store.pendingIntents().isEmpty)
        #expect(try bench.store.users().isEmpty)
        #expect(bench.server.library.isEmpty)
    }

    @Test func lostStoreAcknowledgementEndsConsistent() throws {
        let bench = try Bench()
        let admin = try bench.open()
        admin.failpoint = { if $0 == "enroll.before-module-write" { bench.server.fault(.drop) } }
        do { try bench.enroll(admin, "alice") } catch AdministrationError.interrupted {}
        _ = try bench.open()
        #expect(try bench.store.pendingIntents().isEmpty)
        #expect(try bench.store.occupiedSlots() == Set(bench.server.library.keys))
        #expect(try bench.store.fingers(of: "alice").count == 1)
    }
}
