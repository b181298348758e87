import Foundation
import Testing

/// `fpmod sensor probe` and `fpmod sensor capture` on a spidev node that umockdev replays:
/// the real binary, the real ioctl path (SPI_IOC_MESSAGE through CSpidev), scripted sensor
/// answers. The scripts spell out, transfer by transfer, the FPC1020 sequences of
/// docs/fpc1020.md; a driver that sends anything else fails on umockdev's byte comparison.
@Suite(.serialized) struct SensorUmockdevTests {
    /// What the sensor answers from soft reset to the end of setup (`--no-gpio`: the interrupt
    /// register is read instead of an IRQ line).
    static func probeScript(hardwareID: [UInt8] = [0x02, 0x0A]) -> SpidevScript {
        var script = SpidevScript()
        script.comment("soft reset; the interrupt register shows power-on (FF) until read with clear")
        script.command(0xF8)
        script.read(0x18, reply: [0xFF])
        script.read(0x1C, reply: [0xFF])
        script.read(0x1C, reply: [0x00])
        script.comment("hardware id register FC, 2 bytes, most significant first")
        script.read(0xFC, reply: hardwareID)
        script.comment("setup: the revision-3 defaults")
        script.write(0x68, [0x17, 0x17, 0x17, 0x17, 0x23, 0x23, 0x23, 0x23])
        script.write(0x6C, [0x0F])
        script.write(0x90, [0x18])
        script.write(0x8C, [0x02])
        script.write(0xA0, [0x0D, 0x01])
        script.write(0xA8, [0x0F, 0x1B])
        script.write(0x5C, [0x0B])
        script.write(0xD8, [0x50])
        script.write(0xDC, [0x00, 0x05])
        script.write(0x54, [0x00, 0xC0, 0x00, 0xC0])
        return script
    }

    /// Ridges as a sine of period 9 px over the whole 192 × 192 frame, or a flat field.
    static func pixels(finger: Bool) -> [UInt8] {
        (0..<(192 * 192)).map { (index: Int) -> UInt8 in
            guard finger else { return UInt8(200 + index % 3) }
            let dx = Double(index % 192) - 60
            let dy = Double(index / 192) + 40
            let radius: Double = (dx * dx + dy * dy).squareRoot()
            let phase: Double = radius * 2 * Double.pi / 9
            return UInt8(128 + 90 * sin(phase))
        }
    }

    static func captureScript(pixels: [UInt8]) -> SpidevScript {
        var script = probeScript()
        script.comment("wait for finger: command 24, then interrupt bit 0 (finger down)")
        script.command(0x24)
        script.read(0x18, reply: [0x01])
        script.read(0x1C, reply: [0x01])
        script.comment("capture: command C0, then interrupt bit 5 (image data available)")
        script.command(0xC0)
        script.read(0x18, reply: [0x20])
        script.read(0x1C, reply: [0x20])
        script.image(pixels, rowLength: 192)
        return script
    }

