import Foundation
import Testing

/// The reader commands on a real FPC1020 path: `fpmod --spi /dev/spidev0.0 info|capture`
/// through umockdev's replayed spidev, the same scripts as `fpmod sensor` (this machine is no
/// Pi and has no board preset with an spi section, so the sensor is soft-reset and polled).
@Suite(.serialized) struct SPIReaderUmockdevTests {
    @Test func infoNamesTheSensorAndHostMatching() throws {
        let rig = try UmockdevRig()
        let result = try rig.run(["--spi", "/dev/spidev0.0", "info", "--json"], script: SensorUmockdevTests.probeScript())
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json)
        #expect(json["kind"] as? String == "image-sensor")
        let sensor = json["sensor"] as? [String: Any]
        #expect(sensor?["hardwareId"] as? Int == 0x020A)
        #expect((sensor?["connection"] as? String)?.contains("/dev/spidev0.0") == true)
        #expect(result.stderr.contains("polling its interrupt register"))

        let text = try rig.run(["--spi", "/dev/spidev0.0", "info"], script: SensorUmockdevTests.probeScript())
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("matching on the host"))
        #expect(text.stdout.contains("no store yet"))
    }

    @Test func captureReadsTheImageFromTheSensor() throws {
        let rig = try UmockdevRig()
        let pixels = SensorUmockdevTests.pixels(finger: true)
        let png = rig.directory + "/finger.png"
        let result = try rig.run(["--spi", "/dev/spidev0.0", "capture", "--image", png],
                                 script: SensorUmockdevTests.captureScript(pixels: pixels))
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try PNGGrey.decode(Data(contentsOf: URL(fileURLWithPath: png)))
        #expect(decoded.pixels == pixels)
    }

    @Test func aModuleOnlyCommandNamesTheSPISensor() throws {
        let result = try CLI().run(["--spi", "/dev/spidev0.0", "sync"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("works on a UART module only"))
        #expect(result.stderr.contains("leave out --spi"))
    }

    @Test func aPortAndAnSPISensorTogetherAreRefused() throws {
        let result = try CLI().run(["--spi", "/dev/spidev0.0", "--port", "/dev/ttyUSB0", "identify"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("one reader at a time"))
    }
}
