import Foundation
import Glibc
import Testing

/// Every command `fpmod setup` prints under "Next steps" is run as printed, through a shell with
/// the built `fpmod` first on PATH, NAME replaced as a user would: none is a usage error, and
/// each does what its line says.
@Suite(.serialized) struct SetupNextStepsTests {
    /// The command lines of the "Next steps" block (lines that start with `fpmod`).
    static func nextSteps(_ output: String) -> [String] {
        guard let block = output.range(of: "Next steps:") else { return [] }
        return output[block.upperBound...].split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("fpmod ") }
    }

    @Test func everyPrintedNextStepRunsAsPrinted() throws {
        let cli = CLI()
        // What a user has: `fpmod` on PATH (here the built one, first).
        cli.environment["PATH"] = (CLI.binary as NSString).deletingLastPathComponent + ":" + (cli.environment["PATH"] ?? "/usr/bin:/bin")
        let config = cli.directory + "/my config.json"
        let setup = try cli.sim(["--config", config, "setup", "--defaults"])
        #expect(setup.status == 0, "stderr: \(setup.stderr)")
        let commands = Self.nextSteps(setup.stdout)
        // config check, enroll, list and run: the last two were wrong before (option order, no --config).
        #expect(commands.count == 4, "\(setup.stdout)")
        #expect(commands.allSatisfy { $0.contains("'\(config)'") }, "the path with a space is quoted: \(commands)")

        for command in commands {
            let line = command.replacingOccurrences(of: "NAME", with: "bob")
            if line.hasSuffix(" run --sim-gpio") {
                // The service runs until stopped: it must start, then stop cleanly on SIGTERM.
                let service = try LoggedProcess(cli, executable: "/bin/sh", arguments: ["-c", "exec " + line],
                                                logPath: cli.directory + "/run.log")
                defer { if service.isRunning { kill(service.processIdentifier, SIGKILL) } }
                try waitFor("the service printed by setup to start") { service.log.contains("started") || !service.isRunning }
                #expect(service.isRunning, "\(line) did not start:\n\(service.log)")
                kill(service.processIdentifier, SIGTERM)
                service.waitUntilExit()
                #expect(service.process.terminationStatus == 0, "\(line):\n\(service.log)")
                continue
            }
            let result = try cli.run(["-c", line], executable: "/bin/sh")
            #expect(result.status == 0, "\(line) → \(result.status):\n\(result.stdout)\n\(result.stderr)")
            if line.hasSuffix(" list") {
                #expect(result.stdout.contains("admin") && result.stdout.contains("bob"), "\(result.stdout)")
            }
        }
        let enrolled = try cli.userNames()
        #expect(enrolled == ["admin", "bob"])
    }

    @Test func aRefusedAdminNameChangesNothingAndPairsNothing() throws {
        let cli = CLI()
        let config = cli.directory + "/config.json"
        for answers in ["Zoë\n", "admin\nleft pinky!\n"] {
            let refused = try cli.sim(["--config", config, "setup"], stdin: answers)
            #expect(refused.status == 64, "\(refused.stdout)\n\(refused.stderr)")
            #expect(refused.stderr.contains("cannot be a"), "\(refused.stderr)")
            #expect(!refused.stdout.contains("Paired"))
            for file in ["/store.db", "/key", "/config.json"] {
                #expect(!FileManager.default.fileExists(atPath: cli.directory + file), "\(file) was created")
            }
        }
        // A PIN from the environment that breaks the rule is refused before anything, too.
        let badPIN = try cli.sim(["--config", config, "setup", "--defaults"], environment: ["FPMOD_PIN": "12"])
        #expect(badPIN.status == 64)
        #expect(!FileManager.default.fileExists(atPath: cli.directory + "/store.db"))
        // The module kept its factory password: a new setup finds it, enrolls and pairs it.
        let setup = try cli.sim(["--config", config, "setup", "--defaults"])
        #expect(setup.status == 0, "\(setup.stdout)\n\(setup.stderr)")
        #expect(setup.stdout.contains("✔ Paired the r30x module"))
        let identify = try cli.sim(["identify", "--json"], finger: "admin-right-index")
        #expect(identify.json?["user"] as? String == "admin")
    }

    @Test func pairingComesAfterEveryOtherChange() throws {
        let cli = CLI()
        let result = try cli.sim(["--config", cli.directory + "/config.json", "setup", "--defaults"])
        #expect(result.status == 0, "\(result.stderr)")
        let order = ["✔ enroll-completed", "PIN is", "✔ Wrote", "✔ Paired"].map { result.stdout.range(of: $0)?.lowerBound }
        let found = order.compactMap { $0 }
        #expect(found.count == 4 && found == found.sorted(), "\(result.stdout)")
    }

    @Test func aSecondRunRefusesAFingerTheAdminAlreadyHasBeforeAskingForIt() throws {
        let cli = CLI()
        let config = cli.directory + "/config.json"
        #expect(try cli.sim(["--config", config, "setup", "--defaults"]).status == 0)
        let again = try cli.sim(["--config", config, "setup"], stdin: "y\nadmin\nright-index\n")
        #expect(again.status == 1, "\(again.stdout)\n\(again.stderr)")
        #expect(again.stderr.contains("already has right-index enrolled"), "\(again.stderr)")
        #expect(!again.stderr.contains("Place your finger"))
    }
}
