import Foundation
import Testing
@testable import TemplateStore

/// DESFire secure cards in the store: the master key sealed in store_meta, and the `desfire`
/// kind of card (migration 6), hashed like the others.
@Suite struct DESFireStoreTests {
    @Test func theMasterKeyIsMadeOnceSealedAndKeptAcrossOpenings() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        #expect(try store.desfireMasterKey(create: false) == nil)
        let key = try #require(try store.desfireMasterKey(create: true))
        #expect(key.count == 16)
        #expect(try store.desfireMasterKey(create: true) == key)
        #expect(try store.desfireMasterKey(create: false) == key)
        #expect(try store.auditEntries(limit: 10).contains { $0.event == "desfire-master-key-created" })
        let reopened = try dir.openStore()
        #expect(try reopened.desfireMasterKey(create: false) == key)
        // Sealed: neither the database nor its write-ahead log holds the key in clear, while
        // they do hold the sealed box (the check would pass vacuously on an empty file).
        let files = fileBytes(dir.database) + fileBytes(dir.database + "-wal")
        #expect(contains(files, Array(TemplateStore.desfireMasterKeyName.utf8)))
        #expect(!contains(files, key))
    }

    @Test func aDESFireCardIsItsOwnKindAndNotTypedByHand() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "alice")
        let uid: [UInt8] = [0x04, 0x52, 0x7A, 0x92, 0xC1, 0x5E, 0x80]
        try store.addCard(CardNumber(desfireUID: uid), label: "badge", for: "alice")
        #expect(try store.cards().map(\.kind) == [.desfire])
        #expect(try store.card(matching: CardNumber(desfireUID: uid))?.card.label == "badge")
        // The same UID read as a plain UID is another credential: a copy of the UID is not the card.
        #expect(try store.card(matching: CardNumber(uid: uid)) == nil)
        #expect(throws: CardNumberError.desfireNotTyped) { try CardNumber(parsing: "desfire:04527A92C15E80") }
    }

    /// A version-5 database (cards whose kind CHECK knows no desfire) is rebuilt by migration 6
    /// with its cards, which still match, and then takes a DESFire card.
    @Test func migrationSixKeepsTheCards() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        do {
            let store = try dir.openStore()
            try store.addUser(name: "alice")
            try store.addCard(CardNumber(wiegandBits: 26, facility: 1, number: 2), label: "badge", for: "alice")
        }
        // Back to version 5 as it was released: the table with the old CHECK, user_version 5.
        let downgrade = try runPython("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executescript(\"\"\"
            CREATE TABLE cards_v5 (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                label TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('wiegand', 'nfc-uid')), number_hash BLOB NOT NULL UNIQUE,
                enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)), added_at REAL NOT NULL, UNIQUE (user_id, label));
            INSERT INTO cards_v5 SELECT id, user_id, label, kind, number_hash, enabled, added_at FROM cards;
            DROP TABLE cards; DROP TABLE card_edits_for_hub;
            ALTER TABLE cards_v5 RENAME TO cards;
            CREATE INDEX cards_user ON cards(user_id);
            DROP TABLE schedules; DROP TABLE holidays;
            ALTER TABLE users DROP COLUMN from_hub; ALTER TABLE fingers DROP COLUMN hub_digest;
            ALTER TABLE users DROP COLUMN schedule; ALTER TABLE users DROP COLUMN valid_from;
            ALTER TABLE users DROP COLUMN valid_until; ALTER TABLE users DROP COLUMN uses_left;
            DROP TABLE console_sessions; DROP TABLE console_accounts; DROP TABLE console_tokens; DROP TABLE console_setup; DROP TABLE console_login_failures;
            ALTER TABLE audit DROP COLUMN prev_hash; ALTER TABLE audit DROP COLUMN hash; ALTER TABLE audit DROP COLUMN mac;
            PRAGMA user_version = 5;
            \"\"\")
            db.commit()
            """, [dir.database])
        #expect(downgrade.status == 0)
        let store = try dir.openStore()
        #expect(try store.schemaVersion() == Schema.currentVersion)
        #expect(try store.card(matching: CardNumber(wiegandBits: 26, facility: 1, number: 2))?.card.label == "badge")
        try store.addCard(CardNumber(desfireUID: [0x04, 1, 2, 3, 4, 5, 6]), label: "desfire", for: "alice")
        #expect(try store.cards(of: "alice").map(\.kind) == [.wiegand, .desfire])
    }
}
