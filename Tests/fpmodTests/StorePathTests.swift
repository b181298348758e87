import Foundation
import Testing

/// Every command finds the store the same way: --store/FPMOD_STORE, else the config's
/// store.database and store.key, else the one default.
@Suite(.serialized) struct StorePathTests {
    @Test func logListAndPinFollowTheConfigsStore() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let config = cli.directory + "/config.json"
        try Data("""
            {"board": "usb-serial", "store": {"database": "\(cli.directory)/store.db", "key": "\(cli.directory)/key"}}
            """.utf8).write(to: URL(fileURLWithPath: config))
        cli.environment["FPMOD_STORE"] = nil
        cli.environment["FPMOD_STORE_KEY"] = nil
        let log = try cli.run(["--config", config, "log", "--json"])
        #expect(log.status == 0, "\(log.stderr)")
        let events = (log.json?["entries"] as? [[String: Any]] ?? []).compactMap { $0["event"] as? String }
        #expect(events.contains("enroll"), "\(log.stdout)")
        let list = try cli.run(["--config", config, "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("alice"))
        #expect(try cli.run(["pin", "alice", "--pin", "4826"], environment: ["FPMOD_CONFIG": config]).status == 0)
        // --store still wins over the config.
        let other = try cli.run(["--config", config, "--store", cli.directory + "/other.db", "list"])
        #expect(other.status == 78)
        #expect(other.stderr.contains("there is no store at \(cli.directory)/other.db"))
    }

    @Test func aBrokenConfigIsAnErrorNotAFallBackToTheDefaultStore() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let config = cli.directory + "/config.json"
        try Data(#"{"store": {"database": "/x.db",}}"#.utf8).write(to: URL(fileURLWithPath: config))
        let log = try cli.run(["--config", config, "log"])
        #expect(log.status == 78)
        #expect(log.stderr.contains("line 1, column"), "\(log.stderr)")
        #expect(try cli.run(["--config", cli.directory + "/missing.json", "list"]).status == 78)
    }

    @Test func theExampleConfigUsesTheDefaultStore() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("tools/config.example.json")
        let text = try String(contentsOf: example, encoding: .utf8)
        #expect(text.contains(#""database": "/var/lib/fpmod/fpmod.db""#))
        #expect(text.contains(#""key": "/etc/fpmod/store.key""#))
    }
}
