import Foundation
import Testing

/// Passphrases and PINs typed on a real pseudo-terminal: never echoed, a new one asked twice
/// with its rule in the prompt; piped stdin and options keep working for scripts; a backup is
/// not replaced without --force or a "yes".
@Suite(.serialized) struct SecretPromptTests {
    static let passphrase = "correct horse battery"

    /// The file as text, lossily (a real backup is binary).
    private func contents(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    private func enrolledCLI() throws -> CLI {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        return cli
    }

    @Test func aTypedBackupPassphraseIsHiddenRuledAndConfirmed() throws {
        let cli = try enrolledCLI()
        let backup = cli.directory + "/users.fpb"
        let session = try TerminalSession(cli, ["backup", backup])
        session.waitFor("New backup passphrase (at least 10 characters, at least 5 of them different): ")
        session.type("tooshort")
        session.waitFor("Not accepted: the passphrase has 8 character(s)")
        session.waitFor("New backup passphrase (")
        session.type(Self.passphrase)
        session.waitFor("The same backup passphrase again: ")
        session.type(Self.passphrase + " typo")
        session.waitFor("The two entries differ")
        session.waitFor("New backup passphrase (")
        session.type(Self.passphrase)
        session.waitFor("The same backup passphrase again: ")
        session.type(Self.passphrase)
        #expect(session.finish() == 0, "screen: \(session.screen)")
        #expect(session.screen.contains("Wrote 1 user(s)"))
        #expect(!session.screen.contains("horse"), "the passphrase was echoed: \(session.screen)")
        #expect(!session.screen.contains("tooshort"))

        // The passphrase typed for restore is hidden too, and opens the backup.
        let restore = try TerminalSession(cli, ["--sim", "restore", backup, "--yes"])
        restore.waitFor("Backup passphrase: ")
        restore.type(Self.passphrase)
        #expect(restore.finish() == 0, "screen: \(restore.screen)")
        #expect(!restore.screen.contains("horse"), "the passphrase was echoed: \(restore.screen)")
    }

    @Test func scriptsGiveSecretsOnStdinOrAsOptionsAndTheRuleStillHolds() throws {
        let cli = try enrolledCLI()
        let backup = cli.directory + "/users.fpb"
        let weak = try cli.run(["backup", backup, "--passphrase", "x"])
        #expect(weak.status == 64)
        #expect(weak.stderr.contains("at least 10 characters"))
        #expect(!FileManager.default.fileExists(atPath: backup))
        #expect(try cli.run(["backup", backup], stdin: Self.passphrase + "\n").status == 0)
        let empty = try cli.sim(["restore", backup, "--yes"], stdin: "\n")
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("empty"))
        #expect(try cli.sim(["restore", backup, "--yes"], stdin: Self.passphrase + "\n").status == 0)
    }

    @Test func anExistingBackupIsReplacedOnlyWithForceOrAYes() throws {
        let cli = try enrolledCLI()
        let backup = cli.directory + "/users.fpb"
        try Data("older backup".utf8).write(to: URL(fileURLWithPath: backup))
        let piped = try cli.run(["backup", backup, "--passphrase", Self.passphrase])
        #expect(piped.status == 64)
        #expect(piped.stderr.contains("--force"))
        #expect(try contents(backup) == "older backup")

        let declined = try TerminalSession(cli, ["backup", backup, "--passphrase", Self.passphrase])
        declined.waitFor("already exists. Replace it? (y/N): ")
        declined.type("n")
        #expect(declined.finish() == 64)
        #expect(try contents(backup) == "older backup")

        let accepted = try TerminalSession(cli, ["backup", backup, "--passphrase", Self.passphrase])
        accepted.waitFor("Replace it? (y/N): ")
        accepted.type("y")
        #expect(accepted.finish() == 0, "screen: \(accepted.screen)")
        #expect(try contents(backup) != "older backup")

        try Data("older backup".utf8).write(to: URL(fileURLWithPath: backup))
        #expect(try cli.run(["backup", backup, "--force", "--passphrase", Self.passphrase]).status == 0)
        #expect(try contents(backup) != "older backup")
    }

    @Test func aTypedPINIsHiddenRuledAndConfirmed() throws {
        let cli = try enrolledCLI()
        let session = try TerminalSession(cli, ["pin", "alice"])
        session.waitFor("New PIN for alice (4 to 12 digits without an obvious pattern: no run like 1234 or 2468, no repeat like 1111 or 1212): ")
        session.type("7777")
        session.waitFor("Not accepted: a PIN of one repeated digit")
        session.waitFor("New PIN for alice (")
        session.type("4826")
        session.waitFor("The same PIN again: ")
        session.type("4826")
        #expect(session.finish() == 0, "screen: \(session.screen)")
        #expect(session.screen.contains("Set alice's PIN."))
        #expect(!session.screen.contains("4826"), "the PIN was echoed: \(session.screen)")
        #expect(!session.screen.contains("7777"))
        #expect(try cli.run(["pin", "alice"], stdin: "9999\n").status == 64)
        #expect(try cli.run(["pin", "alice"], stdin: "5917\n").status == 0)
    }
}
