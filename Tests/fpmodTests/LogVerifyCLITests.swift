import Foundation
import Testing

/// `fpmod log verify` against edits made with the real `sqlite3` shell: the "Done when" of the
/// tamper-evident audit log, through the binary a user runs.
@Suite struct LogVerifyCLITests {
    static let shell = "/usr/bin/sqlite3"

    /// A store with a few rows written by fpmod itself (an enrollment and identifies on the simulator).
    static func cliWithHistory() throws -> CLI {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"], finger: "alice-right-index").status == 0)
        for _ in 0..<3 { try cli.sim(["identify"], finger: "alice-right-index") }
        try cli.sim(["identify"], finger: "stranger")
        return cli
    }

    static func tamper(_ cli: CLI, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = [cli.directory + "/store.db", "DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete; " + sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    static func head(_ cli: CLI) throws -> String {
        let result = try cli.run(["log", "verify", "--json"])
        return try #require(result.json?["head"] as? String)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: shell)))
    func anEditADeletionAndATruncationAreEachNamed() throws {
        let edited = try Self.cliWithHistory()
        let intact = try edited.run(["log", "verify"])
        #expect(intact.status == 0, "\(intact.stdout)\(intact.stderr)")
        #expect(intact.stdout.contains("The audit log is intact"))
        try Self.tamper(edited, "UPDATE audit SET user = 'mallory' WHERE id = 3;")
        let afterEdit = try edited.run(["log", "verify"])
        #expect(afterEdit.status == 65)
        #expect(afterEdit.stdout.contains("record 3 (") && afterEdit.stdout.contains("was changed after it was written"), "\(afterEdit.stdout)")

        let deleted = try Self.cliWithHistory()
        try Self.tamper(deleted, "DELETE FROM audit WHERE id = 4;")
        let afterDeletion = try deleted.run(["log", "verify", "--json"])
        #expect(afterDeletion.status == 65)
        #expect(afterDeletion.json?["intact"] as? Bool == false)
        #expect((afterDeletion.json?["problem"] as? String)?.contains("does not follow record 3") == true, "\(afterDeletion.stdout)")

        let truncated = try Self.cliWithHistory()
        let head = try Self.head(truncated)
        try Self.tamper(truncated, "DELETE FROM audit WHERE id > 3;")
        #expect(try truncated.run(["log", "verify"]).status == 0)
        let withHead = try truncated.run(["log", "verify", "--head", head])
        #expect(withHead.status == 65)
        #expect(withHead.stdout.contains("truncated"), "\(withHead.stdout)")
        #expect(try truncated.run(["log", "verify", "--head", "12:zz"]).status == 64)
        #expect(try truncated.run(["log", "--head", head]).status == 64)
    }
}
