import Foundation
import Testing

/// A replaced module of another family: its templates are not the old module's, so restore and
/// sync refuse before writing anything, never report "matches", and `list` marks the fingers
/// that need re-enrolling.
@Suite(.serialized) struct TemplateFamilyTests {
    static let passphrase = ["FPMOD_BACKUP_PASSPHRASE": "correct horse battery"]

    /// The r503 simulator's library count, through `raw TempleteNum` (payload = count, big-endian).
    private func r503Templates(_ cli: CLI) throws -> String {
        let raw = try cli.sim(["--sim-profile", "r503", "raw", "TempleteNum"])
        return raw.stdout.split(separator: "\n").first { $0.hasPrefix("payload:") }.map(String.init) ?? raw.stderr
    }

    @Test func anR307BackupIsRefusedOnAnR503AndSyncNeverClaimsAMatch() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        #expect(try cli.sim(["enroll", "bob", "--finger", "left-thumb"]).status == 0)
        let backup = cli.directory + "/r307.fpb"
        #expect(try cli.run(["backup", backup], environment: Self.passphrase).status == 0)

        let restore = try cli.sim(["--sim-profile", "r503", "restore", backup, "--yes"], environment: Self.passphrase)
        #expect(restore.status == 65, "\(restore.stderr)")
        for word in ["512 bytes", "r30x", "r50x", "1536 bytes", "nothing was written", "re-enroll"] {
            #expect(restore.stderr.contains(word), "no \"\(word)\" in: \(restore.stderr)")
        }
        #expect(!restore.stderr.contains("did not read back"))
        #expect(try r503Templates(cli) == "payload:  00 00")
        #expect(try cli.userNames() == ["alice", "bob"])

        let sync = try cli.sim(["--sim-profile", "r503", "sync"])
        #expect(sync.status == 65, "\(sync.stderr)")
        #expect(!sync.stdout.contains("matches"))
        #expect(sync.stderr.contains("the store holds templates of 512 bytes"))
        #expect(try r503Templates(cli) == "payload:  00 00")

        // The store alone now knows that these fingers cannot match on the module attached.
        let list = try cli.run(["list"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("right-index: slot 0 ✘ unusable on this module: re-enroll"))
        #expect(list.stdout.contains("left-thumb: slot 1 ✘ unusable on this module: re-enroll"))
        #expect(list.stdout.contains("re-enroll those users") || list.stdout.contains("Re-enroll those users"))
        let json = try cli.run(["list", "--json"]).json?["users"] as? [[String: Any]] ?? []
        let usable = json.flatMap { ($0["fingers"] as? [[String: Any]] ?? []).map { $0["usable"] as? Bool } }
        #expect(usable == [false, false])

        // Back on an R307 the same fingers are fine again.
        #expect(try cli.sim(["sync"]).status == 0)
        #expect(!(try cli.run(["list"]).stdout.contains("unusable")))
        #expect(try cli.sim(["identify"], finger: "alice-right-index").status == 0)
    }

    @Test func aRefusedRestoreIntoANewStoreLeavesNoStore() throws {
        let source = CLI()
        #expect(try source.sim(["enroll", "alice"]).status == 0)
        let backup = source.directory + "/r307.fpb"
        #expect(try source.run(["backup", backup], environment: Self.passphrase).status == 0)
        let target = CLI()
        let restore = try target.sim(["--sim-profile", "r503", "restore", backup], environment: Self.passphrase)
        #expect(restore.status == 65, "\(restore.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target.directory + "/store.db"))
        #expect(!FileManager.default.fileExists(atPath: target.directory + "/key"))
    }
}
