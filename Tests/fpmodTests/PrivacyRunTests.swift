import Foundation
import Glibc
import Testing

/// `privacy.log` on the real binary: `fpmod run`'s event lines (what the journal keeps under
/// systemd) show names masked by default, in full or not at all when asked, and a reload
/// changes them; the admin's CLI (`list`, `log`) keeps full names.
@Suite(.serialized)
struct PrivacyRunTests {
    /// `fpmod run --sim --sim-gpio` with `privacy`, its stdout and stderr in one file.
    final class RunningService {
        let cli: CLI
        let config: String
        let sockets: String
        let service: LoggedProcess
        var process: Process { service.process }

        init(_ cli: CLI, privacy: String, json: Bool = false) throws {
            self.cli = cli
            sockets = cli.directory + "/sockets"
            try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
            config = cli.directory + "/config.json"
            try Self.write(config: config, sockets: sockets, privacy: privacy)
            #expect(try cli.run(["config", "check", config]).status == 0)
            service = try LoggedProcess(cli, arguments: ["--config", config] + (json ? ["--json"] : []) + ["run", "--sim", "--sim-gpio"])
            try waitFor("the module") {
                try cli.run(["--config", config, "status", "--json"]).json?["module"] as? String == "connected"
            }
        }

        static func write(config: String, sockets: String, privacy: String) throws {
            try """
                {"board": "gpio-vm", "policy": {"relayPulseSeconds": 0.3, "pinRequiredAfterEnrolledSetChange": false},
                 "control": {"socket": "\(sockets)/control.sock"}, "events": {"socket": "\(sockets)/events.sock"}\(privacy)}
                """.write(toFile: config, atomically: true, encoding: .utf8)
        }

        var log: String { service.log }

        func touch(_ finger: String, times: Int? = nil) throws {
            _ = try CLI.unixRequest(path: sockets + "/sim-control.sock", line: "touch \(finger)" + (times.map { " \($0)" } ?? ""))
        }

        /// carol enrolled through the service, then her finger opening the door.
        func enrollAndMatchCarol() throws {
            try touch("carol-left-index", times: 6)
            let enrolled = try cli.run(["--config", config, "enroll", "carol", "--finger", "left-index"])
            #expect(enrolled.status == 0, "\(enrolled.stderr)\n\(log)")
            #expect(enrolled.stdout.contains("carol"), "the admin's CLI keeps the full name: \(enrolled.stdout)")
            try touch("carol-left-index")
        }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExit()
        }
    }

    @Test func theJournalShowsNamesMaskedByDefault() throws {
        let cli = CLI()
        let service = try RunningService(cli, privacy: "")
        defer { service.stop() }
        try service.enrollAndMatchCarol()
        try waitFor("the match line") { service.log.contains("match ") && service.log.contains("unlocked ") }
        let lines = service.log.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("match ") && $0.contains("user=c***l") }, "\(service.log)")
        #expect(lines.contains { $0.hasPrefix("unlocked ") && $0.contains("user=c***l") }, "\(service.log)")
        #expect(!service.log.contains("carol"), "\(service.log)")
        // The admin's view keeps full names.
        #expect(try cli.run(["--config", service.config, "list"]).stdout.contains("carol"))
        let audit = try cli.run(["--config", service.config, "log", "--limit", "50", "--json"])
        #expect(audit.stdout.contains(#""user":"carol""#) || audit.stdout.contains(#""user" : "carol""#), "\(audit.stdout)")
    }

    @Test func noneLeavesTheNameOutAndAReloadChangesIt() throws {
        let cli = CLI()
        let service = try RunningService(cli, privacy: #", "privacy": {"log": "none"}"#, json: true)
        defer { service.stop() }
        try service.enrollAndMatchCarol()
        try waitFor("the match line") { service.log.contains(#""event":"unlocked""#) }
        let matchLine = try #require(service.log.split(separator: "\n").first { $0.contains(#""event":"match""#) })
        #expect(!matchLine.contains("user"), "\(matchLine)")
        #expect(!service.log.contains("carol"))

        // `full` after a reload (SIGHUP): the journal now names her.
        try RunningService.write(config: service.config, sockets: service.sockets, privacy: #", "privacy": {"log": "full"}"#)
        kill(service.process.processIdentifier, SIGHUP)
        try waitFor("the reload") { service.log.contains("config-reloaded") }
        try service.touch("carol-left-index")
        try waitFor("the second match") { service.log.contains(#""user":"carol""#) }
    }

    @Test func configCheckNamesABadPrivacyValue() throws {
        let cli = CLI()
        let config = cli.directory + "/bad.json"
        try #"{"board": "gpio-vm", "privacy": {"identity": "hidden", "mqt": "none"}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let checked = try cli.run(["config", "check", config])
        #expect(checked.status != 0)
        #expect(checked.stdout.contains("privacy.identity: 'hidden' is not one of full, masked, none"), "\(checked.stdout)")
        #expect(checked.stdout.contains("privacy.mqt"), "\(checked.stdout)")
    }
}
