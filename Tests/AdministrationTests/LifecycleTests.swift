import Administration
import FingerprintProtocol
import Foundation
import ModuleSimulator
import TemplateStore
import Testing

@Suite(.serialized) struct LifecycleTests {
    @Test func unknownSlotMatchIsTamperNeverAMatch() throws {
        let bench = try Bench()
        let admin = try bench.open()
        try bench.enroll(admin, "alice")
        try bench.plantTemplate(finger: "mallory", slot: 7, using: admin.module)
        guard case .tamper(let slot, _) = try bench.identify(admin, finger: "mallory") else {
            Issue.record("a planted template was not reported as tamper")
            return
        }
        #expect(slot == 7)
        #expect(bench.auditEvents.contains("tamper"))
        // The next open names the planted slot and does not delete it on its own.
        let reopened = try bench.open()
        #expect(reopened.finding == .foreign(unknownSlots: [7], missingSlots: []))
        #expect(bench.server.library[7] != nil)
    }

    @Test func deleteOneFingerThenTheUser() throws {
        let bench = try Bench()
        let admin = try bench.open()
        try bench.enroll(admin, "alice")
        try bench.enroll(admin, "alice", label: "left-index")
        let one = try admin.delete(user: "alice", label: "left-index")
        #expect(one.fingers == [RemovedFinger(label: "left-index", slot: 1)] && !one.userRemoved)
        #expect(Set(bench.server.library.keys) == [0])
        #expect(throws: AdministrationError.unknownFinger(user: "alice", label: "left-index")) {
            try admin.delete(user: "alice", label: "left-index")
        }
        let all = try admin.delete(user: "alice")
        #expect(all.userRemoved)
        #expect(bench.server.library.isEmpty)
        #expect(try bench.store.user(named: "alice") == nil)
        guard case .nothingEnrolled = try bench.identify(admin, finger: "alice-right-index") else {
            Issue.record("identify found something in an empty library")
            return
        }
    }

    @Test func wipeEmptiesModuleAndStore() throws {
        let bench = try Bench()
        let admin = try bench.open()
        try bench.enroll(admin, "alice")
        try bench.enroll(admin, "bob")
        #expect(try admin.wipe() == 2)
        #expect(bench.server.library.isEmpty)
        #expect(try bench.store.users().isEmpty)
        #expect(bench.auditEvents.last == "wipe")
    }

    @Test func unlockSwitchNeedsVerificationOfUserOrAdmin() throws {
        let bench = try Bench()
        let admin = try bench.open()
        try bench.enroll(admin, "alice")
        try bench.enroll(admin, "bob")
        try bench.enroll(admin, "root", admin: true)
        #expect(throws: AdministrationError.verificationRequired(user: "alice")) {
            try admin.setFingerprintUnlock(user: "alice", enabled: false, verifiedBy: nil)
        }
        let bobProof = admin.verification(from: try bench.identify(admin, finger: "bob-right-index"))
        #expect(throws: AdministrationError.verificationRequired(user: "alice")) {
            try admin.setFingerprintUnlock(user: "alice", enabled: false, verifiedBy: bobProof)
        }
        let rootProof = admin.verification(from: try bench.identify(admin, finger: "root-right-index"))
        try admin.setFingerprintUnlock(user: "alice", enabled: false, verifiedBy: rootProof)
        #expect(try bench.store.user(named: "alice")?.fingerprintUnlock == false)
        let aliceProof = admin.verification(from: try bench.identify(admin, finger: "alice-right-index"))
        try admin.setFingerprintUnlock(user: "alice", enabled: true, verifiedBy: aliceProof)
        #expect(try bench.store.user(named: "alice")?.fingerprintUnlock == true)
    }

    @Test func backupRestoresOntoAFreshModuleAndIdentifiesAgain() throws {
        let source = try Bench()
        let admin = try source.open()
        try source.enroll(admin, "alice")
        try source.enroll(admin, "bob", label: "left-thumb")
        let path = source.directory + "/backup.fpb"
        try StoreAdministration.backup(source.store, to: path, passphrase: "correct horse")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))

        // A second module (second server instance) and a second, empty store.
        let target = try Bench()
        let fresh = try target.open()
        let result = try fresh.restore(try TemplateStore.importBackup(bytes, passphrase: "correct horse"), replacing: false)
        #expect(result.users == 2)
        #expect(result.slotsVerified == [0, 1])
        #expect(try target.identify(fresh, finger: "alice-right-index").matchedUser == "alice")
        #expect(try target.identify(fresh, finger: "bob-left-thumb").matchedUser == "bob")
        #expect(try target.store.pendingIntents().isEmpty)
        // A store with users needs the confirmation.
        #expect(throws: AdministrationError.restoreNeedsConfirmation(users: 2)) {
            try fresh.restore(try TemplateStore.importBackup(bytes, passphrase: "correct horse"), replacing: false)
        }
    }

    @Test func damagedBackupOrWrongPassphraseChangesNothing() throws {
        let bench = try Bench()
        let admin = try bench.open()
        try bench.enroll(admin, "alice")
        let path = bench.directory + "/backup.fpb"
        try StoreAdministration.backup(bench.store, to: path, passphrase: "correct horse")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(throws: StoreError.backupWrongPassphrase) { try TemplateStore.importBackup(bytes, passphrase: "wrong") }
        bytes[bytes.count / 2] ^= 0x01
        #expect(throws: StoreError.self) { try TemplateStore.importBackup(bytes, passphrase: "correct horse") }
        #expect(try bench.store.users().map(\.name) == ["alice"])
    }

    @Test func restoreOntoAnotherFamilyIsRefused() throws {
        let source = try Bench()
        let admin = try source.open()
        try admin.pair()
        try source.enroll(admin, "alice")
        let contents = try source.store.backupContents()
        #expect(contents.moduleFamily == "r30x")
        let target = try Bench(profile: .r503)
        let other = try target.open()
        do {
            try other.restore(contents, replacing: true)
            Issue.record("an r30x backup was restored onto an r50x module")
        } catch AdministrationError.templatesDoNotFit(_, let family, let sizes, let moduleFamily, let moduleSize, let slots) {
            #expect(family == "r30x" && moduleFamily == "r50x")
            #expect(sizes == [512] && moduleSize == 1536)
            #expect(slots == [0])
        }
        #expect(target.server.library.isEmpty)
        #expect(try target.store.users().isEmpty)
    }

    @Test func syncRepairsOrphanAndMissingSlots() throws {
        let bench = try Bench()
        let admin = try bench.open()
        try bench.enroll(admin, "alice")
        try bench.enroll(admin, "bob")
        try bench.plantTemplate(finger: "mallory", slot: 9, using: admin.module)
        try admin.module.deleteTemplates(start: 1, count: 1)
        let reopened = try bench.open()
        #expect(reopened.finding == .foreign(unknownSlots: [9], missingSlots: [1]))
        let changes = try reopened.sync()
        #expect(changes == [.restoreToModule(slot: 1), .deleteOrphan(slot: 9)])
        #expect(Set(bench.server.library.keys) == [0, 1])
        #expect(try bench.identify(reopened, finger: "bob-right-index").matchedUser == "bob")
        #expect(try reopened.sync().isEmpty)
        #expect(try bench.open().finding == .unpaired)
    }
}
