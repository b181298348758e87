import Administration
import Foundation
import HostReader
import TemplateStore
import Testing
import TestSupport

/// Restoring a backup of an image sensor's store onto a host reader: everything or nothing,
/// templates checked before the write and read back after it, and a module's backup refused.
@Suite(.serialized) struct HostRestoreTests {
    /// alice and bob enrolled on one bench, backed up as `fpmod backup` would.
    private func backupOfTwo() throws -> BackupContents {
        let source = try ReaderBench()
        try source.enroll("alice")
        try source.enroll("bob", label: "left-thumb")
        let contents = try source.store.backupContents()
        #expect(contents.readerKind == "image-sensor")
        #expect(contents.moduleFamily == nil)
        return contents
    }

    @Test func aBackupRestoredIntoAFreshStoreIdentifiesTheSameFingers() throws {
        let contents = try backupOfTwo()
        let target = try ReaderBench()
        let result = try target.reader.restore(contents, replacing: false)
        #expect(result.users == 2)
        #expect(result.slotsVerified == contents.users.flatMap { $0.fingers.map(\.slot) }.sorted())
        #expect(try StoreReaderKind.recorded(in: target.store) == .imageSensor)
        #expect(try target.store.users().map(\.name).sorted() == ["alice", "bob"])
        #expect(target.auditEvents.contains("restore"))
        #expect(try target.identify("alice-right-index").matched?.user == "alice")
        #expect(try target.identify("bob-left-thumb").matched?.user == "bob")
        #expect(try target.identify("carol-right-index").matched == nil)
    }

    @Test func aStoreWithUsersIsReplacedOnlyWhenConfirmed() throws {
        let contents = try backupOfTwo()
        let target = try ReaderBench()
        try target.enroll("dave")
        let refused = expectThrows(AdministrationError.self) { try target.reader.restore(contents, replacing: false) }
        #expect(refused == .restoreNeedsConfirmation(users: 1))
        #expect(try target.store.users().map(\.name) == ["dave"])
        #expect(try target.identify("dave-right-index").matched?.user == "dave")

        try target.reader.restore(contents, replacing: true)
        #expect(try target.store.users().map(\.name).sorted() == ["alice", "bob"])
        // The gallery the restore kept is the new one: dave is gone from matching too.
        #expect(try target.identify("dave-right-index").matched == nil)
        #expect(try target.identify("alice-right-index").matched?.user == "alice")
    }

    @Test func aModulesBackupIsRefusedBeforeAnythingChanges() throws {
        let contents = try backupOfTwo()
        let target = try ReaderBench()
        try target.enroll("dave")

        var family = contents
        family.moduleFamily = "r307"
        family.readerKind = nil
        #expect(refusal(target, family) == "its templates were made by a r307 module")

        var marked = contents
        marked.readerKind = "module"
        #expect(refusal(target, marked) == "it is marked as a module's store")

        // A backup from before the mark, of an unpaired module store: told by its template bytes.
        var unmarked = contents
        unmarked.readerKind = nil
        unmarked.users[0].fingers[0].template = [UInt8](repeating: 0x03, count: 512)
        let slot = unmarked.users[0].fingers[0].slot
        #expect(refusal(target, unmarked) == "slot \(slot), alice's right-index, holds a module template")

        #expect(try target.store.users().map(\.name) == ["dave"])
        #expect(try target.identify("dave-right-index").matched?.user == "dave")
    }

    @Test func aDamagedTemplateOrASlotOutsideTheLibraryIsRefusedNamingIt() throws {
        let contents = try backupOfTwo()
        let target = try ReaderBench(capacity: 1000)

        var damaged = contents
        damaged.users[1].fingers[0].template = Array("FPMH".utf8) + [UInt8](repeating: 0xEE, count: 40)
        let error = expectThrows(HostReaderError.self) { try target.reader.restore(damaged, replacing: true) }
        guard case let .unreadableBackupTemplate(slot, user, label, _)? = error else {
            Issue.record("expected unreadableBackupTemplate, got \(String(describing: error))")
            return
        }
        #expect(slot == damaged.users[1].fingers[0].slot && user == "bob" && label == "left-thumb")
        #expect(error?.description.contains("nothing was changed") == true)

        var outside = contents
        outside.users[0].fingers[0].slot = 1000
        #expect(expectThrows(AdministrationError.self) { try target.reader.restore(outside, replacing: true) }
                == .backupDoesNotFit(slot: 1000, capacity: 1000))
        #expect(try target.store.users().isEmpty)
        #expect(try StoreReaderKind.recorded(in: target.store) == nil)
    }

    @Test func aBackupFromBeforeTheMarkWithHostTemplatesIsRestored() throws {
        var contents = try backupOfTwo()
        contents.readerKind = nil
        let target = try ReaderBench()
        #expect(try target.reader.restore(contents, replacing: false).users == 2)
        #expect(try StoreReaderKind.recorded(in: target.store) == .imageSensor)
        #expect(try target.identify("bob-left-thumb").matched?.user == "bob")
    }

    @Test func cardsComeBackWithTheUsersAndABadOneChangesNothing() throws {
        let badge = CardNumber(wiegandBits: 26, facility: 123, number: 4567)
        let source = try ReaderBench()
        try source.enroll("alice")
        try source.store.addCard(badge, label: "badge", for: "alice")
        try source.store.setVerifyMode("card", for: "alice")
        let file = try source.store.exportBackup(passphrase: "correct horse battery", strength: .interactive)
        let contents = try TemplateStore.importBackup(file, passphrase: "correct horse battery")

        let target = try ReaderBench()
        try target.enroll("dave")
        var invalid = contents
        invalid.users[0].verifyMode = "always"
        let refused = expectThrows(StoreError.self) { try target.reader.restore(invalid, replacing: true) }
        guard case .backupInvalid(let detail)? = refused else {
            Issue.record("expected backupInvalid, got \(String(describing: refused))")
            return
        }
        #expect(detail.contains("alice's verify mode \"always\""))
        #expect(try target.store.users().map(\.name) == ["dave"])
        #expect(!target.auditEvents.contains("restore"))
        #expect(try target.identify("dave-right-index").matched?.user == "dave")

        let result = try target.reader.restore(contents, replacing: true)
        #expect(result.users == 1 && result.cards == 1)
        #expect(try target.store.card(matching: badge)?.owner.name == "alice")
        #expect(try target.store.verifyMode(of: "alice") == "card")
        let restore = try #require(target.auditEntries.last { $0.event == "restore" })
        #expect(restore.detail?.contains("1 fingers and 1 cards") == true, "\(restore.detail ?? "")")
        #expect(try target.identify("alice-right-index").matched?.user == "alice")
    }

    @Test func theBackupFileCarriesTheReaderKind() throws {
        let source = try ReaderBench()
        try source.enroll("alice")
        let file = try source.store.exportBackup(passphrase: "correct horse battery", strength: .interactive)
        let opened = try TemplateStore.importBackup(file, passphrase: "correct horse battery")
        #expect(opened.readerKind == "image-sensor")
        #expect(opened.users.map(\.name) == ["alice"])
    }

    private func refusal(_ bench: ReaderBench, _ contents: BackupContents) -> String? {
        let error = expectThrows(HostReaderError.self) { try bench.reader.restore(contents, replacing: true) }
        guard case .backupFromModule(let reason)? = error else { return nil }
        #expect(error?.description.contains("nothing was changed") == true)
        return reason
    }
}
