import Foundation
import Glibc
import SerialPort
import Testing

/// Probing the baud rate shows progress on stderr, says where the module was found, and a
/// silent port's error names the rates tried without pretending the last one was "the" rate.
@Suite(.serialized) struct BaudProbeTests {
    @Test func aModuleAtAnotherRateIsFoundWithProgressAndAHint() throws {
        let cli = CLI()
        let link = cli.directory + "/sim0", controlPath = cli.directory + "/sim.ctl"
        let simulator = Process()
        simulator.executableURL = URL(fileURLWithPath: CLI.binary)
        simulator.arguments = ["--baud", "115200", "sim", "--link", link, "--control", controlPath]
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

        let info = try cli.run(["--port", link, "info"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stderr.contains("No answer on \(link) at 57600 baud; trying the other 11 rates"), "\(info.stderr)")
        #expect(info.stderr.contains("trying 115200 baud (2 of 12)"))
        #expect(info.stderr.contains("Found the module at 115200 baud, not 57600: pass --baud 115200 to skip probing."))
        // Asked at the right rate: no probing, nothing to say.
        let direct = try cli.run(["--port", link, "--baud", "115200", "info"])
        #expect(direct.status == 0)
        #expect(!direct.stderr.contains("trying"))
        #expect(!direct.stderr.contains("Found the module"))
    }

    @Test func aSilentPortNamesEveryRateTried() throws {
        let cli = CLI()
        let silent = try PseudoTerminal()  // nobody answers on the other side
        defer { silent.close() }
        let info = try cli.run(["--port", silent.slavePath, "info"])
        #expect(info.status == 69)
        #expect(info.stderr.contains("trying 105600 baud (12 of 12)"), "\(info.stderr)")
        #expect(info.stderr.contains("No fingerprint module answered on \(silent.slavePath) at any baud rate tried (57600, 115200, 9600"))
        #expect(!info.stderr.contains("@ 105600"))
    }
}
