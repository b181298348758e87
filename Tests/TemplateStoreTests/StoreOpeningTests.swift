import Foundation
import Glibc
import Testing
@testable import TemplateStore

@Suite struct StoreOpeningTests {
    @Test func createsFilesPrivatelyAndReopens() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        do {
            let store = try dir.openStore()
            try store.addUser(name: "alice", displayName: "Alice A.", role: .admin)
            try store.addFinger(user: "alice", label: "right-index", slot: 3, template: sampleTemplate(1), quality: 88)
        }
        #expect(fileMode(dir.database) == 0o600)
        #expect(fileMode("\(dir.path)/data") == 0o700)
        #expect(fileMode(dir.key) == 0o600)
        #expect(fileMode("\(dir.path)/config") == 0o700)
        #expect(fileBytes(dir.key).count == 32)
        // WAL side files inherit the database's mode.
        let reopened = try dir.openStore()
        #expect(fileMode("\(dir.database)-wal") == 0o600)
        let alice = try #require(try reopened.user(named: "alice"))
        #expect(alice.displayName == "Alice A." && alice.role == .admin && alice.fingerprintUnlock)
        #expect(try reopened.template(atSlot: 3) == sampleTemplate(1))
        #expect(try reopened.schemaVersion() == Schema.currentVersion)
        #expect(try reopened.connection.scalar("PRAGMA journal_mode").string == "wal")
        #expect(try reopened.connection.scalar("PRAGMA foreign_keys").int == 1)
    }

    /// PrivateFiles' system calls are Posix's: a failure names its errno, so the message says
    /// which of "not a directory", "permission denied", "read-only file system" it was.
    @Test func aFileSystemFailureNamesItsErrno() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(FileManager.default.createFile(atPath: dir.path + "/file", contents: Data()))
        // A loop of `#expect { } throws: { }` over tuples crashes Swift 6.0.3's compiler
        // (Debian 13's swiftlang), so each case is spelled out through one helper.
        let open = fileSystemFailure { _ = try TemplateStore(databasePath: dir.path + "/file/fpmod.db", keyPath: dir.key) }
        #expect(open?.detail.hasPrefix("open failed") == true && open?.detail.contains("(ENOTDIR)") == true, "\(String(describing: open))")
        let mkdir = fileSystemFailure { _ = try TemplateStore(databasePath: dir.path + "/file/sub/fpmod.db", keyPath: dir.key) }
        #expect(mkdir?.detail.hasPrefix("mkdir failed") == true && mkdir?.detail.contains("(ENOTDIR)") == true, "\(String(describing: mkdir))")
        let key = fileSystemFailure { _ = try TemplateStore(databasePath: dir.database, keyPath: dir.path + "/file/store.key") }
        #expect(key?.path == dir.path + "/file/store.key" && key?.detail.contains("(ENOTDIR)") == true, "\(String(describing: key))")
    }

    /// The path and detail of the `StoreError.fileSystem` that `body` throws, else nil.
    private func fileSystemFailure(_ body: () throws -> Void) -> (path: String, detail: String)? {
        do { try body() } catch StoreError.fileSystem(let path, let detail) { return (path, detail) } catch { return nil }
        return nil
    }

    /// `sudo fpmod setup` makes the store in the service user's /var/lib/fpmod: the database
    /// (and SQLite's -wal and -shm after it) must be that user's, or the service cannot open it.
    /// A file that was there before keeps its owner.
    @Test(.enabled(if: geteuid() == 0, "only root can create files for another user"))
    func aStoreRootMakesInAnotherUsersDirectoryIsThatUsers() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.path + "/state"
        #expect(mkdir(state, 0o700) == 0)
        let nobody: uid_t = 65534
        #expect(chown(state, nobody, nobody) == 0)
        let database = state + "/fpmod.db"
        do {
            let store = try TemplateStore(databasePath: database, keyPath: dir.key)
            try store.addUser(name: "alice", displayName: "Alice", role: .admin)
            for path in [database, database + "-wal", database + "-shm"] {
                var info = stat()
                #expect(stat(path, &info) == 0, "\(path) exists")
                #expect(info.st_uid == nobody && info.st_gid == nobody, "\(path) is owned by \(info.st_uid):\(info.st_gid)")
            }
        }
        let own = dir.path + "/own.db"
        #expect(FileManager.default.createFile(atPath: own, contents: Data()))
        #expect(chown(dir.path, nobody, nobody) == 0)
        _ = try TemplateStore(databasePath: own, keyPath: dir.key)
        var info = stat()
        #expect(stat(own, &info) == 0 && info.st_uid == 0, "a database that existed keeps its owner")
    }

    @Test func foreignFileIsNotADatabase() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = "\(dir.path)/notes.db"
        try "these are my shopping notes, not a database at all; ".appending(String(repeating: "x", count: 200))
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            _ = try TemplateStore(databasePath: path, keyPath: dir.key)
        } throws: { error in
            guard case .notADatabase(let p, _) = error as? StoreError else { return false }
            return p == path && "\(error)".contains("not an fpmod store")
        }
    }

    @Test func newerSchemaIsRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try dir.openStore()
        try runPython("import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version = 99'); c.commit()",
                      [dir.database])
        #expect(throws: StoreError.newerSchema(path: dir.database, found: 99, supported: Schema.currentVersion)) {
            _ = try dir.openStore()
        }
    }

    /// A file written by a build that only knew migration 1, with data in it, opens and migrates.
    @Test func migratesVersionOneFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try PrivateFiles.makeDirectories("\(dir.path)/data")
        let script = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.executescript(sys.argv[2])
            c.execute("PRAGMA user_version = 1")
            c.execute("INSERT INTO users (name, display_name, role, fingerprint_unlock, created_at) VALUES ('old', 'Old Timer', 'user', 1, 1000)")
            c.execute("INSERT INTO audit (time, event, detail) VALUES (1000, 'enroll', 'from v1')")
            c.commit()
            """
        let result = try runPython(script, [dir.database, Schema.migration1])
        try #require(result.status == 0)
        let store = try dir.openStore()
        #expect(try store.schemaVersion() == Schema.currentVersion)
        #expect(try store.user(named: "old")?.displayName == "Old Timer")
        #expect(try store.auditEntries().map(\.detail) == ["from v1"])
        let index = try store.connection.scalar("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'audit_time'")
        #expect(index == .text("audit_time"))
    }

    @Test func defaultPathsFollowRootAndXDG() {
        let root = StorePaths.defaults(euid: 0, environment: ["HOME": "/root", "XDG_DATA_HOME": "/x"])
        #expect(root.database == "/var/lib/fpmod/fpmod.db" && root.key == "/etc/fpmod/store.key")
        let plain = StorePaths.defaults(euid: 1000, environment: ["HOME": "/home/ann"])
        #expect(plain.database == "/home/ann/.local/share/fpmod/fpmod.db")
        #expect(plain.key == "/home/ann/.config/fpmod/store.key")
        let xdg = StorePaths.defaults(euid: 1000, environment: ["HOME": "/home/ann", "XDG_DATA_HOME": "/d",
                                                                 "XDG_CONFIG_HOME": "relative/ignored"])
        #expect(xdg.database == "/d/fpmod/fpmod.db" && xdg.key == "/home/ann/.config/fpmod/store.key")
        #expect(TemplateStore.defaultPaths().database.hasSuffix("/fpmod/fpmod.db"))
        // The service user (or anyone who can use /var/lib/fpmod) gets the service's store.
        let service = StorePaths.defaults(euid: 998, environment: ["HOME": "/nonexistent"], systemStoreUsable: true)
        #expect(service.database == "/var/lib/fpmod/fpmod.db" && service.key == "/etc/fpmod/store.key")
    }

    @Test func transactionRollsBackEverythingOnError() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.transaction {
                try store.addUser(name: "bob")
                try store.transaction { try store.addUser(name: "carol") }
                throw Abort()
            }
        }
        #expect(try store.users().isEmpty)
        // A failing inner savepoint leaves the outer work intact.
        try store.transaction {
            try store.addUser(name: "dave")
            _ = try? store.transaction { try store.addUser(name: "erin"); throw Abort() }
        }
        #expect(try store.users().map(\.name) == ["dave"])
    }
}
