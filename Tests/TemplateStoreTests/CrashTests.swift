import Foundation
import Glibc
import Testing
@testable import TemplateStore

/// A real process is SIGKILLed while it holds the store's write lock in the middle of a
/// transaction; the store must open afterwards with only the committed data, and be writable.
@Suite struct CrashTests {
    /// Commits one user, then starts a transaction that adds another and deletes the first,
    /// says "ready" and waits to be killed.
    static let killedWriter = """
        import sqlite3, sys, time
        c = sqlite3.connect(sys.argv[1], isolation_level=None)
        c.execute("PRAGMA journal_mode=WAL")
        c.execute("INSERT INTO users (name, display_name, role, fingerprint_unlock, created_at) VALUES ('committed', 'C', 'user', 1, 1)")
        c.execute("BEGIN IMMEDIATE")
        c.execute("INSERT INTO users (name, display_name, role, fingerprint_unlock, created_at) VALUES ('half', 'H', 'user', 1, 1)")
        c.execute("DELETE FROM fingers")
        c.execute("DELETE FROM users WHERE name = 'alice'")
        print("ready", flush=True)
        time.sleep(60)
        """

    @Test func killedWriterLeavesConsistentStore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        do {
            let store = try dir.openStore()
            try store.addUser(name: "alice")
            try store.addFinger(user: "alice", label: "right-index", slot: 2, template: sampleTemplate(2), quality: 70)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.killedWriter, dir.database]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        // Wait for the child to hold the lock mid-transaction (blocks on the pipe, not on a timer).
        var line = [UInt8]()
        while !line.contains(0x0A), let byte = try pipe.fileHandleForReading.read(upToCount: 1), !byte.isEmpty {
            line += byte
        }
        try #require(String(decoding: line, as: UTF8.self) == "ready\n")

        // While the child holds the write lock, readers still see the last committed state.
        let reader = try dir.openStore()
        #expect(try reader.users().map(\.name) == ["alice", "committed"])

        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let store = try dir.openStore()
        #expect(try store.users().map(\.name) == ["alice", "committed"])
        #expect(try store.template(atSlot: 2) == sampleTemplate(2))
        #expect(try store.connection.scalar("PRAGMA integrity_check").string == "ok")
        try store.addUser(name: "after")  // the dead writer's lock is gone
        #expect(try reader.users().map(\.name) == ["after", "alice", "committed"])
    }
}
