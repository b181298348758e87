import Foundation
@testable import Diagnostics
@testable import fpmod
import Testing

@Suite struct DoctorSPITests {
    static func spiNode(_ path: String = "/dev/spidev0.0", readWritable: Bool = true) -> FileNode {
        DoctorFixtures.node(path, group: "spi", readWritable: readWritable)
    }

    /// A Pi 4 with SPI on and the sensor on CE0.
    static func pi4WithSPI() -> DoctorFacts {
        var facts = DoctorFixtures.healthyPi4()
        facts.bootConfig?.text += "\ndtparam=spi=on\n"
        facts.spi = SPIFacts(requestedDevice: "/dev/spidev0.0", nodes: [spiNode(), spiNode("/dev/spidev0.1")], bufferSize: 4096)
        facts.user.sessionGroups.append("spi")
        return facts
    }

    @Test func aPCWithoutSPIOnlyInformsWhenNoSensorIsConfigured() {
        let checks = DoctorChecks.evaluate(DoctorFixtures.plainPC())
        let interface = checks[id: "spi.interface"]
        #expect(interface.verdict == .skipped)
        #expect(interface.seen.contains("No /dev/spidev*"))
        #expect(interface.seen.contains("none needed for UART modules"))
        #expect(checks[id: "spi.device"].verdict == .skipped)
        #expect(!checks.contains { $0.id.hasPrefix("spi.") && $0.verdict == .problem })
    }

    @Test func aPCWithoutSPIIsAProblemForAConfiguredSensor() {
        var facts = DoctorFixtures.plainPC()
        facts.spi.requestedDevice = "/dev/spidev0.0"
        let checks = DoctorChecks.evaluate(facts)
        #expect(checks[id: "spi.interface"].verdict == .problem)
        #expect(checks[id: "spi.interface"].fix?.contains("dtparam=spi=on") == true)
        #expect(checks[id: "spi.device"].verdict == .problem)
        #expect(checks[id: "spi.device"].seen == "/dev/spidev0.0 does not exist (no spidev node exists).")
        #expect(DoctorChecks.exitStatus(checks) == 1)
    }

    @Test func aPiWithSPIOffGetsTheDtparamFix() {
        var facts = Self.pi4WithSPI()
        facts.bootConfig = DoctorFixtures.healthyPi4().bootConfig
        facts.spi.nodes = []
        let interface = DoctorChecks.evaluate(facts)[id: "spi.interface"]
        #expect(interface.verdict == .problem)
        #expect(interface.seen.contains("no dtparam=spi=on in /boot/firmware/config.txt"))
        #expect(interface.fix == "Add dtparam=spi=on to /boot/firmware/config.txt (or raspi-config → Interface Options → SPI) and reboot; the sensor is then on /dev/spidev0.0 (CE0).")
    }

    @Test func dtparamInAnotherBoardsSectionDoesNotCount() {
        var facts = Self.pi4WithSPI()
        facts.bootConfig?.text = "[pi5]\ndtparam=spi=on\n[all]\nenable_uart=1\n"
        facts.spi.nodes = []
        #expect(DoctorChecks.evaluate(facts)[id: "spi.interface"].seen.contains("SPI is off"))
    }

    @Test func switchedOnButNoNodeAsksForAReboot() {
        var facts = Self.pi4WithSPI()
        facts.spi.nodes = []
        let interface = DoctorChecks.evaluate(facts)[id: "spi.interface"]
        #expect(interface.verdict == .problem)
        #expect(interface.fix?.hasPrefix("Reboot") == true)
    }

    @Test func aNodeThisUserMayNotOpenNamesTheSPIGroup() {
        var facts = Self.pi4WithSPI()
        facts.spi.nodes = [Self.spiNode(readWritable: false)]
        facts.user = DoctorFixtures.alice
        let device = DoctorChecks.evaluate(facts)[id: "spi.device"]
        #expect(device.verdict == .problem)
        #expect(device.seen == "/dev/spidev0.0 is root:spi 0660; alice may not open it.")
        #expect(device.fix == "sudo usermod -aG spi alice, then log out and back in.")
    }

    @Test func theBufferSizeDecidesHowAnImageIsRead() {
        var facts = Self.pi4WithSPI()
        #expect(DoctorChecks.evaluate(facts)[id: "spi.device"].seen.contains("an image takes 10 messages"))
        #expect(DoctorChecks.evaluate(facts)[id: "spi.device"].seen.contains("spidev.bufsiz=65536 in /boot/firmware/cmdline.txt"))
        facts.spi.bufferSize = 65536
        let device = DoctorChecks.evaluate(facts)[id: "spi.device"]
        #expect(device.verdict == .ok)
        #expect(device.seen.contains("in one message"))
    }

    @Test func thePresetWiringIsListed() {
        let lines = DoctorChecks.evaluate(Self.pi4WithSPI())[id: "spi.lines"]
        #expect(lines.verdict == .ok)
        #expect(lines.seen == "rpi4 preset: MOSI GPIO10 (pin 19), MISO GPIO9 (pin 21), SCLK GPIO11 (pin 23), CS GPIO8 (pin 24); IRQ GPIO26 (pin 37), reset GPIO16 (pin 36).")
    }

    /// This machine as it is: `fpmod doctor --spi` names what is missing (the CI hosts have no
    /// SPI controller; on one that has spidev nodes the interface check passes instead).
    @Test func doctorOnThisMachineReportsItsSPI() throws {
        let cli = CLI()
        let result = try cli.run(["doctor", "--spi", "/dev/spidev0.0", "--json"])
        let items = try #require((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [[String: Any]])
        let interface = try #require(items.first { $0["id"] as? String == "spi.interface" })
        let hasSPI = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).contains { $0.hasPrefix("spidev") }
        if hasSPI {
            #expect(interface["verdict"] as? String == "ok")
        } else {
            #expect(interface["verdict"] as? String == "problem")
            #expect(result.status == 1)
            let text = "\(interface["seen"] ?? "") \(interface["fix"] ?? "")"
            #expect(text.contains("spidev"))
        }
    }
}