    @Test func probeReadsTheHardwareIDAndWritesTheSetup() throws {
        let rig = try UmockdevRig()
        let result = try rig.run(["sensor", "probe", "--spi", "/dev/spidev0.0", "--no-gpio", "--json"], script: Self.probeScript())
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json)
        #expect(json["model"] as? String == "FPC1020A")
        #expect(json["hardwareId"] as? Int == 0x020A)
        #expect(json["width"] as? Int == 192 && json["height"] as? Int == 192)
        #expect(json["dpi"] as? Int == 508)
        // umockdev answers only SPI_IOC_MESSAGE: the mode/speed ioctls get ENOTTY and are tolerated.
        #expect(json["settingsConfirmed"] as? Bool == false)
    }

    @Test func verboseShowsEveryMessage() throws {
        let rig = try UmockdevRig()
        let result = try rig.run(["sensor", "probe", "--spi", "/dev/spidev0.0", "--no-gpio", "-v"], script: Self.probeScript())
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("SPI ") }
        #expect(lines.first == "SPI → f8")
        #expect(lines.contains("SPI → fc | ← 02 0a"))
        #expect(lines.contains("SPI → 68 | → 17 17 17 17 23 23 23 23"))
        #expect(lines.count == 15, "reset 4, id 1, setup 10")
    }

    @Test func aWrongHardwareIDNamesTheChip() throws {
        let rig = try UmockdevRig()
        let result = try rig.run(["sensor", "probe", "--spi", "/dev/spidev0.0", "--no-gpio"], script: Self.probeScript(hardwareID: [0x02, 0x1A]))
        #expect(result.status == 69)
        #expect(result.stderr.contains("0x021A"))
        #expect(result.stderr.contains("FPC1021A"))
    }

    @Test func allOnesOnMISOIsAWiringFault() throws {
        let rig = try UmockdevRig()
        let result = try rig.run(["sensor", "probe", "--spi", "/dev/spidev0.0", "--no-gpio"], script: Self.probeScript(hardwareID: [0xFF, 0xFF]))
        #expect(result.status == 69)
        #expect(result.stderr.contains("nothing drives MISO"))
        #expect(result.stderr.contains("GPIO9"))
    }

    /// The script wants another setup value than the driver sends: umockdev fails that
    /// SPI_IOC_MESSAGE with ENOMSG, as a controller error would fail it on a Pi.
    @Test func aFailedTransferIsReportedWithTheCall() throws {
        var script = Self.probeScript()
        let index = try #require(script.lines.firstIndex(of: "CW 0f"))
        var lines = script.lines
        lines[index] = "CW 0e"
        script = SpidevScript()
        for line in lines.dropFirst() { script.raw(line) }
        let rig = try UmockdevRig()
        let result = try rig.run(["sensor", "probe", "--spi", "/dev/spidev0.0", "--no-gpio"], script: script)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("SPI transfer on /dev/spidev0.0 failed"))
        #expect(result.stderr.contains("No message of desired type"), "ENOMSG, as umockdev fails a mismatched write")
        #expect(result.stderr.contains("wiring"))
    }

    @Test func captureWritesTheScriptedImage() throws {
        let rig = try UmockdevRig()
        let pixels = Self.pixels(finger: true)
        let png = rig.directory + "/finger.png"
        let result = try rig.run(["sensor", "capture", "--spi", "/dev/spidev0.0", "--no-gpio", "--image", png, "--json"],
                                 script: Self.captureScript(pixels: pixels))
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json)
        #expect(json["width"] as? Int == 192)
        #expect(json["coveredBlocks"] as? Int == 144)
        // The PNG holds exactly the scripted pixels (an 8-bit grey PNG written without filters
        // would still need inflating; compare through the file's own size and a decode instead).
        let decoded = try PNGGrey.decode(Data(contentsOf: URL(fileURLWithPath: png)))
        #expect(decoded.width == 192 && decoded.height == 192)
        #expect(decoded.pixels == pixels)
    }

    @Test func anEmptySensorImageIsRefused() throws {
        let rig = try UmockdevRig()
        let png = rig.directory + "/empty.png"
        let result = try rig.run(["sensor", "capture", "--spi", "/dev/spidev0.0", "--no-gpio", "--image", png],
                                 script: Self.captureScript(pixels: Self.pixels(finger: false)))
        #expect(result.status == 75)
        #expect(result.stderr.contains("holds no usable finger"))
        #expect(result.stderr.contains("0 of 144 blocks"))
    }

    @Test func aMissingNodeNamesDtparam() throws {
        let rig = try UmockdevRig()
        let result = try rig.run(["sensor", "probe", "--spi", "/dev/spidev0.1", "--no-gpio"], script: Self.probeScript())
        #expect(result.status == 69)
        #expect(result.stderr.contains("dtparam=spi=on"))
        #expect(result.stderr.contains("/dev/spidev0.0"), "the node that does exist is named")
    }
}

/// A temporary directory with the testbed description, and `umockdev-run` around `fpmod`.
final class UmockdevRig {
    let directory: String
    let cli = CLI()

    init() throws {
        directory = cli.directory
        guard ExternalTools.find("umockdev-run") != nil else {
            Issue.record("umockdev-run is not installed: run tools/install-deps.sh (Debian package umockdev).")
            throw CancellationError()
        }
        try SpidevTestbed.description.write(toFile: directory + "/spidev.umockdev", atomically: true, encoding: .utf8)
    }

    func run(_ arguments: [String], script: SpidevScript) throws -> CLI.Result {
        let scriptPath = directory + "/sensor.ioctl"
        try script.text.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let tool = ExternalTools.find("umockdev-run")!
        let result = try ExternalTools.run(tool, ["-d", directory + "/spidev.umockdev", "-i", "/dev/spidev0.0=" + scriptPath,
                                                  "--", CLI.binary] + arguments,
                                           environment: cli.environment)
        return CLI.Result(status: result.status, signaled: false, stdout: result.stdout, stderr: result.stderr)
    }
}

/// `fpmod sensor` on this machine as it is, without umockdev.
@Suite struct SensorCommandTests {
    /// With lines wanted but a board preset without SPI wiring, the options are named (after
    /// the SPI node opened: SPI comes first).
    @Test func withoutSPIWiringTheLineOptionsAreNamed() throws {
        let rig = try UmockdevRig()
        let result = try rig.run(["sensor", "probe", "--spi", "/dev/spidev0.0", "--board", "usb-serial"], script: SensorUmockdevTests.probeScript())
        #expect(result.status == 64)
        #expect(result.stderr.contains("--irq-line N --reset-line N"))
        #expect(result.stderr.contains("--no-gpio"))
    }

    @Test func theSpeedIsBoundedByTheSensor() throws {
        let result = try CLI().run(["sensor", "probe", "--no-gpio", "--speed", "20000000"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("speed"))
    }
}

extension SensorCommandTests {
    @Test func anUnwritableImagePathIsRefusedBeforeTheSensorIsTouched() throws {
        let result = try CLI().run(["sensor", "capture", "--no-gpio", "--image", "/nonexistent-fpmod-dir/finger.png"])
        #expect(result.status == 74)
        #expect(result.stderr.contains("/nonexistent-fpmod-dir"))
        #expect(!result.stderr.contains("spidev"), "refused before opening SPI")
    }
}
