import Foundation
import Glibc
import Testing

/// A bad user name, finger label or display name is refused (exit 64) before the first side
/// effect: no finger prompt, no module write, no store or key created, nothing changed. And an
/// enroll an older fpmod left stuck on such a name is rolled back at the next open, once.
@Suite(.serialized) struct BadNameTests {
    /// Every input item 1 of issue 21 lists, as `fpmod` arguments.
    static let badInputs: [[String]] = [
        ["enroll", "Zoë", "--finger", "right-index"],
        ["enroll", "a b"],
        ["enroll", ""],
        ["enroll", String(repeating: "n", count: 70)],
        ["enroll", "new\nline"],
        ["enroll", "esc\u{1B}ape"],
        ["enroll", "carol", "--finger", "left pinky!"],
        ["enroll", "carol", "--display-name", "\u{1B}[31mred"],
        ["rename", "alice", "a b"],
    ]

    /// The bytes of everything a refused command must leave alone.
    func snapshot(_ cli: CLI) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in ["store.db", "store.db-wal", "key", "sim-r307.state"] {
            files[name] = FileManager.default.contents(atPath: cli.directory + "/" + name)
        }
        return files
    }

    @Test func everyBadInputIsRefusedAndLeavesStoreKeyAndModuleAsTheyWere() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let before = snapshot(cli)
        #expect(before["store.db"] != nil && before["key"] != nil && before["sim-r307.state"] != nil)
        for arguments in Self.badInputs {
            let refused = try cli.sim(arguments)
            #expect(refused.status == 64, "\(arguments.debugDescription): \(refused.stderr)")
            #expect(refused.stderr.contains("cannot be a") || refused.stderr.contains("is not allowed"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("Place your finger"), "a finger was asked for: \(arguments.debugDescription)")
            #expect(!refused.stderr.contains("\u{1B}"), "an escape character reached the terminal")
            #expect(snapshot(cli) == before, "\(arguments.debugDescription) changed the store, key or module")
        }
        let identify = try cli.sim(["identify", "--json"], finger: "alice-right-index")
        #expect(identify.status == 0, "\(identify.stderr)")
        #expect(identify.json?["user"] as? String == "alice")
        #expect(try cli.sim(["enroll", "dave", "--display-name", "Dave Zoë Durand"]).status == 0)
        #expect(try cli.userNames() == ["alice", "dave"])
    }

    @Test func theMessageSaysWhatIsAllowed() throws {
        let refused = try CLI().sim(["enroll", "Zoë"])
        #expect(refused.stderr.contains("\"Zoë\" cannot be a user name: \"ë\" is not allowed"), "\(refused.stderr)")
        #expect(refused.stderr.contains("1 to 64 characters") && refused.stderr.contains("ASCII letters"))
        #expect(refused.stderr.contains("--display-name"))
    }

    @Test(arguments: [["--sim"], ["--sim", "--sim-profile", "fpc1020"]])
    func aRefusedFirstEnrollCreatesNoStoreAndNoKey(reader: [String]) throws {
        let cli = CLI()
        for arguments in [["enroll", "Zoë"], ["enroll", "bob", "--finger", "left pinky!"]] {
            let refused = try cli.run(reader + arguments)
            #expect(refused.status == 64, "\(refused.stderr)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: cli.directory)
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test func theServiceRefusesABadNameOnItsControlSocket() throws {
        let cli = CLI()
        let service = try ServiceControlCLITests.RunningService(cli)
        defer { service.stop() }
        let reply = try CLI.unixRequest(path: service.sockets + "/control.sock", line: "enroll Zoë")
        #expect(reply.contains("\"ok\":false") || reply.contains("\"ok\": false"), "\(reply)")
        #expect(reply.contains("cannot be a user name"), "\(reply)")
        let display = try CLI.unixRequest(path: service.sockets + "/control.sock", line: "enroll carol --display-name=%1B%5B31mred")
        #expect(display.contains("cannot be a display name"), "\(display)")
        // Through the CLI, refused before the service is asked.
        let cliRefused = try cli.run(["--config", service.config, "enroll", "bob", "--finger", "left pinky!"])
        #expect(cliRefused.status == 64)
        #expect(!service.log.contains("Place your finger"))
        try service.simulator("touch carol-right-index 6")
        #expect(try cli.run(["--config", service.config, "enroll", "carol"]).status == 0, "\(service.log)")
    }

    /// An older fpmod wrote the template to the module and only then refused the name, leaving
    /// the enroll intent `module-written` for ever. Written here as it would have: an enroll of
    /// bob killed after its module write, its intent's user then set to a name refused today.
    func storeWithAStuckIntent() throws -> CLI {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let killed = try cli.sim(["enroll", "bob"], environment: ["FPMOD_FAILPOINT": "enroll.after-module-write"])
        #expect(killed.signaled && killed.status == SIGKILL, "\(killed.stderr)")
        let sql = try ExternalTools.run("/usr/bin/python3", ["-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute("UPDATE intents SET user = 'Zoë', state = 'module-written' WHERE kind = 'enroll'")
            c.commit()
            print(c.execute("SELECT count(*) FROM intents").fetchone()[0])
            """, cli.directory + "/store.db"])
        #expect(sql.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(sql.stderr)")
        return cli
    }

    @Test func aStuckIntentFromAnOlderFpmodIsRolledBackOnceAndItsSlotErased() throws {
        let cli = try storeWithAStuckIntent()

        let doctor = try cli.sim(["doctor"])
        #expect(doctor.stdout.contains("Pending operations"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("can never finish") && doctor.stdout.contains("rolls it back"), "\(doctor.stdout)")

        // The next command rolls it back with one line, and works.
        let next = try cli.sim(["identify", "--json"], finger: "alice-right-index")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.json?["user"] as? String == "alice")
        let lines = next.stderr.split(separator: "\n").filter { $0.contains("can never finish") }
        #expect(lines.count == 1, "\(next.stderr)")
        #expect(lines.first?.contains("the template was erased from the module slot") == true)
        // Only once: the following commands say nothing of it.
        #expect(!(try cli.sim(["identify"], finger: "alice-right-index").stderr.contains("can never finish")))
        // The slot was erased: bob's finger matches nothing (a template left there would be a tamper match).
        let bob = try cli.sim(["identify", "--json"], finger: "bob-right-index")
        #expect(bob.status == 1 && bob.json?["result"] as? String == "no-match", "\(bob.stdout)")
        let sync = try cli.sim(["sync", "--json"])
        #expect((sync.json?["changes"] as? [Any])?.isEmpty == true, "\(sync.stdout)")
        #expect(try cli.userNames() == ["alice"])
        #expect(try cli.sim(["enroll", "carol"]).status == 0)
        #expect(try cli.sim(["doctor"]).stdout.contains("None: nothing was interrupted."))
    }

    /// The service used to go `disconnected` on such a store after a restart: it now settles the
    /// intent at its first open and serves.
    @Test func theServiceStartsOnAStoreWithAStuckIntent() throws {
        let cli = try storeWithAStuckIntent()
        let service = try ServiceControlCLITests.RunningService(cli)
        defer { service.stop() }
        #expect(service.log.contains("can never finish"), "\(service.log)")
        try service.simulator("touch alice-right-index")
        try waitFor("the service to open for alice") { service.log.contains("match ") && service.log.contains("unlocked ") }
    }
}
