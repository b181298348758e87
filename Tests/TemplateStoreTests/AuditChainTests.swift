import Foundation
import Testing
@testable import TemplateStore

/// The audit log against someone with the real `sqlite3` shell and the database (not the key):
/// an edit, a deletion, an insertion and a truncation are each found and named.
@Suite struct AuditChainTests {
    static let shell = "/usr/bin/sqlite3"

    /// Runs SQL in the real sqlite3 shell, as an attacker would (the append-only triggers dropped first).
    static func tamper(_ database: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = [database, "DROP TRIGGER IF EXISTS audit_no_update; DROP TRIGGER IF EXISTS audit_no_delete; " + sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    static func storeWithRows(_ directory: TemporaryDirectory, count: Int = 10) throws -> TemplateStore {
        let store = try directory.openStore()
        for index in 1...count {
            try store.appendAudit(event: index % 3 == 0 ? "no-match" : "granted", user: index % 3 == 0 ? nil : "alice",
                                  slot: index, score: 100 + index, detail: "touch \(index)")
        }
        return store
    }

    @Test func anUntouchedLogIsIntactAndItsHeadIsTheNewestRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.storeWithRows(directory)
        let report = try store.verifyAuditChain(knownHead: try store.auditChainHead())
        #expect(report.isIntact, "\(report.sentence ?? "")")
        #expect(report.rows == 10)
        #expect(report.head?.id == 10)
        #expect(report.macsChecked)
        #expect(AuditChainHead(text: report.head!.description) == report.head)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: shell)))
    func anEditedRecordIsNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.storeWithRows(directory)
        try Self.tamper(directory.database, "UPDATE audit SET user = 'mallory' WHERE id = 4;")
        let report = try store.verifyAuditChain()
        #expect(report.problem == .changed(id: 4))
        #expect(report.sentence?.contains("record 4") == true)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: shell)))
    func anEditWithTheHashesRecomputedIsCaughtByTheMAC() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.storeWithRows(directory, count: 3)
        // The attacker recomputes record 3's hash (SHA-256 is public) but cannot make its MAC.
        let rows = try store.locked { try store.connection.query("SELECT \(TemplateStore.auditChainColumns) FROM audit WHERE id = 3") }
        var record = TemplateStore.auditRecord(rows[0])
        record.detail = "forged"
        let hash = AuditChain.hash(previous: rows[0][8].bytes!, record)
        try Self.tamper(directory.database, "UPDATE audit SET detail = 'forged', hash = x'\(Crypto.hex(hash))' WHERE id = 3;")
        #expect(try store.verifyAuditChain().problem == .forged(id: 3))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: shell)))
    func aDeletedRecordIsNamedByTheOneAfterIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.storeWithRows(directory)
        try Self.tamper(directory.database, "DELETE FROM audit WHERE id = 6;")
        let report = try store.verifyAuditChain()
        #expect(report.problem == .removedBefore(id: 7, previousID: 5))
        #expect(report.sentence?.contains("record 7") == true && report.sentence?.contains("record 5") == true)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: shell)))
    func anInsertedRecordIsNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.storeWithRows(directory)
        // Copied chain fields from record 5 (the best an attacker without the key can do) …
        try Self.tamper(directory.database, """
            INSERT INTO audit (id, time, event, user, prev_hash, hash, mac)
              SELECT 1000, time, 'granted', 'mallory', hash, hash, mac FROM audit WHERE id = 5;
            """)
        let copied = try store.verifyAuditChain()
        #expect(copied.problem == .removedBefore(id: 1000, previousID: 10))
        #expect(copied.sentence?.contains("record 1000") == true && copied.sentence?.contains("inserted") == true)
        // … or none at all.
        try Self.tamper(directory.database, "INSERT INTO audit (id, time, event, user) VALUES (1001, 0, 'granted', 'eve');")
        #expect(try store.verifyAuditChain().problem == .removedBefore(id: 1000, previousID: 10))
        try Self.tamper(directory.database, "DELETE FROM audit WHERE id = 1000;")
        #expect(try store.verifyAuditChain().problem == .inserted(id: 1001))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: shell)))
    func aTruncatedTailIsCaughtWithTheJournalsHead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.storeWithRows(directory)
        let head = try #require(try store.auditChainHead())
        try Self.tamper(directory.database, "DELETE FROM audit WHERE id > 8;")
        // Without the head the shorter chain is consistent; with it the cut shows.
        #expect(try store.verifyAuditChain().isIntact)
        let report = try store.verifyAuditChain(knownHead: head)
        #expect(report.problem == .truncated(headID: 10, newestID: 8))
        #expect(report.sentence?.contains("truncated") == true)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: shell)))
    func rowsFromBeforeTheChainAreCoveredByItsStart() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.storeWithRows(directory, count: 5)
        // Rows as a store before version 9 wrote them: no chain fields.
        try Self.tamper(directory.database, "UPDATE audit SET prev_hash = NULL, hash = NULL, mac = NULL;")
        try store.appendAudit(event: "started")
        let upgraded = try store.verifyAuditChain()
        #expect(upgraded.isIntact, "\(upgraded.sentence ?? "")")
        #expect(upgraded.legacyRows == 5)
        #expect(upgraded.head?.id == 6)
        try Self.tamper(directory.database, "UPDATE audit SET detail = 'edited' WHERE id = 2;")
        #expect(try store.verifyAuditChain().problem == .removedBefore(id: 6, previousID: 5))
    }

    @Test func twoConnectionsAppendingInTurnKeepOneChain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try directory.openStore(), second = try directory.openStore()
        for index in 0..<40 { try (index % 2 == 0 ? first : second).appendAudit(event: "granted", user: "u\(index)") }
        let report = try first.verifyAuditChain()
        #expect(report.isIntact, "\(report.sentence ?? "")")
        #expect(report.rows == 40)
    }
}
