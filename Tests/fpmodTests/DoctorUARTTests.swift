@testable import Diagnostics
@testable import fpmod
import Testing

@Suite struct DoctorUARTTests {
    @Test func healthyPi4PassesEveryUARTCheck() {
        let checks = DoctorChecks.evaluate(DoctorFixtures.healthyPi4())
        for id in ["board", "uart.device", "uart.config", "uart.console", "uart.getty", "modemmanager"] {
            #expect(checks[id: id].verdict == .ok, "\(id): \(checks[id: id].seen)")
        }
        #expect(checks[id: "board"].seen.contains("rpi4"))
        #expect(DoctorChecks.exitStatus(checks) == 0)
    }

    @Test func pi4WithConsoleOnSerial0IsAProblem() {
        var facts = DoctorFixtures.healthyPi4()
        facts.serialAliases = ["serial0": "ttyS0", "serial1": "ttyAMA0"]
        facts.bootConfig = TextFile(path: "/boot/firmware/config.txt", text: "enable_uart=1\n")
        facts.bootCmdline = TextFile(path: "/boot/firmware/cmdline.txt",
                                     text: "console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootwait\n")
        facts.port = nil
        let checks = DoctorChecks.evaluate(facts)
        let console = checks[id: "uart.console"]
        #expect(console.verdict == .problem)
        #expect(console.seen.contains("console=serial0"))
        #expect(console.fix?.contains("Remove console=serial0,115200 from /boot/firmware/cmdline.txt") == true)
        #expect(DoctorChecks.exitStatus(checks) == 1)
    }

    @Test func miniUARTIsAWarningWithTheOverlayFix() {
        var facts = DoctorFixtures.healthyPi4()
        facts.serialAliases = ["serial0": "ttyS0", "serial1": "ttyAMA0"]
        facts.bootConfig = TextFile(path: "/boot/firmware/config.txt", text: "enable_uart=1\n")
        facts.port = PortFacts(path: "/dev/serial0", resolvedPath: "/dev/ttyS0", source: .commandLine,
                               node: DoctorFixtures.node("/dev/serial0"), open: .opened)
        let checks = DoctorChecks.evaluate(facts)
        let device = checks[id: "uart.device"]
        #expect(device.verdict == .warning)
        #expect(device.seen.contains("mini UART"))
        #expect(device.fix?.contains("dtoverlay=disable-bt") == true)
        #expect(device.fix?.contains("miniuart-bt") == true)
        #expect(checks[id: "uart.config"].verdict == .ok)
        #expect(DoctorChecks.exitStatus(checks) == 0, "a warning alone does not fail")
    }

    @Test func pi4WithoutSerial0NeedsEnableUART() {
        var facts = DoctorFixtures.healthyPi4()
        facts.serialAliases = [:]
        facts.bootConfig = TextFile(path: "/boot/config.txt", text: "dtparam=audio=on\n[pi5]\ndtoverlay=disable-bt\n")
        facts.port = nil
        let checks = DoctorChecks.evaluate(facts)
        #expect(checks[id: "uart.device"].verdict == .problem)
        #expect(checks[id: "uart.config"].verdict == .problem, "a [pi5] section does not apply to a Pi 4")
        #expect(checks[id: "uart.config"].fix?.contains("enable_uart=1") == true)
    }

    @Test func ttyAMA0IsBluetoothWhileSerial0IsTheMiniUART() {
        var facts = DoctorFixtures.healthyPi4()
        facts.serialAliases = ["serial0": "ttyS0", "serial1": "ttyAMA0"]
        facts.port = PortFacts(path: "/dev/ttyAMA0", resolvedPath: "/dev/ttyAMA0", source: .commandLine,
                               node: DoctorFixtures.node("/dev/ttyAMA0"), open: .opened)
        let device = DoctorChecks.evaluate(facts)[id: "uart.device"]
        #expect(device.verdict == .problem)
        #expect(device.seen.contains("Bluetooth"))
    }

