@testable import Diagnostics
@testable import fpmod
import GPIO
import Testing

/// Fixture facts of the setups forums keep reporting, built from a healthy baseline.
enum DoctorFixtures {
    static let pi4Model = "Raspberry Pi 4 Model B Rev 1.4\0"
    static let pi5Model = "Raspberry Pi 5 Model B Rev 1.0\0"

    static func node(_ path: String, mode: UInt32 = 0o660, owner: String = "root", group: String = "dialout",
                     readWritable: Bool = true) -> FileNode {
        FileNode(path: path, mode: mode, owner: owner, group: group, readWritable: readWritable)
    }

    static let alice = UserFacts(name: "alice", uid: 1000, sessionGroups: ["alice", "dialout", "gpio"],
                                 accountGroups: ["alice", "dialout", "gpio"])

    /// A Pi 4 set up as the README says: disable-bt, serial0 → ttyAMA0, no console, user in both groups.
    static func healthyPi4() -> DoctorFacts {
        var facts = DoctorFacts()
        facts.deviceTreeModel = pi4Model
        facts.machine = "aarch64"
        facts.serialAliases = ["serial0": "ttyAMA0", "serial1": "ttyS0"]
        facts.ttyAMA0Exists = true
        facts.bootConfig = TextFile(path: "/boot/firmware/config.txt", text: """
            # For more options see http://rpf.io/configtxt
            dtparam=audio=on
            [pi4]
            arm_boost=1
            [all]
            enable_uart=1
            dtoverlay=disable-bt
            """)
        facts.bootCmdline = TextFile(path: "/boot/firmware/cmdline.txt",
                                     text: "console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes rootwait\n")
        facts.kernelCmdline = "coherent_pool=1M 8250.nr_uarts=0 console=tty1 root=PARTUUID=1234-02 rootwait"
        facts.activeGettys = ["tty1": "getty (pid 600) runs on tty1"]
        facts.modemManagerActive = false
        facts.user = alice
        facts.gpioChips = [GPIOChipInfo(name: "gpiochip0", path: "/dev/gpiochip0", label: "pinctrl-bcm2711", lineCount: 58),
                           GPIOChipInfo(name: "gpiochip1", path: "/dev/gpiochip1", label: "raspberrypi-exp-gpio", lineCount: 8)]
        facts.gpioNodes = [node("/dev/gpiochip0", group: "gpio"), node("/dev/gpiochip1", group: "gpio")]
        facts.port = PortFacts(path: "/dev/serial0", resolvedPath: "/dev/ttyAMA0", source: .boardPreset,
                               node: node("/dev/serial0"), open: .opened)
        facts.store = StoreFacts(databasePath: "/home/alice/.local/share/fpmod/fpmod.db",
                                 keyPath: "/home/alice/.config/fpmod/store.key")
        return facts
    }

    /// A Pi 5 on a current kernel, uart0 enabled, module on /dev/ttyAMA0.
    static func healthyPi5() -> DoctorFacts {
        var facts = healthyPi4()
        facts.deviceTreeModel = pi5Model
        facts.serialAliases = ["serial0": "ttyAMA10"]
        facts.bootConfig = TextFile(path: "/boot/firmware/config.txt", text: "dtparam=uart0=on\n")
        facts.gpioChips = [GPIOChipInfo(name: "gpiochip0", path: "/dev/gpiochip0", label: "pinctrl-rp1", lineCount: 54),
                           GPIOChipInfo(name: "gpiochip10", path: "/dev/gpiochip10", label: "gpio-brcmstb@107d508500", lineCount: 32)]
        facts.gpioChipAliases = ["gpiochip4": "gpiochip0"]
        facts.port = PortFacts(path: "/dev/ttyAMA0", resolvedPath: "/dev/ttyAMA0", source: .commandLine,
                               node: node("/dev/ttyAMA0"), open: .opened)
        return facts
    }

    /// A PC without any Pi file, nothing given.
    static func plainPC() -> DoctorFacts {
        var facts = DoctorFacts()
        facts.machine = "x86_64"
        facts.kernelCmdline = "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet"
        facts.user = alice
        facts.modemManagerActive = false
        facts.store = StoreFacts(databasePath: "/home/alice/.local/share/fpmod/fpmod.db",
                                 keyPath: "/home/alice/.config/fpmod/store.key")
        return facts
    }

    static func answered(baud: Int = 57600, configured: Int = 57600,
                         password: ModuleReport.PasswordSource = .pairing) -> ModuleProbe {
        .answered(ModuleReport(familyName: "Grow R50x", familyCode: "r50x", port: "/dev/ttyAMA0",
                               configuredBaud: configured, answeredBaud: baud, address: 0xA1B2_C3D4,
                               passwordSource: password, capacity: 200, templatesUsed: 3))
    }
}

extension Array where Element == DoctorCheck {
    /// The check with `id`; fails the test when it is missing.
    subscript(id id: String) -> DoctorCheck {
        guard let check = first(where: { $0.id == id }) else {
            Issue.record("no check with id \(id)")
            return DoctorCheck(id, "missing", .skipped, "no check with id \(id)")
        }
        return check
    }

    var verdicts: [String: DoctorVerdict] { Dictionary(uniqueKeysWithValues: map { ($0.id, $0.verdict) }) }
}
