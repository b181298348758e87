import Foundation
import Glibc
import Testing

@testable import fpmod

/// Issue 21, item 12: what the binary prints is sentences a maker understands: no Swift range
/// syntax (`0..<2`, `1...6`), no raw enum or type names (`enrolledSetChanged`,
/// `MinutiaeMatcher.probe`), no shouted verdicts, no negative "over". The outputs of a
/// representative set of commands are scanned; each check is one a past output failed.
@Suite(.serialized)
struct MessageWordsTests {
    /// Names a user does type or see in documentation: the module's instructions (`fpmod raw
    /// GenImg`), a program, device names.
    static let knownNames: Set<String> = [
        "GenImg", "Img2Tz", "ReadSysPara", "TempleteNum", "LoadChar", "DeletChar", "UpChar", "DownChar", "RegModel",
        "AutoIdentify", "AutoEnroll", "AutoSearch", "ModemManager", "ttyUSB0", "ttyAMA0", "ttyS0",
        // The config section of the image sensor's host matcher (imageSensor.enrollCaptures).
        "imageSensor",
        // The config section of Wiegand out to an access panel (wiegandOut.d0).
        "wiegandOut",
        // The database the fleet hub keeps its truth in (fpmod hub).
        "PostgreSQL",
    ]

    /// What reads as code rather than words in `text`.
    static func problems(in text: String) -> [String] {
        var found: [String] = []
        let range = try! NSRegularExpression(pattern: #"[\w)\]]\.\.[.<][\w(]"#)
        for match in range.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            found.append("range syntax: " + context(of: match.range, in: text))
        }
        // camelCase or TypeCase words, outside options (--sim-finger), dotted config keys
        // (library.maxFlashWritesPerDay) and paths.
        let camel = try! NSRegularExpression(pattern: #"(?<![-\w./])[A-Za-z]*[a-z][A-Z][A-Za-z0-9]*(?![\w/])"#)
        for match in camel.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let word = (text as NSString).substring(with: match.range)
            if !knownNames.contains(word) { found.append("code name '\(word)': " + context(of: match.range, in: text)) }
        }
        for shout in ["MISSED", "Optional(", "nil)"] where text.contains(shout) { found.append("'\(shout)'") }
        return found
    }

    static func context(of range: NSRange, in text: String) -> String {
        let string = text as NSString
        let start = max(0, range.location - 30), end = min(string.length, range.location + range.length + 30)
        return string.substring(with: NSRange(location: start, length: end - start)).replacingOccurrences(of: "\n", with: "⏎")
    }

    static func expectWords(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = problems(in: text)
        #expect(found.isEmpty, "\(what): \(found)", sourceLocation: sourceLocation)
    }

    /// The checker itself catches what the outputs used to hold.
    @Test func theCheckerCatchesWhatOutputsUsedToSay() {
        for old in ["Search order: whole, 0..<2 (history too short)", "expected an integer in 1...100000.",
                    "PIN: 0 wrong in a row; required: enrolledSetChanged", "— MISSED: 45.10 ms",
                    "libfprint's minutiae extraction (MinutiaeMatcher.probe) of the same image"] {
            #expect(!Self.problems(in: old).isEmpty, "\(old)")
        }
        #expect(Self.problems(in: "use --sim-finger alice-right-index, library.maxFlashWritesPerDay, /dev/ttyUSB0, GenImg, slots 0 to 2").isEmpty)
    }

    @Test func everyHelpPage() throws {
        let cli = CLI()
        var paths: [[String]] = [[]]
        for command in Program.spec.commands {
            paths.append([command.name])
            paths += command.subcommands.map { [command.name, $0.name] }
        }
        for path in paths {
            let help = try cli.run(["help"] + path)
            #expect(help.status == 0, "\(path)")
            Self.expectWords(help.stdout, "fpmod help \(path.joined(separator: " "))")
        }
        // An unknown command is an error with a suggestion, --help or not.
        for arguments in [["nosuch", "--help"], ["enrol", "--help"], ["help", "enrol"], ["config", "chek", "-h"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stdout)")
            #expect(result.stderr.hasPrefix("Error: Unknown command"), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): no help on stdout")
        }
        let typo = try cli.run(["enrol", "--help"])
        #expect(typo.stderr.contains("Did you mean 'enroll'?"), "\(typo.stderr)")
    }

