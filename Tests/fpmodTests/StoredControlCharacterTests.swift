import Foundation
import Glibc
import Testing

/// Issue 21, item 3 (the output side): names, display names, labels and audit details that
/// already hold control characters (an older store, or one edited with sqlite3) are shown
/// escaped by every output of the real binary, never sent raw to a terminal or the journal.
/// The store is written straight through SQLite, past fpmod's own checks.
@Suite(.serialized)
struct StoredControlCharacterTests {
    /// SGR red, BEL, CR LF and a forged line, a right-to-left override, an 8-bit CSI.
    static let displayName = "\u{1B}[31mred\u{07}bell\r\nforged line\u{202E}rlo\u{9B}2J"
    /// An OSC that would retitle the terminal.
    static let name = "er\u{1B}]0;pwned\u{07}in"
    static let label = "left\nindex"
    static let detail = "clear screen \u{1B}[2J\u{9B}H\nforged entry"

    /// dave and erin enrolled through fpmod, then rewritten in SQLite: dave's display name, erin's
    /// name and label, and one audit row.
    static func pollutedStore() throws -> CLI {
        let cli = CLI()
        for name in ["dave", "erin"] {
            let enrolled = try cli.sim(["enroll", name])
            try #require(enrolled.status == 0, "\(enrolled.stderr)")
        }
        let values = String(decoding: try JSONSerialization.data(withJSONObject: [displayName, name, label, detail]), as: UTF8.self)
        let edit = try ExternalTools.run("/usr/bin/python3", ["-c", """
            import json, sqlite3, sys
            display, name, label, detail = json.loads(sys.argv[2])
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("UPDATE users SET display_name = ? WHERE name = 'dave'", (display,))
            c.execute("UPDATE fingers SET label = ? WHERE user_id = (SELECT id FROM users WHERE name = 'erin')", (label,))
            c.execute("UPDATE users SET name = ? WHERE name = 'erin'", (name,))
            c.execute("INSERT INTO audit (time, event, user, detail) VALUES (strftime('%s','now'), 'note', ?, ?)", (name, detail))
            """, cli.directory + "/store.db", values])
        try #require(edit.status == 0, "\(edit.stderr)")
        return cli
    }

