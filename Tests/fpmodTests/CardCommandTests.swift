import Foundation
import Glibc
import Testing

/// `fpmod card read` through the real binary against `fpmod sim --profile pn532` in another
/// process: real libnfc on a real pseudo-terminal, cards placed on the control socket.
@Suite(.serialized) struct CardCommandTests {
    /// A running `fpmod sim --profile pn532`, its link and control socket in the CLI's directory.
    final class Simulator {
        let process = Process()
        let link: String
        let control: String

        init(_ cli: CLI, card: String?) throws {
            link = cli.directory + "/nfc0"
            control = cli.directory + "/nfc.ctl"
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            process.arguments = ["sim", "--profile", "pn532", "--link", link, "--control", control] + (card.map { ["--card", $0] } ?? [])
            process.environment = cli.environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            for _ in 0..<500 where !FileManager.default.fileExists(atPath: control) || !FileManager.default.fileExists(atPath: link) { usleep(20_000) }
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    @Test func cardReadPrintsTypeAndUIDWithTheCloneWarning() throws {
        let cli = CLI()
        let simulator = try Simulator(cli, card: "classic:0A1B2C3D")
        try #require(FileManager.default.fileExists(atPath: simulator.link))
        let read = try cli.run(["card", "read", "--device", "pn532_uart:\(simulator.link)", "--timeout", "5s"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout == "classic card, UID 0A1B2C3D (ATQA 0004, SAK 08)\n")
        #expect(read.stderr.contains("clone"), "\(read.stderr)")
        let json = try cli.run(["--json", "card", "read", "--device", "pn532_uart:\(simulator.link)"])
        #expect(json.json?["uid"] as? String == "0A1B2C3D", "\(json.stdout)")
        #expect(json.json?["type"] as? String == "classic")
    }

    @Test func noCardIsTryLaterAndBadInputIsUsage() throws {
        let cli = CLI()
        let simulator = try Simulator(cli, card: nil)
        try #require(FileManager.default.fileExists(atPath: simulator.link))
        let none = try cli.run(["card", "read", "--device", "pn532_uart:\(simulator.link)", "--timeout", "500ms"])
        #expect(none.status == 75, "\(none.stderr)")
        #expect(none.stdout.isEmpty)
        #expect(none.stderr.contains("No card on the reader"), "\(none.stderr)")
        let badDriver = try cli.run(["card", "read", "--device", "pn999:\(simulator.link)"])
        #expect(badDriver.status == 64, "\(badDriver.stderr)")
        #expect(badDriver.stderr.contains("unknown driver 'pn999'"), "\(badDriver.stderr)")
        let badTimeout = try cli.run(["card", "read", "--device", "pn532_uart:\(simulator.link)", "--timeout", "soon"])
        #expect(badTimeout.status == 64, "\(badTimeout.stderr)")
        let missing = try cli.run(["card", "read", "--device", "pn532_uart:\(cli.directory)/no-such-tty"])
        #expect(missing.status == 69, "\(missing.stderr)")
    }

    @Test func simulatedCardTypesAreChecked() throws {
        let cli = CLI()
        let result = try cli.run(["sim", "--profile", "pn532", "--card", "desfire:0A1B2C3D"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("7-byte UID"), "\(result.stderr)")
        let misplaced = try cli.run(["sim", "--card", "classic:0A1B2C3D"])
        #expect(misplaced.status == 64)
        #expect(misplaced.stderr.contains("--profile pn532"), "\(misplaced.stderr)")
    }
}
