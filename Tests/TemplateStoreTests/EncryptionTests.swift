import Foundation
import Glibc
import Testing
@testable import TemplateStore

@Suite struct EncryptionTests {
    @Test func templatesAndPasswordAreNotInTheFileInClear() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let template = sampleTemplate(9)
        do {
            let store = try dir.openStore()
            try store.addUser(name: "alice")
            try store.addFinger(user: "alice", label: "left-thumb", slot: 0, template: template, quality: 70)
            _ = try store.beginEnrollIntent(user: "alice", label: "right-thumb", slot: 1, template: sampleTemplate(10))
            try store.setModuleIdentity(ModuleIdentity(family: "r30x", address: 0xC0FFEE01, password: 0x5EC2E7AB, capacity: 162))
            try store.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            #expect(try store.moduleIdentity()?.password == 0x5EC2E7AB)
        }
        let bytes = fileBytes(dir.database) + fileBytes("\(dir.database)-wal")
        #expect(bytes.count > 4096)
        #expect(contains(bytes, Array("alice".utf8)))  // the test can see what is in clear
        #expect(!contains(bytes, Array(template.prefix(32))))
        #expect(!contains(bytes, Array(template.suffix(64))))
        #expect(!contains(bytes, Array(sampleTemplate(10).prefix(32))))
        #expect(!contains(bytes, [0x5E, 0xC2, 0xE7, 0xAB]))
    }

    @Test func copiedStoreWithoutKeyFailsClearly() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        do {
            let store = try dir.openStore()
            try store.addUser(name: "alice")
            try store.addFinger(user: "alice", label: "left-thumb", slot: 0, template: sampleTemplate(1), quality: 70)
        }
        let copy = "\(dir.path)/stolen.db"
        _ = try PrivateFiles.createExclusively(copy, bytes: fileBytes(dir.database))
        _ = try PrivateFiles.createExclusively("\(copy)-wal", bytes: fileBytes("\(dir.database)-wal"))
        let missingKey = "\(dir.path)/nowhere/store.key"
        #expect(throws: StoreError.missingKey(keyPath: missingKey, databasePath: copy)) {
            _ = try TemplateStore(databasePath: copy, keyPath: missingKey)
        }
        #expect(!PrivateFiles.exists(missingKey))  // no new key was made silently
    }

    /// Cards only, or a panel card only: still data under the key, so a lost key file is an
    /// error and no new key is made (a new one would leave every card unmatched, silently).
    @Test func aStoreWithCardsButNoFingersNeedsItsKey() throws {
        for panelOnly in [false, true] {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            do {
                let store = try dir.openStore()
                try store.addUser(name: "alice")
                if panelOnly {
                    try store.setPanelCard(try CardNumber(parsing: "26:1:2"), for: "alice")
                } else {
                    try store.addCard(try CardNumber(parsing: "26:1:2"), label: try CardLabel(validating: "badge"), for: try UserName(validating: "alice"))
                }
            }
            let missingKey = "\(dir.path)/nowhere/store.key"
            #expect(throws: StoreError.missingKey(keyPath: missingKey, databasePath: dir.database), "panel only: \(panelOnly)") {
                _ = try TemplateStore(databasePath: dir.database, keyPath: missingKey)
            }
            #expect(!PrivateFiles.exists(missingKey))
        }
    }

    @Test func wrongKeyFailsClearly() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try dir.openStore()
        let otherKey = "\(dir.path)/other.key"
        _ = try PrivateFiles.createExclusively(otherKey, bytes: [UInt8](repeating: 7, count: 32))
        #expect {
            _ = try TemplateStore(databasePath: dir.database, keyPath: otherKey)
        } throws: { error in
            (error as? StoreError) == .wrongKey(keyPath: otherKey, databasePath: dir.database)
                && "\(error)".contains("does not open the store")
        }
        let shortKey = "\(dir.path)/short.key"
        _ = try PrivateFiles.createExclusively(shortKey, bytes: [1, 2, 3])
        #expect(throws: StoreError.badKeyFile(keyPath: shortKey, detail: "3 bytes instead of 32")) {
            _ = try TemplateStore(databasePath: dir.database, keyPath: shortKey)
        }
    }

    @Test func lostKeyOfAStoreWithoutSecretsIsReplaced() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        do { try dir.openStore().addUser(name: "alice") }
        let firstKey = fileBytes(dir.key)
        unlink(dir.key)
        let store = try dir.openStore()
        #expect(fileBytes(dir.key).count == 32 && fileBytes(dir.key) != firstKey)
        #expect(try store.user(named: "alice") != nil)
        _ = try dir.openStore()  // and the new key now opens it
    }

    @Test func blobsSwappedBetweenRowsAreDetected() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "alice")
        try store.addUser(name: "mallory")
        try store.addFinger(user: "alice", label: "right-index", slot: 1, template: sampleTemplate(1), quality: 90)
        try store.addFinger(user: "mallory", label: "right-index", slot: 2, template: sampleTemplate(2), quality: 90)
        // Mallory copies her encrypted template and digest into Alice's row.
        try store.connection.execute("""
            UPDATE fingers SET template = (SELECT template FROM fingers WHERE slot = 2),
                               template_digest = (SELECT template_digest FROM fingers WHERE slot = 2)
            WHERE slot = 1
            """)
        #expect(throws: StoreError.undecryptable(what: "the stored finger 1")) { _ = try store.template(atSlot: 1) }
        #expect(try store.template(atSlot: 2) == sampleTemplate(2))
    }

    @Test func flippedCiphertextByteIsDetected() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "alice")
        try store.addFinger(user: "alice", label: "right-index", slot: 1, template: sampleTemplate(1), quality: 90)
        var blob = try #require(try store.connection.scalar("SELECT template FROM fingers").bytes)
        blob[blob.count / 2] ^= 0x01
        try store.connection.query("UPDATE fingers SET template = ?", [.blob(blob)])
        #expect(throws: StoreError.self) { _ = try store.template(atSlot: 1) }
    }
}
