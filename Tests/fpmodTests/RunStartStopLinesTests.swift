import Foundation
import Glibc
import Testing

/// Issue 21, item 11: `fpmod run` says at start which store, key and config it uses (paths,
/// never the key itself), and on SIGTERM says that it is stopping, what it does meanwhile, and
/// when it has stopped.
@Suite(.serialized)
struct RunStartStopLinesTests {
    @Test func theStartLineNamesTheFilesAndSIGTERMIsAnnouncedThenConfirmed() throws {
        let cli = CLI()
        let sockets = cli.directory + "/sockets"
        try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
        let config = cli.directory + "/config.json"
        try """
            {"board": "gpio-vm", "control": {"socket": "\(sockets)/control.sock"}, "events": {"socket": "\(sockets)/events.sock"}}
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let service = try LoggedProcess(cli, arguments: ["--config", config, "run", "--sim", "--sim-gpio"])
        defer {
            if service.isRunning { kill(service.processIdentifier, SIGKILL) }
            service.waitUntilExit()
        }
        try waitFor("the module") { try cli.run(["--config", config, "status", "--json"]).json?["module"] as? String == "connected" }

        let start = try #require(service.log.split(separator: "\n").first { $0.hasPrefix("fpmod run: ") })
        #expect(start.contains("config \(config)"), "\(start)")
        #expect(start.contains("store \(cli.directory)/store.db"), "\(start)")
        #expect(start.contains("key \(cli.directory)/key"), "\(start)")
        // The key file's bytes never appear, in any spelling.
        let key = try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/key"))
        #expect(!service.log.contains(key.map { String(format: "%02x", $0) }.joined()))
        #expect(!service.log.contains(key.base64EncodedString()))
        #expect(!service.log.contains("stopping"), "nothing stops yet: \(service.log)")

        kill(service.processIdentifier, SIGTERM)
        service.waitUntilExit()
        #expect(service.process.terminationReason == .exit && service.process.terminationStatus == 0, "\(service.log)")
        let lines = service.log.split(separator: "\n").map(String.init)
        let stopping = try #require(lines.firstIndex { $0.hasPrefix("stopping (SIGTERM)") }, "\(service.log)")
        #expect(lines[stopping].contains("relay off"), "\(lines[stopping])")
        #expect(lines[stopping].contains("fingerprint reader"), "what it waits for: \(lines[stopping])")
        #expect(lines.last == "stopped", "\(service.log)")
        // The audit log agrees: the service stopped with the door locked.
        let events = try cli.auditEvents()
        #expect(events.last == "stopped", "\(events)")
    }

    @Test func withoutAConfigFileTheStartLineSaysWhichDefaultsApply() throws {
        let cli = CLI()
        let service = try LoggedProcess(cli, arguments: ["run", "--sim", "--sim-gpio"])
        defer {
            if service.isRunning { kill(service.processIdentifier, SIGKILL) }
            service.waitUntilExit()
        }
        try waitFor("the start line") { service.log.contains("fpmod run: ") }
        let start = try #require(service.log.split(separator: "\n").first { $0.hasPrefix("fpmod run: ") })
        #expect(start.contains("no config file (the defaults of --sim --sim-gpio)"), "\(start)")
        #expect(start.contains("store \(cli.directory)/store.db with key \(cli.directory)/key"), "\(start)")
        kill(service.processIdentifier, SIGINT)
        service.waitUntilExit()
        #expect(service.log.contains("stopping (SIGINT)"), "\(service.log)")
    }
}
