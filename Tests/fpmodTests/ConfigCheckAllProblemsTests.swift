import Foundation
import Glibc
import Testing

/// Issue 21, item 9, through the binary: `fpmod config check` lists every problem (a bad key,
/// a line beyond the preset's chip, a line used twice), refuses offsets beyond the preset's
/// chip naming its line count, and calls a directory a directory; `fpmod run` refuses to start
/// on each of them, creating nothing.
@Suite(.serialized) struct ConfigCheckAllProblemsTests {
    private func write(_ cli: CLI, _ text: String) throws -> String {
        let path = cli.directory + "/config.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `fpmod --config PATH run --sim --sim-gpio` must refuse at once: run in the background so
    /// a service that wrongly starts fails the test instead of hanging it.
    private func runRefuses(_ cli: CLI, config: String) throws -> String {
        let run = try LoggedProcess(cli, arguments: ["--config", config, "run", "--sim", "--sim-gpio"])
        defer { if run.isRunning { kill(run.processIdentifier, SIGTERM); run.waitUntilExit() } }
        try waitFor("fpmod run to refuse the config") { !run.isRunning }
        #expect(run.process.terminationStatus == 78, "\(run.log)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory + "/store.db"), "nothing created")
        return run.log
    }

    @Test func threeDistinctProblemsAreAllListed() throws {
        let cli = CLI()
        let config = try write(cli, """
            {"board": "rpi4", "scanIntervalMs": 10,
             "gpio": {"lines": {"relay": {"offset": 99}, "tamper": {"offset": 17}}}}
            """)
        let expected = ["scanIntervalMs: 10 is out of range; use 50 to 5000 ms",
                        "gpio.lines.relay.offset: 99 is beyond gpiochip0's 58 lines (pinctrl-bcm2711); use 0 to 57",
                        "gpio.lines.tamper.offset: line 17 is already used for touch; give each role its own line"]
        let checked = try cli.run(["config", "check", config])
        #expect(checked.status == 78)
        #expect(checked.stdout.hasPrefix("\(config): 3 problems\n"), "\(checked.stdout)")
        for problem in expected { #expect(checked.stdout.contains("  " + problem), "\(problem) in \(checked.stdout)") }
        let json = try cli.run(["config", "check", config, "--json"])
        #expect(json.json?["problems"] as? [String] == expected, "\(json.stdout)")
        let log = try runRefuses(cli, config: config)
        #expect(log.contains("has 3 problems"), "\(log)")
        for problem in expected { #expect(log.contains(problem), "\(problem) in \(log)") }
    }

    @Test(arguments: [("rpi3", 54), ("rpi4", 58), ("rpi-zero2w", 54), ("rpi5", 54), ("gpio-vm", 16)])
    func anOffsetBeyondThePresetsChipIsRefused(board: String, lines: Int) throws {
        let cli = CLI()
        let config = try write(cli, #"{"board": "\#(board)", "gpio": {"lines": {"door-contact": {"offset": \#(lines + 3)}}}}"#)
        let problem = "gpio.lines.door-contact.offset: \(lines + 3) is beyond gpiochip0's \(lines) lines"
        let checked = try cli.run(["config", "check", config])
        #expect(checked.status == 78)
        #expect(checked.stdout.contains(problem) && checked.stdout.contains("use 0 to \(lines - 1)"), "\(checked.stdout)")
        #expect(try runRefuses(cli, config: config).contains(problem))
    }

    @Test func theLastLineOfThePresetsChipIsFineForTheSimulatedChip() throws {
        let cli = CLI()
        // gpio-vm's last line, free in the preset: config check and the simulated chip agree.
        let config = try write(cli, #"{"board": "gpio-vm", "gpio": {"lines": {"buzzer": {"offset": 15}}}}"#)
        let checked = try cli.run(["config", "check", config])
        #expect(checked.status == 0, "\(checked.stdout)")
        #expect(checked.stdout.contains("offsets checked against its 16 lines"), "\(checked.stdout)")
        let service = try LoggedProcess(cli, arguments: ["--config", config, "run", "--sim", "--sim-gpio"])
        defer {
            if service.isRunning { kill(service.processIdentifier, SIGTERM) }
            service.waitUntilExit()
        }
        try waitFor("the service on the simulated chip") {
            guard service.isRunning else { throw ExternalTools.Failure(message: "fpmod run ended:\n\(service.log)") }
            return try cli.run(["--config", config, "status", "--json"]).json?["module"] as? String == "connected"
        }
    }

    @Test func aDirectoryIsCalledADirectory() throws {
        let cli = CLI()
        let directory = cli.directory + "/etc-fpmod"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let checked = try cli.run(["config", "check", directory])
        #expect(checked.status == 78)
        #expect(checked.stdout.contains("\(directory) is a directory; give the config file itself (a JSON file)"), "\(checked.stdout)")
        #expect(!checked.stdout.contains("cannot be read"))
        #expect(try runRefuses(cli, config: directory).contains("is a directory"))
    }
}
