@testable import Diagnostics
@testable import fpmod
import GPIO
import Testing

@Suite struct DoctorSystemChecksTests {
    @Test func missingDialoutIsAProblemWithTheUsermodFix() {
        var facts = DoctorFixtures.healthyPi4()
        facts.user = UserFacts(name: "bob", uid: 1001, sessionGroups: ["bob", "gpio"], accountGroups: ["bob", "gpio"])
        facts.port?.node = DoctorFixtures.node("/dev/serial0", readWritable: false)
        let serial = DoctorChecks.evaluate(facts)[id: "permissions.serial"]
        #expect(serial.verdict == .problem)
        #expect(serial.seen.contains("root:dialout 0660"))
        #expect(serial.fix == "sudo usermod -aG dialout bob, then log out and back in.")
    }

    @Test func groupAddedAfterLoginAsksToLogInAgain() {
        var facts = DoctorFixtures.healthyPi4()
        facts.user = UserFacts(name: "bob", uid: 1001, sessionGroups: ["bob"], accountGroups: ["bob", "dialout", "gpio"])
        facts.port?.node = DoctorFixtures.node("/dev/serial0", readWritable: false)
        facts.gpioNodes = [DoctorFixtures.node("/dev/gpiochip0", group: "gpio", readWritable: false)]
        let checks = DoctorChecks.evaluate(facts)
        #expect(checks[id: "permissions.user"].verdict == .warning)
        #expect(checks[id: "permissions.serial"].fix?.contains("log out and back in") == true)
        #expect(checks[id: "permissions.serial"].fix?.contains("usermod") == false)
        #expect(checks[id: "permissions.gpio"].verdict == .problem)
    }

    @Test func rootIsNoted() {
        var facts = DoctorFixtures.healthyPi4()
        facts.user = UserFacts(name: "root", uid: 0, sessionGroups: ["root"], accountGroups: ["root"])
        let user = DoctorChecks.evaluate(facts)[id: "permissions.user"]
        #expect(user.verdict == .ok)
        #expect(user.seen.contains("root"))
    }

    @Test func pi5OldKernelChipFoundByLabel() {
        var facts = DoctorFixtures.healthyPi5()
        facts.gpioChips = [GPIOChipInfo(name: "gpiochip0", path: "/dev/gpiochip0", label: "gpio-brcmstb@107d508500", lineCount: 32),
                           GPIOChipInfo(name: "gpiochip4", path: "/dev/gpiochip4", label: "pinctrl-rp1", lineCount: 54)]
        facts.gpioChipAliases = [:]
        let checks = DoctorChecks.evaluate(facts)
        #expect(checks[id: "gpio.chip"].verdict == .ok)
        #expect(checks[id: "gpio.chip"].seen.hasPrefix("gpiochip4 [pinctrl-rp1]"))
        #expect(checks[id: "gpio.chip"].seen.contains("6.6.45"))
        #expect(checks[id: "gpio.lines"].verdict == .ok)
    }

    @Test func pi5CurrentKernelMentionsTheAlias() {
        let checks = DoctorChecks.evaluate(DoctorFixtures.healthyPi5())
        #expect(checks[id: "gpio.chip"].seen.contains("/dev/gpiochip4 → gpiochip0"))
        #expect(checks[id: "gpio.lines"].seen.contains("touch 17"))
        #expect(DoctorChecks.exitStatus(checks) == 0)
    }

    @Test func missingHeaderChipAndShortChip() {
        var facts = DoctorFixtures.healthyPi5()
        facts.gpioChips = [GPIOChipInfo(name: "gpiochip0", path: "/dev/gpiochip0", label: "gpio-brcmstb@107d508500", lineCount: 32)]
        #expect(DoctorChecks.evaluate(facts)[id: "gpio.chip"].verdict == .problem)

        facts.gpioChips = [GPIOChipInfo(name: "gpiochip0", path: "/dev/gpiochip0", label: "pinctrl-rp1", lineCount: 16)]
        let lines = DoctorChecks.evaluate(facts)[id: "gpio.lines"]
        #expect(lines.verdict == .problem)
        #expect(lines.seen.contains("touch 17"))
        #expect(!lines.seen.contains("buzzer 5"), "offset 5 fits in 16 lines")

        facts.gpioChips = [GPIOChipInfo(name: "gpiochip0", path: "/dev/gpiochip0", label: "", lineCount: 0, problem: "Permission denied")]
        #expect(DoctorChecks.evaluate(facts)[id: "gpio.chip"].verdict == .warning)
    }

    @Test func busyPortNamesTheHolder() {
        var facts = DoctorFixtures.healthyPi4()
        facts.port?.open = .busy(pid: 812, command: "agetty")
        facts.module = .portUnavailable
        let checks = DoctorChecks.evaluate(facts)
        #expect(checks[id: "port"].verdict == .problem)
        #expect(checks[id: "port"].seen.contains("process 812 (agetty)"))
        #expect(checks[id: "port"].fix?.contains("serial-getty@ttyAMA0") == true)
        #expect(checks[id: "module"].verdict == .skipped)

        facts.port?.open = .busy(pid: 900, command: "fpmod")
        #expect(DoctorChecks.evaluate(facts)[id: "port"].fix?.contains("control socket") == true)
        facts.port?.open = .busy(pid: nil, command: nil)
        #expect(DoctorChecks.evaluate(facts)[id: "port"].fix?.contains("fuser") == true)
    }

    @Test func missingUSBAdapterListsWhatExists() {
        var facts = DoctorFixtures.plainPC()
        facts.port = PortFacts(path: "/dev/ttyUSB0", resolvedPath: "/dev/ttyUSB0", source: .commandLine, node: nil,
                               open: .noSuchDevice(candidates: ["/dev/ttyACM0"]))
        facts.module = .portUnavailable
        let checks = DoctorChecks.evaluate(facts)
        #expect(checks[id: "port"].verdict == .problem)
        #expect(checks[id: "port"].fix?.contains("/dev/ttyACM0") == true)
        #expect(checks[id: "permissions.serial"].verdict == .skipped)
    }

    @Test func plainPCWithNothingGivenSkipsAndPasses() {
        let checks = DoctorChecks.evaluate(DoctorFixtures.plainPC())
        #expect(checks[id: "board"].verdict == .ok)
        #expect(checks[id: "board"].seen.contains("usb-serial"))
        for id in ["uart.device", "uart.config", "uart.console", "uart.getty", "gpio.chip", "gpio.lines", "port", "module", "store"] {
            #expect(checks[id: id].verdict == .skipped, "\(id)")
        }
        #expect(DoctorChecks.exitStatus(checks) == 0)
    }

    @Test func unsupportedPiFails() {
        var facts = DoctorFixtures.plainPC()
        facts.deviceTreeModel = "Raspberry Pi Zero W Rev 1.1\0"
        #expect(DoctorChecks.evaluate(facts)[id: "board"].verdict == .problem)
    }
}
