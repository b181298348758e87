import Foundation
import Glibc
import Testing

/// Which commands may create the store's files, and when: only enroll, restore, setup and pair,
/// and only when they succeed. The others say there is no store there. A key file others can
/// read is refused with the chmod that fixes it.
@Suite(.serialized) struct StoreFilesTests {
    /// A CLI whose store and key sit in directories that do not exist yet, as on a fresh machine.
    private func freshCLI() -> (CLI, database: String, key: String) {
        let cli = CLI()
        let database = cli.directory + "/var/lib/fpmod/fpmod.db", key = cli.directory + "/etc/fpmod/store.key"
        cli.environment["FPMOD_STORE"] = database
        cli.environment["FPMOD_STORE_KEY"] = key
        return (cli, database, key)
    }

    private func entries(_ cli: CLI) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cli.directory)) ?? ["(unreadable)"]).sorted()
    }

    @Test func aFailedFirstEnrollLeavesNoKeyDatabaseOrDirectory() throws {
        let (cli, database, key) = freshCLI()
        let failed = try cli.run(["--port", cli.directory + "/no-such-port", "enroll", "alice"])
        #expect(failed.status == 69, "\(failed.stderr)")
        #expect(entries(cli).isEmpty, "left behind: \(entries(cli))")
        // The same command that works creates both.
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: database))
        #expect(FileManager.default.fileExists(atPath: key))
    }

    @Test func commandsThatReadAStoreSayThereIsNoneAndCreateNothing() throws {
        let (cli, database, _) = freshCLI()
        let commands: [[String]] = [
            ["list"], ["log"], ["pin", "alice", "--pin", "4826"], ["rename", "alice", "alicia"],
            ["backup", cli.directory + "/b.fpb", "--passphrase", "correct horse battery"],
            ["--sim", "--sim-finger", "alice-right-index", "identify"], ["--sim", "sync"], ["--sim", "delete", "alice"],
        ]
        for arguments in commands {
            let result = try cli.run(arguments)
            #expect(result.status == 78, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("there is no store at \(database)"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("--store PATH"), "\(arguments): \(result.stderr)")
            #expect(!result.stdout.contains("Nobody is enrolled yet"))
            #expect(entries(cli).isEmpty, "\(arguments) left behind: \(entries(cli))")
        }
    }

    @Test func aShortKeyFileIsRefusedAndLeavesNoDatabase() throws {
        let (cli, database, key) = freshCLI()
        try FileManager.default.createDirectory(atPath: (key as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: key, contents: Data([1, 2, 3, 4, 5, 6]), attributes: [.posixPermissions: 0o600]))
        let refused = try cli.sim(["enroll", "alice"])
        #expect(refused.status == 78, "\(refused.stderr)")
        #expect(refused.stderr.contains("6 bytes instead of 32"))
        #expect(!FileManager.default.fileExists(atPath: database))
        #expect(!FileManager.default.fileExists(atPath: (database as NSString).deletingLastPathComponent))
    }

    @Test func aKeyFileOthersCanReadIsRefusedWithTheChmod() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let key = cli.directory + "/key"
        for mode in [0o644, 0o640, 0o604] as [mode_t] {
            #expect(chmod(key, mode) == 0)
            let list = try cli.run(["list"])
            #expect(list.status == 77, "mode \(String(mode, radix: 8)): \(list.stderr)")
            #expect(list.stderr.contains("chmod 600 \(key)"))
            #expect(!list.stdout.contains("alice"))
        }
        #expect(chmod(key, 0o400) == 0)
        let list = try cli.run(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("alice"))
    }
}
