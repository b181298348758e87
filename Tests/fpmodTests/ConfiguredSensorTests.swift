import Foundation
import Testing

/// The config file's `spiDevice` makes the FPC1020A the reader of every command, as `--spi`
/// does: what the service's config says is what `fpmod info` and `enroll` talk to.
@Suite struct ConfiguredSensorTests {
    private func config(_ cli: CLI, spiDevice: String) throws -> String {
        let path = cli.directory + "/config.json"
        try Data(#"{"board": "usb-serial", "spiDevice": "\#(spiDevice)"}"#.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theConfiguredSPINodeIsTheReader() throws {
        let cli = CLI()
        let path = try config(cli, spiDevice: "/dev/spidev9.7")
        let info = try cli.run(["--config", path, "info"])
        #expect(info.status != 0)
        #expect(info.stderr.contains("/dev/spidev9.7"), "\(info.stderr)")
        #expect(info.stderr.contains("dtparam=spi=on"), "\(info.stderr)")
    }

    @Test func aModuleOnlyCommandIsRefusedOnAConfiguredSensor() throws {
        let cli = CLI()
        let path = try config(cli, spiDevice: "/dev/spidev9.7")
        let sync = try cli.run(["--config", path, "sync"])
        #expect(sync.status == 64)
        #expect(sync.stderr.contains("works on a UART module only"), "\(sync.stderr)")
    }

    @Test func anExplicitPortStillNamesTheModule() throws {
        let cli = CLI()
        let path = try config(cli, spiDevice: "/dev/spidev9.7")
        let info = try cli.run(["--config", path, "--port", cli.directory + "/no-such-tty", "info"])
        #expect(info.status != 0)
        #expect(info.stderr.contains("no-such-tty"), "\(info.stderr)")
        #expect(!info.stderr.contains("spidev9.7"), "\(info.stderr)")
    }
}
