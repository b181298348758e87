import AccessPolicy
import Foundation
import Testing
@testable import TemplateStore

/// The console's tables (migration 8): added to older stores without touching their users,
/// and left alone by backups and restores.
struct ConsoleStoreTests {
    /// A version-7 file (as released) gains the console's tables with its users intact.
    @Test func migrationEightKeepsTheUsers() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        do {
            let store = try dir.openStore()
            try store.addUser(name: "alice")
            try store.setAccess(of: "alice", uses: .set(3))
        }
        let downgrade = try runPython("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executescript("DROP TABLE card_edits_for_hub; ALTER TABLE cards DROP COLUMN hub_state; ALTER TABLE users DROP COLUMN from_hub; ALTER TABLE fingers DROP COLUMN hub_digest;"
                "DROP TABLE console_sessions; DROP TABLE console_accounts; DROP TABLE console_tokens;"
                "DROP TABLE console_setup; DROP TABLE console_login_failures;"
                "ALTER TABLE audit DROP COLUMN prev_hash; ALTER TABLE audit DROP COLUMN hash; ALTER TABLE audit DROP COLUMN mac;"
                "PRAGMA user_version = 7;")
            db.commit()
            """, [dir.database])
        #expect(downgrade.status == 0)
        let store = try dir.openStore()
        #expect(try store.schemaVersion() == Schema.currentVersion)
        #expect(try store.users().map(\.name) == ["alice"])
        #expect(try store.access(of: "alice").usesLeft == 3)
        #expect(try store.consoleAccountCount() == 0)
        try store.addConsoleAccount(name: "admin", role: .admin, passwordHash: "$argon2id$stand-in")
        #expect(try store.consoleAccounts().map(\.name) == ["admin"])
    }

    /// The CHECKs and the foreign key hold: no third role, no session of a missing account,
    /// and an account's sessions go with it.
    @Test func theTablesRefuseWhatTheRulesDoNot() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        #expect(throws: StoreError.self) {
            try store.connection.query("INSERT INTO console_accounts (name, role, password_hash, created_at) VALUES ('x', 'root', 'h', 0)")
        }
        #expect(throws: StoreError.self) { try store.insertConsoleSession(tokenHash: [1, 2, 3], account: "nobody", csrf: "c") }
        try store.addConsoleAccount(name: "alice", role: .admin, passwordHash: "h")
        #expect(throws: StoreError.duplicateConsoleAccount("alice")) { try store.addConsoleAccount(name: "alice", role: .viewer, passwordHash: "h") }
        try store.insertConsoleSession(tokenHash: [1, 2, 3], account: "alice", csrf: "c")
        #expect(try store.consoleSession(tokenHash: [1, 2, 3])?.account == "alice")
        try store.deleteConsoleAccount(name: "alice")
        #expect(try store.consoleSession(tokenHash: [1, 2, 3]) == nil)
        #expect(try store.connection.scalar("SELECT count(*) FROM console_sessions").int == 0)
    }

    /// A setup code is taken once, and not after it expired.
    @Test func aSetupCodeIsConsumedOnce() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try store.putConsoleSetupCode(hash: [9, 9], createdAt: now, expiresAt: now.addingTimeInterval(60))
        #expect(try !store.consumeConsoleSetupCode(hash: [9, 8], at: now))
        #expect(try !store.consumeConsoleSetupCode(hash: [9, 9], at: now.addingTimeInterval(60)))
        #expect(try store.consumeConsoleSetupCode(hash: [9, 9], at: now))
        #expect(try !store.consumeConsoleSetupCode(hash: [9, 9], at: now))
        #expect(try store.consoleSetupCode() == nil)
    }

    /// Console accounts are not in a user backup, and a restore (which replaces the users)
    /// leaves them, their sessions and tokens as they were.
    @Test func backupsLeaveTheConsoleAlone() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "bob")
        try store.addConsoleAccount(name: "alice", role: .admin, passwordHash: "$argon2id$stand-in")
        try store.insertConsoleSession(tokenHash: [1], account: "alice", csrf: "c")
        try store.addConsoleToken(name: "script", tokenHash: [2], role: .viewer, createdBy: "alice")
        let backup = try store.exportBackup(passphrase: "correct horse", strength: .interactive)
        let contents = try TemplateStore.importBackup(backup, passphrase: "correct horse")
        #expect(contents.users.map(\.name) == ["bob"])
        try store.deleteUser("bob")
        try store.replaceAll(with: contents)
        #expect(try store.users().map(\.name) == ["bob"])
        #expect(try store.consoleAccounts().map(\.name) == ["alice"])
        #expect(try store.consoleSession(tokenHash: [1])?.account == "alice")
        #expect(try store.consoleTokens().map(\.name) == ["script"])
    }

    @Test func aLoginCounterIsKeptAndForgotten() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        var counter = FailureCounter()
        _ = counter.recordFailure(at: 100, thresholds: LockoutThresholds(failuresPerTimedLockout: 1))
        try store.setConsoleLoginFailures(counter, of: "mallory", at: Date(timeIntervalSince1970: 100))
        #expect(try store.consoleLoginFailures(of: "mallory") == counter)
        #expect(try store.forgetConsoleLoginFailures(before: Date(timeIntervalSince1970: 120)) == 0, "still locked until 130")
        #expect(try store.forgetConsoleLoginFailures(before: Date(timeIntervalSince1970: 200)) == 1)
        #expect(try store.consoleLoginFailures(of: "mallory") == FailureCounter())
    }

    /// A store holding only a console account is not "nothing": a failed command that made
    /// the file must not remove it.
    @Test func aConsoleAccountIsWorthKeeping() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        #expect(TemplateStore.holdsNothing(databasePath: dir.database))
        try store.addConsoleAccount(name: "alice", role: .admin, passwordHash: "$argon2id$stand-in")
        #expect(!TemplateStore.holdsNothing(databasePath: dir.database))
    }
}