    @Test func enrollListIdentifyInfoLayoutAndUsageErrors() throws {
        let cli = CLI()
        var outputs: [(String, CLI.Result)] = []
        outputs.append(("enroll", try cli.sim(["enroll", "alice"])))
        outputs.append(("enroll", try cli.sim(["enroll", "bob", "--finger", "left-thumb"])))
        outputs.append(("identify", try cli.sim(["identify"], finger: "alice-right-index")))
        outputs.append(("identify, nobody", try cli.sim(["identify"], finger: "stranger")))
        outputs.append(("verify", try cli.sim(["verify", "bob"], finger: "bob-left-thumb")))
        outputs.append(("info", try cli.sim(["info"])))
        outputs.append(("list", try cli.run(["list"])))
        outputs.append(("log", try cli.run(["log"])))
        outputs.append(("layout", try cli.sim(["layout", "--dry-run"])))
        outputs.append(("sync", try cli.sim(["sync"])))
        outputs.append(("doctor", try cli.sim(["doctor"])))
        outputs.append(("bad --limit", try cli.run(["log", "--limit", "0"])))
        outputs.append(("bad --captures", try cli.sim(["enroll", "carol", "--captures", "9"])))
        outputs.append(("bad --templates", try cli.run(["bench", "--templates", "0"])))
        for (what, result) in outputs {
            Self.expectWords(result.stdout + result.stderr, what)
        }
        #expect(outputs[2].1.stderr.contains("Search order: whole, slots 0 to 1"), "\(outputs[2].1.stderr)")
        #expect(outputs[11].1.stderr.contains("expected an integer from 1 to 100000"), "\(outputs[11].1.stderr)")
    }

    /// No finger by the deadline is an error like any other: "Error:" on stderr, exit 75.
    @Test func anIdentifyTimeoutIsAnError() throws {
        let cli = CLI()
        let link = cli.directory + "/sim0", control = cli.directory + "/sim.ctl"
        let simulator = try LoggedProcess(cli, arguments: ["sim", "--link", link, "--control", control], logPath: cli.directory + "/sim.log")
        defer {
            kill(simulator.processIdentifier, SIGKILL)
            simulator.waitUntilExit()
        }
        try waitFor("the simulator's link") { FileManager.default.fileExists(atPath: link) }
        _ = try CLI.unixRequest(path: control, line: "touch alice 2")
        let enrolled = try cli.run(["--port", link, "enroll", "alice"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")

        let timeout = try cli.run(["--port", link, "identify", "--timeout", "1s"])
        #expect(timeout.status == 75)
        #expect(timeout.stdout.isEmpty, "\(timeout.stdout)")
        #expect(timeout.stderr.contains("Error: no finger was placed on the sensor in time"), "\(timeout.stderr)")
        #expect(timeout.stderr.contains("--timeout"), "says how to allow longer: \(timeout.stderr)")
        Self.expectWords(timeout.stderr, "identify timeout")
        let json = try cli.run(["--port", link, "--json", "identify", "--timeout", "1s"])
        #expect(json.status == 75)
        #expect(json.json?["result"] as? String == "no-finger", "scripts keep their result: \(json.stdout)")
    }

    /// `status` names why a PIN is required in words, not by the policy's key.
    @Test func statusOfARunningService() throws {
        let cli = CLI()
        let sockets = cli.directory + "/sockets"
        try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
        let config = cli.directory + "/config.json"
        try """
            {"board": "gpio-vm", "control": {"socket": "\(sockets)/control.sock"}, "events": {"socket": "\(sockets)/events.sock"}}
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let service = try LoggedProcess(cli, arguments: ["--config", config, "run", "--sim", "--sim-gpio"])
        defer {
            if service.isRunning { kill(service.processIdentifier, SIGTERM) }
            service.waitUntilExit()
        }
        try waitFor("the module") { try cli.run(["--config", config, "status", "--json"]).json?["module"] as? String == "connected" }
        _ = try CLI.unixRequest(path: sockets + "/sim-control.sock", line: "touch carol-right-index 6")
        let enrolled = try cli.run(["--config", config, "enroll", "carol"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        try waitFor("the PIN requirement") {
            let reply = try cli.run(["--config", config, "status", "--json"]).json
            return (reply?["pinRequired"] as? [String])?.contains("enrolledSetChanged") == true
        }
        let status = try cli.run(["--config", config, "status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("required because"), "\(status.stdout)")
        #expect(status.stdout.contains("the enrolled fingers changed"), "\(status.stdout)")
        Self.expectWords(status.stdout, "status")
        // Its journal, but for the events' key=value fields: those are the event vocabulary
        // scripts read (the same values as on the events socket), not sentences.
        let sentences = service.log.replacingOccurrences(of: #"\b\w+=\S+"#, with: "", options: .regularExpression)
        Self.expectWords(sentences, "fpmod run")
    }

    @Test func benchOnTheSimulatorWithTinyParameters() throws {
        let cli = CLI()
        let module = try cli.run(["bench", "--cycles", "3", "--templates", "2"])
        #expect(module.status == 0, "\(module.stderr)")
        Self.expectWords(module.stdout + module.stderr, "bench")
        #expect(module.stdout.contains("Target: fpmod's own code at most 1 ms per identify at p99"), "\(module.stdout)")

        let sensor = try cli.sim(["--sim-profile", "fpc1020", "bench", "--templates", "2", "--touches", "3"])
        #expect(sensor.status == 0, "\(sensor.stderr)")
        Self.expectWords(sensor.stdout + sensor.stderr, "image-sensor bench")
        // A stage under its floor says so; no cell of the stage table is negative.
        let table = sensor.stdout.split(separator: "\n").filter { ["capture", "extract", "search", "decision", "total"].contains($0.split(separator: " ").first ?? "") }
        #expect(table.count == 5, "\(sensor.stdout)")
        for row in table { #expect(!row.contains(" -"), "\(row)") }
    }
}