    /// Characters that act on a terminal or reorder text, found in `text` (line breaks allowed
    /// where the output has several lines). Written here, apart from fpmod's own list.
    static func rawControls(_ text: String, lineBreaksAllowed: Bool = true) -> [String] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: !lineBreaksAllowed
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
            default: false
            }
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    static let escapedDisplayName = #"\e[31mred\u{07}bell\r\nforged line\u{202E}rlo\u{9B}2J"#
    static let escapedName = #"er\e]0;pwned\u{07}in"#

    @Test func listShowsEveryStoredCharacterEscapedOnItsOwnLine() throws {
        let cli = try Self.pollutedStore()
        let list = try cli.run(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(Self.rawControls(list.stdout).isEmpty, "\(Self.rawControls(list.stdout)) in \(list.stdout)")
        #expect(list.stdout.contains("dave (\(Self.escapedDisplayName))"), "\(list.stdout)")
        #expect(list.stdout.contains("\(Self.escapedName) (erin)"), "\(list.stdout)")
        #expect(list.stdout.contains(#"  - left\nindex: slot 1"#), "\(list.stdout)")
        // Two users, one finger each: four lines, none forged by a line break in a name.
        #expect(list.stdout.split(separator: "\n").count == 4, "\(list.stdout)")
        #expect(!list.stdout.split(separator: "\n").contains { $0.hasPrefix("forged") })
    }

    @Test func jsonEscapesThemAndGivesTheStoredTextBack() throws {
        let cli = try Self.pollutedStore()
        for arguments in [["list", "--json"], ["log", "--json"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            // One compact line: not even a line break inside.
            #expect(Self.rawControls(result.stdout.trimmingCharacters(in: .newlines), lineBreaksAllowed: false).isEmpty,
                    "\(arguments): \(result.stdout)")
        }
        let listed = try cli.run(["list", "--json"])
        let users = try #require(listed.json?["users"] as? [[String: Any]])
        #expect(users.contains { $0["displayName"] as? String == Self.displayName })
        #expect(users.contains { $0["name"] as? String == Self.name })
        let logged = try cli.run(["log", "--json"])
        let entries = try #require(logged.json?["entries"] as? [[String: Any]])
        #expect(entries.contains { $0["detail"] as? String == Self.detail && $0["user"] as? String == Self.name })
    }

    @Test func theAuditLogKeepsOneLinePerEntry() throws {
        let cli = try Self.pollutedStore()
        let log = try cli.run(["log"])
        #expect(log.status == 0, "\(log.stderr)")
        #expect(Self.rawControls(log.stdout).isEmpty, "\(Self.rawControls(log.stdout)) in \(log.stdout)")
        #expect(log.stdout.contains(#"note  \#(Self.escapedName)  clear screen \e[2J\u{9B}H\nforged entry"#), "\(log.stdout)")
        let logged = try cli.run(["log", "--json"])
        let entries = try #require(logged.json?["entries"] as? [[String: Any]])
        #expect(log.stdout.split(separator: "\n").count == entries.count, "\(log.stdout)")
    }

    @Test func errorsQuoteWhatWasTypedEscaped() throws {
        let cli = try Self.pollutedStore()
        let typed = "x\u{1B}[2J\u{9B}31m"
        for arguments in [["rename", typed, "y"], ["pin", typed, "--pin", "4826"], ["delete", typed, "--yes"],
                          ["enroll", "a", "--captures", typed], ["list", typed], ["nosuch\u{1B}[2J"]] {
            let result = try cli.sim(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(Self.rawControls(result.stderr).isEmpty, "\(arguments): \(Self.rawControls(result.stderr)) in \(result.stderr)")
            #expect(!result.stderr.isEmpty, "\(arguments): says why")
        }
        let usage = try cli.run(["enroll", "a", "--captures", typed])
        #expect(usage.stderr.contains(#"The value 'x\e[2J\u{9B}31m' is invalid for '--captures <N>'"#), "\(usage.stderr)")
    }

    /// The service over the same store: its journal (stderr), its event lines (stdout), `status`
    /// and `list` through the control socket.
    @Test func theServiceJournalAndEventLinesShowTheNameEscaped() throws {
        let cli = try Self.pollutedStore()
        let sockets = cli.directory + "/sockets"
        try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
        let config = cli.directory + "/config.json"
        try """
            {"board": "gpio-vm", "policy": {"relayPulseSeconds": 0.3, "pinRequiredAfterEnrolledSetChange": false},
             "privacy": {"identity": "full"},
             "control": {"socket": "\(sockets)/control.sock"}, "events": {"socket": "\(sockets)/events.sock"}}
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let service = try LoggedProcess(cli, arguments: ["--config", config, "run", "--sim", "--sim-gpio"])
        defer {
            if service.isRunning { kill(service.processIdentifier, SIGTERM) }
            service.waitUntilExit()
        }
        try waitFor("the module") { try cli.run(["--config", config, "status", "--json"]).json?["module"] as? String == "connected" }
        // erin's finger kept its simulator name (enroll named it after her then).
        _ = try CLI.unixRequest(path: sockets + "/sim-control.sock", line: "touch erin-right-index")
        try waitFor("the match line") { service.log.contains("unlocked ") }

        let status = try cli.run(["--config", config, "status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(Self.rawControls(status.stdout).isEmpty, "\(status.stdout)")
        let list = try cli.run(["--config", config, "list"])
        #expect(list.stderr.contains("Going through the running service"), "\(list.stderr)")
        #expect(Self.rawControls(list.stdout).isEmpty, "\(list.stdout)")
        #expect(list.stdout.contains("dave (\(Self.escapedDisplayName))"), "\(list.stdout)")

        // A journal line quoting a file's text: a reload refused for a value with an escape in it.
        try #"{"board": "gpio-vm", "privacy": {"log": "\u001b[2Jloud\u0007"}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        kill(service.processIdentifier, SIGHUP)
        try waitFor("the refused reload") { service.log.contains("NOT reloaded") }

        kill(service.processIdentifier, SIGTERM)
        service.waitUntilExit()
        let log = service.log
        #expect(Self.rawControls(log).isEmpty, "\(Self.rawControls(log)) in \(log)")
        let lines = log.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("match ") && $0.contains("user=\(Self.escapedName)") }, "\(log)")
        #expect(lines.contains { $0.hasPrefix("unlocked ") && $0.contains("user=\(Self.escapedName)") }, "\(log)")
        #expect(lines.contains { $0.contains("NOT reloaded") && $0.contains(#"'\e[2Jloud\u{07}'"#) }, "\(log)")
    }
}
