import Foundation
import Glibc
import Testing

/// `fpmod sim --search-model`: the running simulator says which model it uses, and the default
/// is best-match.
@Suite struct SimSearchModelCLITests {
    func status(_ arguments: [String]) throws -> String {
        let cli = CLI()
        let controlPath = cli.directory + "/sim.ctl"
        let simulator = Process()
        simulator.executableURL = URL(fileURLWithPath: CLI.binary)
        simulator.arguments = ["sim", "--control", controlPath] + arguments
        simulator.environment = cli.environment
        simulator.standardOutput = FileHandle.nullDevice
        simulator.standardError = FileHandle.nullDevice
        try simulator.run()
        defer {
            simulator.terminate()
            simulator.waitUntilExit()
        }
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: controlPath) { usleep(20_000) }
        return try SimOverPTYTests.control(controlPath, "status")
    }

    @Test func theModelIsChosenOnTheCommandLine() throws {
        #expect(try status(["--search-model", "first-match"]).contains("\"searchModel\":\"first-match\""))
        #expect(try status([]).contains("\"searchModel\":\"best-match\""))
        let refused = try CLI().run(["sim", "--search-model", "sometimes"])
        #expect(refused.status == 64 && refused.stderr.contains("best-match"))
    }
}
