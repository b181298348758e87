import Foundation
import Testing

/// Bad input and faults: a clear message, the sysexits code, nothing half-written.
@Suite(.serialized) struct ErrorExitCodeTests {
    @Test func usageErrors() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let noFinger = try cli.sim(["identify"])
        #expect(noFinger.status == 64)
        #expect(noFinger.stderr.contains("--sim-finger"))
        #expect(try cli.sim(["wipe"]).status == 64)
        #expect(try cli.sim(["verify", "nobody"], finger: "x").status == 64)
        #expect(try cli.sim(["enroll", "alice", "--captures", "9"]).status == 64)
        #expect(try cli.sim(["enroll", "alice"]).status == 1)  // right-index already enrolled: refused
        let duplicate = try cli.sim(["enroll", "bob"], finger: "alice-right-index")
        #expect(duplicate.status == 1)
        #expect(duplicate.stderr.contains("enroll-duplicate"))
        #expect(duplicate.stderr.contains("alice"))
        #expect(try cli.userNames() == ["alice"])
        #expect(try cli.run(["--port", cli.directory + "/no-such-port", "identify"]).status == 69)
    }

    @Test func badBackupsChangeNothing() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let backup = cli.directory + "/users.fpb"
        #expect(try cli.run(["backup", backup, "--passphrase", "the right passphrase"]).status == 0)
        #expect(try cli.sim(["enroll", "bob"]).status == 0)
        let wrong = try cli.sim(["restore", backup, "--yes", "--passphrase", "the wrong passphrase"])
        #expect(wrong.status == 65)
        #expect(wrong.stderr.contains("passphrase"))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: backup))
        bytes[bytes.count - 10] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: backup))
        #expect(try cli.sim(["restore", backup, "--yes", "--passphrase", "the right passphrase"]).status == 65)
        #expect(try cli.userNames() == ["alice", "bob"])
        #expect(try cli.sim(["restore", cli.directory + "/missing.fpb", "--passphrase", "x"]).status == 74)
    }

    @Test func corruptStoreAndMissingKey() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let key = cli.directory + "/key"
        try FileManager.default.moveItem(atPath: key, toPath: key + ".aside")
        let missing = try cli.run(["list"])
        #expect(missing.status == 78)
        #expect(missing.stderr.contains("key"))
        try FileManager.default.moveItem(atPath: key + ".aside", toPath: key)
        #expect(try cli.run(["list"]).status == 0)

        let other = CLI()
        try Data("this is not a database, just text long enough to have a header".utf8)
            .write(to: URL(fileURLWithPath: other.directory + "/store.db"))
        let corrupt = try other.run(["list"])
        #expect(corrupt.status == 65)
        #expect(corrupt.stderr.contains("not an fpmod store"))
    }
}