    @Test func gettyOnThePortIsAProblem() {
        var facts = DoctorFixtures.healthyPi4()
        facts.activeGettys = ["ttyAMA0": "serial-getty@ttyAMA0.service is active", "tty1": "getty (pid 600) runs on tty1"]
        let getty = DoctorChecks.evaluate(facts)[id: "uart.getty"]
        #expect(getty.verdict == .problem)
        #expect(getty.fix?.contains("sudo systemctl disable --now serial-getty@ttyAMA0.service") == true)
    }

    @Test func pi5MasksTheGetty() {
        var facts = DoctorFixtures.healthyPi5()
        facts.activeGettys = ["ttyAMA0": "agetty (pid 812) runs on ttyAMA0"]
        #expect(DoctorChecks.evaluate(facts)[id: "uart.getty"].fix?.contains("mask --now serial-getty@ttyAMA0") == true)
    }

    @Test func consoleOnlyInTheRunningKernelAsksForAReboot() {
        var facts = DoctorFixtures.healthyPi4()
        facts.kernelCmdline = "console=ttyAMA0,115200 console=tty1 root=PARTUUID=1234-02"
        let console = DoctorChecks.evaluate(facts)[id: "uart.console"]
        #expect(console.verdict == .problem)
        #expect(console.fix?.contains("reboot") == true)
    }

    @Test func pi5Serial0IsTheDebugConnector() {
        var facts = DoctorFixtures.healthyPi5()
        facts.port = PortFacts(path: "/dev/serial0", resolvedPath: "/dev/ttyAMA10", source: .commandLine,
                               node: DoctorFixtures.node("/dev/serial0"), open: .opened)
        let device = DoctorChecks.evaluate(facts)[id: "uart.device"]
        #expect(device.verdict == .problem)
        #expect(device.seen.contains("debug connector"))
        #expect(device.fix?.contains("/dev/ttyAMA0") == true)
    }

    @Test func pi5WithoutUart0() {
        var facts = DoctorFixtures.healthyPi5()
        facts.ttyAMA0Exists = false
        facts.bootConfig = TextFile(path: "/boot/firmware/config.txt", text: "[pi4]\ndtparam=uart0=on\n[all]\n")
        facts.port = nil
        let checks = DoctorChecks.evaluate(facts)
        #expect(checks[id: "uart.device"].verdict == .problem)
        #expect(checks[id: "uart.config"].verdict == .problem)
        #expect(checks[id: "uart.config"].fix?.contains("dtparam=uart0=on") == true)
        // serial0 → ttyAMA10 carries the default console on a Pi 5, which is fine: it is not pins 8/10.
        var withDebugConsole = DoctorFixtures.healthyPi5()
        withDebugConsole.bootCmdline = TextFile(path: "/boot/firmware/cmdline.txt", text: "console=serial0,115200 console=tty1\n")
        #expect(DoctorChecks.evaluate(withDebugConsole)[id: "uart.console"].verdict == .ok)
    }

    @Test func modemManagerMattersForUSBAdapters() {
        var facts = DoctorFixtures.plainPC()
        facts.modemManagerActive = true
        facts.port = PortFacts(path: "/dev/ttyUSB0", resolvedPath: "/dev/ttyUSB0", source: .commandLine,
                               node: DoctorFixtures.node("/dev/ttyUSB0"), open: .opened)
        let checks = DoctorChecks.evaluate(facts)
        #expect(checks[id: "modemmanager"].verdict == .warning)
        #expect(checks[id: "uart.device"].verdict == .skipped)
        var pi = DoctorFixtures.healthyPi4()
        pi.modemManagerActive = true
        #expect(DoctorChecks.evaluate(pi)[id: "modemmanager"].verdict == .ok)
    }

    @Test func pcWithConsoleOnItsTtyS0() {
        var facts = DoctorFixtures.plainPC()
        facts.kernelCmdline = "BOOT_IMAGE=/vmlinuz console=tty0 console=ttyS0,115200n8"
        facts.port = PortFacts(path: "/dev/ttyS0", resolvedPath: "/dev/ttyS0", source: .commandLine,
                               node: DoctorFixtures.node("/dev/ttyS0"), open: .opened)
        let console = DoctorChecks.evaluate(facts)[id: "uart.console"]
        #expect(console.verdict == .problem)
        #expect(console.fix?.contains("GRUB_CMDLINE_LINUX") == true)
    }
}
