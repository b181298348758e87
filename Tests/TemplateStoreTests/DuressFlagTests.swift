import Foundation
import Testing
@testable import TemplateStore

/// Duress fingers are data (migration 3), carried by backups; the old label convention is
/// converted once, at migration and when an old backup is read.
@Suite struct DuressFlagTests {
    @Test func addFingerKeepsTheFlagAndTheSetterChangesIt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "alice")
        try store.addFinger(user: "alice", label: "right-index", slot: 0, template: sampleTemplate(1), quality: 90)
        try store.addFinger(user: "alice", label: "left-pinky", slot: 1, template: sampleTemplate(2), quality: 90, duress: true)
        #expect(try store.finger(atSlot: 0)?.isDuress == false)
        #expect(try store.finger(atSlot: 1)?.isDuress == true)

        try store.setDuress(true, user: "alice", label: "right-index")
        try store.setDuress(false, user: "alice", label: "left-pinky")
        #expect(try store.fingers(of: "alice").map(\.isDuress) == [true, false])
        #expect(throws: StoreError.unknownFinger(user: "alice", label: "thumb")) {
            try store.setDuress(true, user: "alice", label: "thumb")
        }
        #expect(throws: StoreError.unknownUser("nobody")) { try store.setDuress(true, user: "nobody", label: "x") }
    }

    /// A file in the shape migrations 1 and 2 left it (made from a real store, with its key and
    /// sealed templates, whose fingers table is rebuilt as version 1 created it): its fingers gain
    /// the flag, set for a label under the old "duress…" convention and clear otherwise.
    @Test func migratesVersionTwoFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        do {
            let store = try dir.openStore()
            try store.addUser(name: "bob")
            try store.addFinger(user: "bob", label: "right-index", slot: 0, template: sampleTemplate(1), quality: 80)
            try store.addFinger(user: "bob", label: "Duress-left-index", slot: 1, template: sampleTemplate(2), quality: 80)
        }
        let script = """
            import re, sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            create = re.search(r"CREATE TABLE fingers \\(.*?\\n\\s*\\);", sys.argv[2], re.S).group(0)
            c.executescript("PRAGMA foreign_keys = OFF; BEGIN;"
                "ALTER TABLE users DROP COLUMN from_hub;"
                "CREATE TABLE old AS SELECT id, user_id, label, slot, template, template_digest, quality, enrolled_at FROM fingers;"
                "DROP TABLE fingers;" + create +
                "CREATE INDEX fingers_user ON fingers(user_id);"
                "INSERT INTO fingers SELECT * FROM old; DROP TABLE old;"
                "DROP TABLE cards; DROP TABLE card_edits_for_hub; ALTER TABLE users DROP COLUMN verify_mode; ALTER TABLE users DROP COLUMN panel_card;"
                "DROP TABLE schedules; DROP TABLE holidays; ALTER TABLE users DROP COLUMN schedule;"
                "ALTER TABLE users DROP COLUMN valid_from; ALTER TABLE users DROP COLUMN valid_until; ALTER TABLE users DROP COLUMN uses_left;"
                "DROP TABLE console_sessions; DROP TABLE console_accounts; DROP TABLE console_tokens; DROP TABLE console_setup; DROP TABLE console_login_failures;"
                "ALTER TABLE audit DROP COLUMN prev_hash; ALTER TABLE audit DROP COLUMN hash; ALTER TABLE audit DROP COLUMN mac; PRAGMA user_version = 2; COMMIT;")
            assert 'duress' not in [row[1] for row in c.execute("PRAGMA table_info(fingers)")]
            print(c.execute("SELECT count(*) FROM fingers").fetchone()[0])
            """
        let result = try runPython(script, [dir.database, Schema.migration1])
        try #require(result.status == 0 && result.output.contains("2"), "\(result.output)")
        let store = try dir.openStore()
        #expect(try store.schemaVersion() == Schema.currentVersion)
        let fingers = try store.fingers(of: "bob")
        #expect(fingers.map(\.label) == ["right-index", "Duress-left-index"])
        #expect(fingers.map(\.isDuress) == [false, true])
        #expect(try store.template(atSlot: 1) == sampleTemplate(2))
        // The migrated column is a real one: the setter uses it.
        try store.setDuress(false, user: "bob", label: "Duress-left-index")
        #expect(try store.finger(atSlot: 1)?.isDuress == false)
    }

    @Test func backupRoundTripCarriesTheFlag() throws {
        let source = try TemporaryDirectory(), target = try TemporaryDirectory()
        defer { source.remove(); target.remove() }
        let store = try source.openStore()
        try store.addUser(name: "bob")
        try store.addFinger(user: "bob", label: "right-index", slot: 0, template: sampleTemplate(1), quality: 90)
        try store.addFinger(user: "bob", label: "left-index", slot: 4, template: sampleTemplate(2), quality: 90, duress: true)
        let backup = try store.exportBackup(passphrase: "correct horse", strength: .interactive)

        let contents = try TemplateStore.importBackup(backup, passphrase: "correct horse")
        #expect(contents.users.first?.fingers.map(\.isDuress) == [false, true])
        let restored = try target.openStore()
        try restored.replaceAll(with: contents)
        #expect(try restored.finger(atSlot: 0)?.isDuress == false)
        #expect(try restored.finger(atSlot: 4)?.isDuress == true)
    }

    /// A backup written before the flag existed has no `duress` key: the label convention it was
    /// made under decides, as migration 3 decides for an old store.
    @Test func oldBackupWithoutTheFlagFollowsTheLabelConvention() throws {
        let json = """
            {"createdAt": 1700000000, "moduleFamily": "r30x", "users": [{"name": "bob", "displayName": "Bob",
             "role": "user", "fingerprintUnlock": true, "createdAt": 1700000000, "fingers": [
               {"label": "right-index", "slot": 0, "template": "AQID", "quality": 90, "enrolledAt": 1700000000},
               {"label": "duress-left-index", "slot": 1, "template": "BAUG", "quality": 90, "enrolledAt": 1700000000}]}]}
            """
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let contents = try decoder.decode(BackupContents.self, from: Data(json.utf8))
        #expect(contents.users[0].fingers.map(\.isDuress) == [false, true])
        #expect(contents.users[0].fingers[0].template == [1, 2, 3])
    }
}
