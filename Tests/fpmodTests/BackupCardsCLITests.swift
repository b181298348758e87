import Foundation
import TemplateStore
import Testing

/// Cards through the real binary: added, backed up, wiped, restored (into the wiped store and
/// into a new store with another key) and listed again; the restored hashes still match the
/// numbers, so the card-hash key came with them.
@Suite(.serialized) struct BackupCardsCLITests {
    static let passphrase = ["FPMOD_BACKUP_PASSPHRASE": "correct horse battery"]

    func cards(_ cli: CLI) throws -> [String] {
        let listed = try cli.run(["card", "list", "--json"]).json?["cards"] as? [[String: Any]] ?? []
        return listed.map { "\($0["user"] ?? "") \($0["label"] ?? "") \($0["kind"] ?? "") \($0["enabled"] as? Bool == true ? "on" : "off")" }
    }

    @Test func cardsSurviveBackupWipeAndRestore() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        #expect(try cli.run(["card", "add", "alice", "26:123:4567", "--label", "badge"]).status == 0)
        #expect(try cli.run(["card", "add", "alice", "uid:04a1b2c3d4e5f6", "--label", "phone"]).status == 0)
        #expect(try cli.run(["card", "disable", "alice", "phone"]).status == 0)
        let before = try cards(cli)
        #expect(before == ["alice badge wiegand on", "alice phone nfc-uid off"])

        let backup = cli.directory + "/users.fpb"
        let written = try cli.run(["backup", backup], environment: Self.passphrase)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.contains("Wrote 1 user(s), 1 finger(s) and 2 card(s)"), "\(written.stdout)")
        #expect(try cli.sim(["wipe", "--yes"]).status == 0)
        #expect(try cards(cli).isEmpty)

        let restored = try cli.sim(["restore", backup, "--json"], environment: Self.passphrase)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.json?["cards"] as? Int == 2, "\(restored.stdout)")
        #expect(try cards(cli) == before)

        // A new store, with its own key, on a fresh module.
        let other = CLI()
        let elsewhere = try other.sim(["restore", backup], environment: Self.passphrase)
        #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
        #expect(elsewhere.stdout.contains("Restored 1 user(s) and 2 card(s)"), "\(elsewhere.stdout)")
        #expect(try cards(other) == before)
        let again = try other.run(["card", "add", "alice", "26:123:4567", "--label", "copy"])
        #expect(again.status != 0 && again.stderr.contains("already alice's (badge)"), "\(again.stderr)")
        #expect(try other.run(["card", "add", "alice", "26:123:4568", "--label", "spare"]).status == 0)
        let log = try other.run(["log", "--limit", "20"]).stdout
        #expect(log.contains("restored 1 users, 1 fingers and 2 cards"), "\(log)")
        #expect(!log.contains("4567") && !written.stdout.contains("4567"))
    }

    /// A backup holding a card this fpmod could not write: bad data (65), the card named, and
    /// the store and the module as they were.
    @Test func aBackupWithACardOfAnUnknownKindChangesNothing() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        #expect(try cli.run(["card", "add", "alice", "26:123:4567", "--label", "badge"]).status == 0)
        let backup = cli.directory + "/users.fpb"
        #expect(try cli.run(["backup", backup], environment: Self.passphrase).status == 0)
        var contents = try TemplateStore.importBackup(try [UInt8](Data(contentsOf: URL(fileURLWithPath: backup))),
                                                      passphrase: "correct horse battery")
        contents.users[0].name = "bob"
        contents.users[0].cards[0].kind = "magstripe"
        let bytes = try BackupFile.seal(contents, passphrase: "correct horse battery", strength: .interactive)
        try Data(bytes).write(to: URL(fileURLWithPath: backup))

        let refused = try cli.sim(["restore", backup, "--yes"], environment: Self.passphrase)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("bob's card badge is of kind \"magstripe\""), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was changed"), "\(refused.stderr)")
        #expect(try cli.userNames() == ["alice"])
        #expect(try cards(cli) == ["alice badge wiegand on"])
        #expect(try cli.sim(["identify"], finger: "alice-right-index").status == 0)
    }
}
