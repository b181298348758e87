import Foundation
import Glibc
import Testing

/// Issue 21, items 7 and 8: the documentation's socket examples (README.md and docs/*.md), run
/// as printed with `socat` (from tools/install-deps.sh) and the built `fpmod` first on PATH, in
/// a scratch directory with the test's own store. The simulator's scripted enrolment leaves no touch behind, and every
/// command on the service's control socket is answered to a one-shot client.
@Suite(.serialized)
struct ReadmeSocketExamplesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// README.md and every docs/*.md page.
    static func documents() throws -> [URL] {
        let docs = repository.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return [repository.appendingPathComponent("README.md")] + pages.map { docs.appendingPathComponent($0) }
    }

    /// The documentation's ```sh blocks, each as its lines.
    static func shellBlocks() throws -> [[String]] {
        var blocks: [[String]] = []
        for document in try documents() { blocks += try shellBlocks(in: try String(contentsOf: document, encoding: .utf8)) }
        return blocks
    }

    static func shellBlocks(in text: String) throws -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line == "```sh" { current = [] } else if current != nil, line == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// The one block holding `marker`.
    static func block(containing marker: String) throws -> [String] {
        let matching = try shellBlocks().filter { $0.contains { $0.contains(marker) } }
        try #require(matching.count == 1, "one documentation block with \(marker), found \(matching.count)")
        return matching[0]
    }

    private func requireSocat() throws {
        try #require(ExternalTools.find("socat") != nil, "socat is missing: run tools/install-deps.sh")
    }

    /// A CLI whose PATH finds the built fpmod first.
    private func shellCLI() -> CLI {
        let cli = CLI()
        let binaries = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        cli.environment["PATH"] = binaries + ":" + (cli.environment["PATH"] ?? "/usr/bin:/bin")
        return cli
    }

    /// `line` in /bin/sh in `directory`, as a user would type it.
    private func shell(_ cli: CLI, _ line: String, in directory: String) throws -> ExternalTools.Result {
        try ExternalTools.run("/bin/sh", ["-c", line], directory: directory, environment: cli.environment)
    }

    @Test func theScriptedEnrolmentLeavesNoTouchBehind() throws {
        try requireSocat()
        let cli = shellCLI()
        let work = cli.directory + "/work"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        var simulator: LoggedProcess?
        defer {
            if let simulator, simulator.isRunning { kill(simulator.processIdentifier, SIGTERM); simulator.waitUntilExit() }
        }
        let lines = try Self.block(containing: "UNIX-CONNECT:sim0.ctl")
        #expect(lines.contains { $0.contains("enroll carol") }, "\(lines)")
        for line in lines where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let command = line.split(separator: "#", maxSplits: 1).first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? line
            if command.hasSuffix("&") {
                // The background line: its own process here, so the test can stop it.
                let process = try LoggedProcess(cli, executable: "/bin/sh", arguments: ["-c", "cd '\(work)' && exec " + command.dropLast()],
                                                logPath: cli.directory + "/sim.log")
                simulator = process
                // As the docs say: wait for the link, which appears once the module has booted.
                try waitFor("the simulator's link") { FileManager.default.fileExists(atPath: work + "/sim0") }
                continue
            }
            let result = try shell(cli, line, in: work)
            #expect(result.status == 0, "\(line)\n\(result.stdout)\(result.stderr)")
        }
        // Nobody touching now: the enrolment took its two captures and nothing is left over.
        let identify = try shell(cli, "fpmod --port sim0 identify --timeout 2s", in: work)
        #expect(identify.status != 0, "\(identify.stdout)")
        #expect(!identify.stdout.contains("carol"), "a phantom touch matched: \(identify.stdout)")
        let status = try shell(cli, "echo status | socat -t3 - UNIX-CONNECT:sim0.ctl", in: work)
        #expect(status.stdout.contains(#""sensor":"none""#), "\(status.stdout)")
        // The enrolment really happened, with carol's finger.
        let touched = try shell(cli, "echo 'touch carol 1' | socat -t3 - UNIX-CONNECT:sim0.ctl && fpmod --port sim0 identify", in: work)
        #expect(touched.status == 0 && touched.stdout.contains("carol"), "\(touched.stdout)\(touched.stderr)")
    }

    @Test func everyControlSocketExampleIsAnswered() throws {
        try requireSocat()
        let cli = shellCLI()
        #expect(try cli.sim(["enroll", "alice", "--admin"], finger: "alice-right-index").status == 0)
        #expect(try cli.run(["pin", "alice", "--pin", "7391"]).status == 0)
        let sockets = cli.directory + "/sockets"
        try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
        let config = cli.directory + "/config.json"
        try #"{"board": "gpio-vm", "control": {"socket": "\#(sockets)/control.sock"}, "events": {"socket": "\#(sockets)/events.sock"}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let service = try LoggedProcess(cli, arguments: ["--config", config, "run", "--sim", "--sim-gpio"])
        defer {
            if service.isRunning { kill(service.processIdentifier, SIGTERM) }
            service.waitUntilExit()
        }
        try waitFor("the module") {
            try cli.run(["--config", config, "status", "--json"]).json?["module"] as? String == "connected"
        }

        let lines = try Self.block(containing: "sock=")
        // The one line that names the socket: the installed default, here the test's own.
        let assignment = try #require(lines.first { $0.hasPrefix("sock=") })
        #expect(assignment.hasPrefix("sock=/run/fpmod/control.sock"), "\(assignment)")
        let examples = lines.filter { $0.contains("socat") }
        #expect(examples.count >= 3, "\(lines)")
        var results: [String: String] = [:]
        for line in examples {
            let result = try shell(cli, "sock='\(sockets)/control.sock'; " + line, in: cli.directory)
            #expect(result.status == 0, "\(line): \(result.stderr)")
            let replies = result.stdout.split(separator: "\n")
            #expect(replies.count == 1, "\(line): one answer, got \(result.stdout.debugDescription)\n\(service.log)")
            let reply = (try? JSONSerialization.jsonObject(with: Data((replies.first ?? "").utf8))) as? [String: Any] ?? [:]
            #expect(reply["ok"] as? Bool == true, "\(line): \(result.stdout)")
            results[line] = reply["result"] as? String ?? (reply["locked"] != nil ? "status" : "")
        }
        #expect(results.values.sorted() == ["cleared", "status", "unlocked"], "\(results)")
    }
}
