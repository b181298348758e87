import Foundation
import Testing
@testable import TemplateStore

@Suite struct BackupTests {
    /// A store with two users, a PIN and three fingers.
    func populatedStore(_ dir: TemporaryDirectory) throws -> TemplateStore {
        let store = try dir.openStore()
        try store.addUser(name: "alice", displayName: "Alice", role: .admin)
        try store.addUser(name: "bob", fingerprintUnlock: false)
        try store.setPIN("4826", for: "alice")
        try store.addFinger(user: "alice", label: "right-index", slot: 0, template: sampleTemplate(1), quality: 90,
                            enrolledAt: Date(timeIntervalSince1970: 1_700_000_000))
        try store.addFinger(user: "alice", label: "left-index", slot: 1, template: sampleTemplate(2), quality: 85)
        try store.addFinger(user: "bob", label: "right-thumb", slot: 7, template: sampleTemplate(3), quality: 60)
        try store.setModuleIdentity(ModuleIdentity(family: "r30x", address: 1, password: 2, capacity: 162))
        return store
    }

    @Test func roundTripIntoAnotherStore() throws {
        let source = try TemporaryDirectory(), target = try TemporaryDirectory()
        defer { source.remove(); target.remove() }
        let backup = try populatedStore(source).exportBackup(passphrase: "correct horse", strength: .interactive)
        #expect(!contains(backup, Array(sampleTemplate(1).prefix(24))))
        #expect(!contains(backup, Array("alice".utf8)))

        let contents = try TemplateStore.importBackup(backup, passphrase: "correct horse")
        #expect(contents.moduleFamily == "r30x")
        #expect(contents.users.map(\.name) == ["alice", "bob"])

        let restored = try target.openStore()
        try restored.addUser(name: "stranger")
        try restored.replaceAll(with: contents)
        #expect(try restored.users().map(\.name) == ["alice", "bob"])
        #expect(try restored.user(named: "alice")?.role == .admin)
        #expect(try restored.user(named: "bob")?.fingerprintUnlock == false)
        #expect(try restored.verifyPIN("4826", for: "alice"))
        #expect(try restored.template(atSlot: 7) == sampleTemplate(3))
        #expect(try restored.finger(atSlot: 0)?.enrolledAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try restored.enrolledSetDigest() == populatedStore(try TemporaryDirectory()).enrolledSetDigest())
        #expect(try restored.auditEntries().last?.event == "restore")
    }

    @Test func wrongPassphraseIsReported() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let backup = try populatedStore(dir).exportBackup(passphrase: "right", strength: .interactive)
        #expect(throws: StoreError.backupWrongPassphrase) { _ = try TemplateStore.importBackup(backup, passphrase: "wrong") }
        #expect(throws: StoreError.backupEmptyPassphrase) { _ = try populatedStore(try TemporaryDirectory()).exportBackup(passphrase: "") }
    }

    @Test func headerRecordsTheKDFParameters() throws {
        let contents = BackupContents(createdAt: Date(timeIntervalSince1970: 5), moduleFamily: nil, users: [])
        let bytes = try BackupFile.seal(contents, passphrase: "p", strength: .interactive)
        #expect(Array(bytes.prefix(8)) == Array("FPMODBK1".utf8))
        #expect(bytes[8] == 1 && bytes[9] == 2)
        let ops = bytes[10..<18].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let mem = bytes[18..<26].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(ops == BackupStrength.interactive.limits.ops && mem == BackupStrength.interactive.limits.mem)
        #expect(try BackupFile.open(bytes, passphrase: "p") == contents)
    }

    /// One flipped bit in each region of the file gives that region's error, never contents.
    @Test(arguments: [
        ("magic", 0), ("version", 8), ("kdf id", 9), ("opslimit", 12), ("memlimit", 20),
        ("salt", 30), ("nonce", 50), ("check", 70), ("digest", 90), ("ciphertext start", 120), ("tag", -1),
    ])
    func flippedByteIsDetected(region: String, offset: Int) throws {
        let contents = BackupContents(createdAt: Date(timeIntervalSince1970: 5), moduleFamily: "r30x", users: [
            BackupUser(name: "a", displayName: "A", role: .user, fingerprintUnlock: true, pinHash: nil,
                       createdAt: Date(timeIntervalSince1970: 6),
                       fingers: [BackupFinger(label: "l", slot: 1, template: sampleTemplate(1), quality: 1,
                                              enrolledAt: Date(timeIntervalSince1970: 7))]),
        ])
        var bytes = try BackupFile.seal(contents, passphrase: "p", strength: .interactive)
        let index = offset < 0 ? bytes.count + offset : offset
        bytes[index] ^= 0x10
        let expected: (StoreError) -> Bool
        switch region {
        case "magic": expected = { $0 == .backupNotABackup }
        case "version": expected = { $0 == .backupUnsupportedVersion(0x11) }
        default: expected = { if case .backupCorrupted = $0 { return true } else { return false } }
        }
        #expect {
            _ = try BackupFile.open(bytes, passphrase: "p")
        } throws: { error in
            guard let storeError = error as? StoreError else { return false }
            return expected(storeError) && "\(storeError)".contains(region == "magic" ? "not an fpmod backup" : "backup")
        }
    }

    @Test func truncatedOrForeignFilesAreRefused() throws {
        #expect(throws: StoreError.backupNotABackup) { _ = try BackupFile.open(Array("hello".utf8), passphrase: "p") }
        #expect(throws: StoreError.backupCorrupted(detail: "the file is truncated")) {
            _ = try BackupFile.open(Array("FPMODBK1".utf8) + [1, 2, 3], passphrase: "p")
        }
        #expect(throws: StoreError.backupCorrupted(detail: "the file is truncated")) {
            _ = try BackupFile.open(Array("FPMODBK1".utf8), passphrase: "p")
        }
    }

    @Test func failedRestoreChangesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try populatedStore(dir)
        let before = try store.backupContents(createdAt: Date(timeIntervalSince1970: 0))
        // Two fingers on one slot: the second insert fails half-way through the restore.
        let clash = BackupContents(createdAt: Date(), moduleFamily: nil, users: [
            BackupUser(name: "x", displayName: "X", role: .user, fingerprintUnlock: true, pinHash: nil, createdAt: Date(),
                       fingers: [BackupFinger(label: "a", slot: 3, template: [1], quality: 1, enrolledAt: Date()),
                                 BackupFinger(label: "b", slot: 3, template: [2], quality: 1, enrolledAt: Date())]),
        ])
        #expect(throws: StoreError.slotTaken(slot: 3, user: "x", label: "a")) { try store.replaceAll(with: clash) }
        #expect(try store.backupContents(createdAt: Date(timeIntervalSince1970: 0)) == before)
    }
}
