import Foundation
import Glibc
import Testing

/// One test per row of the README's exit code table, through the real binary: the code follows
/// the kind of problem, whatever the command and whatever else is missing.
@Suite(.serialized) struct ExitCodeTableTests {
    static let passphrase = "correct horse battery"

    private func enrolled() throws -> CLI {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        return cli
    }

    @Test func row0OK() throws {
        let cli = CLI()
        #expect(try cli.sim(["info"]).status == 0)
    }

    @Test func row1RefusedByWhatIsEnrolledOrNoMatch() throws {
        let cli = try enrolled()
        #expect(try cli.sim(["identify"], finger: "stranger").status == 1)
        let duplicate = try cli.sim(["enroll", "bob"], finger: "alice-right-index")
        #expect(duplicate.status == 1, "\(duplicate.stderr)")
        #expect(try cli.sim(["enroll", "alice"]).status == 1)  // alice's right-index exists
        let doctor = try cli.run(["--port", cli.directory + "/no-such-port", "doctor"])
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("✗"))
    }

    @Test func row64Usage() throws {
        let cli = try enrolled()
        // A bad value is 64 with a port, without one, and with a store or none.
        #expect(try cli.run(["identify", "--timeout", "soon"]).status == 64)
        #expect(try cli.run(["--port", cli.directory + "/no-such-port", "identify", "--timeout", "soon"]).status == 64)
        #expect(try CLI().run(["enroll", "x", "--timeout", "soon"]).status == 64)
        #expect(try cli.sim(["verify", "nobody"], finger: "x").status == 64)
        let backup = cli.directory + "/b.fpb"
        #expect(try cli.run(["backup", backup, "--passphrase", Self.passphrase]).status == 0)
        #expect(try cli.sim(["restore", backup, "--yes"], stdin: "").status == 64)      // missing
        #expect(try cli.sim(["restore", backup, "--yes"], stdin: "\n").status == 64)    // empty
        #expect(try cli.sim(["restore", backup, "--yes", "--passphrase", ""]).status == 64)
    }

    @Test func row65BadData() throws {
        let cli = try enrolled()
        let backup = cli.directory + "/b.fpb"
        #expect(try cli.run(["backup", backup, "--passphrase", Self.passphrase]).status == 0)
        #expect(try cli.sim(["restore", backup, "--yes", "--passphrase", "not the passphrase"]).status == 65)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: backup))
        bytes[bytes.count - 10] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: backup))
        #expect(try cli.sim(["restore", backup, "--yes", "--passphrase", Self.passphrase]).status == 65)
    }

    @Test func row69Unavailable() throws {
        let cli = try enrolled()
        #expect(try cli.run(["--port", cli.directory + "/no-such-port", "identify"]).status == 69)
        #expect(try cli.run(["status"]).status == 69)
    }

    @Test func row74IOError() throws {
        let cli = try enrolled()
        let result = try cli.run(["backup", cli.directory + "/no/such/dir/b.fpb", "--passphrase", Self.passphrase])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(try cli.sim(["restore", cli.directory + "/missing.fpb", "--passphrase", Self.passphrase]).status == 74)
    }

    @Test func row75TryLater() throws {
        let cli = try enrolled()
        // Another process holds the store's write lock for longer than fpmod's busy timeout.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = ["-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('BEGIN IMMEDIATE')
            print('locked', flush=True)
            sys.stdin.read()
            """, cli.directory + "/store.db"]
        let input = Pipe(), output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        let line = String(decoding: output.fileHandleForReading.readData(ofLength: 7), as: UTF8.self)
        try #require(line == "locked\n")
        let busy = try cli.run(["pin", "alice", "--pin", "4826"])
        #expect(busy.status == 75, "\(busy.stderr)")
        #expect(busy.stderr.contains("try again later"))
    }

    @Test func row77Permission() throws {
        let cli = try enrolled()
        #expect(chmod(cli.directory + "/key", 0o644) == 0)
        #expect(try cli.run(["list"]).status == 77)
    }

    @Test func row78Configuration() throws {
        let cli = try enrolled()
        let config = cli.directory + "/config.json"
        try Data(#"{"policy": {"graceSeconds": 301}}"#.utf8).write(to: URL(fileURLWithPath: config))
        #expect(try cli.run(["config", "check", config]).status == 78)
        #expect(try cli.run(["identify"]).status == 78)  // no port given
        let fresh = CLI()
        #expect(try fresh.run(["list"]).status == 78)    // no store at the path
    }
}
