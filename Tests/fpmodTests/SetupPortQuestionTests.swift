import Foundation
import Glibc
import Testing

/// `fpmod setup` without --port asks which port the module is on, showing the serial devices
/// that exist, and asks again when the answer does not reach a module.
@Suite(.serialized) struct SetupPortQuestionTests {
    @Test func setupAsksForThePortAndAsksAgainAfterAWrongOne() throws {
        let cli = CLI()
        let link = cli.directory + "/sim0", controlPath = cli.directory + "/sim.ctl"
        let simulator = Process()
        simulator.executableURL = URL(fileURLWithPath: CLI.binary)
        simulator.arguments = ["sim", "--link", link, "--control", controlPath, "--state", cli.directory + "/module.state"]
        simulator.environment = cli.environment
        simulator.standardOutput = FileHandle.nullDevice
        simulator.standardError = FileHandle.nullDevice
        try simulator.run()
        defer {
            kill(simulator.processIdentifier, SIGKILL)
            simulator.waitUntilExit()
        }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: controlPath) || !FileManager.default.fileExists(atPath: link) { usleep(20_000) }
        try #require(FileManager.default.fileExists(atPath: link))
        _ = try SimOverPTYTests.control(controlPath, "touch carol 100")

        let config = cli.directory + "/config.json"
        let answers = "\(cli.directory)/no-such-port\n\(link)\ncarol\n\n4826\n4826\n\n\ny\n"
        let result = try cli.run(["--config", config, "setup"], stdin: answers)
        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stdout.contains("Serial devices here:"))
        #expect(result.stderr.contains("Which port is the module on?"))
        #expect(result.stdout.contains("✘ \(cli.directory)/no-such-port: "))
        #expect(result.stdout.contains("✔ \(link): r30x module"))
        #expect(result.stdout.contains("✔ Paired the r30x module"))
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config))) as? [String: Any]
        #expect(written?["serialPort"] as? String == link)
    }
}
