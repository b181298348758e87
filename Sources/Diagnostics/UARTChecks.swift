extension DoctorChecks {
    /// Why a Pi-UART check does not apply here, or nil when it does.
    static func uartSkipReason(_ context: DoctorContext) -> String? {
        switch context.portKind {
        case .simulator: return "simulated module (--sim): no UART involved."
        case .usbAdapter: return "module on a USB adapter (\(context.facts.port?.path ?? "")): no Pi UART setup needed."
        default: break
        }
        switch context.board {
        case .notAPi: return "not a Raspberry Pi."
        case .unsupported: return "unsupported board."
        default: return context.portKind == .other ? "module on \(context.facts.port?.path ?? "another port"), not a Pi UART." : nil
        }
    }

    /// Why the console and getty checks have nothing to look at.
    static func noGuardedTTYReason(_ context: DoctorContext) -> String {
        if context.portKind == .simulator { return "simulated module (--sim): no UART involved." }
        if let port = context.facts.port, port.isPseudoTerminal { return "\(port.path) is a pseudo-terminal: no console or getty concerns." }
        return "no port to check (not a Raspberry Pi and no --port)."
    }

    /// Which UART is on pins 8/10, and whether the port points at it.
    static func uartDevice(_ context: DoctorContext) -> DoctorCheck {
        let title = "UART on pins 8/10"
        if let reason = uartSkipReason(context) { return DoctorCheck("uart.device", title, .skipped, reason) }
        let facts = context.facts
        let config = context.configPath
        if context.board == .pi5 {
            if let port = facts.port, port.deviceName == "ttyAMA10" || port.path.hasSuffix("serial0") {
                return DoctorCheck("uart.device", title, .problem,
                                   "\(port.path) → \(port.deviceName): on a Pi 5 that is the 3-pin debug connector, not pins 8/10.",
                                   fix: "Use --port /dev/ttyAMA0 (pins 8/10, after dtparam=uart0=on in \(config)).")
            }
            guard facts.ttyAMA0Exists else {
                return DoctorCheck("uart.device", title, .problem, "/dev/ttyAMA0 does not exist: uart0 (pins 8/10) is off.",
                                   fix: "Add dtparam=uart0=on to \(config) (or raspi-config → Interface Options → Serial Port: hardware yes), then reboot.")
            }
            let hint = facts.port == nil ? " Use --port /dev/ttyAMA0 (/dev/serial0 is the debug connector)." : ""
            return DoctorCheck("uart.device", title, .ok, "/dev/ttyAMA0 is uart0 on pins 8/10 (PL011).\(hint)")
        }
        // Pi 3, Pi 4, Zero 2 W.
        guard let serial0 = facts.serialAliases["serial0"] else {
            return DoctorCheck("uart.device", title, .problem, "/dev/serial0 does not exist: the UART on pins 8/10 is off.",
                               fix: "Add enable_uart=1 (better: also dtoverlay=disable-bt) to \(config), or raspi-config → Interface Options → Serial Port: login shell no, hardware yes; then reboot.")
        }
        if let port = facts.port, port.deviceName == "ttyAMA0", serial0 != "ttyAMA0" {
            return DoctorCheck("uart.device", title, .problem,
                               "\(port.path) is ttyAMA0, but /dev/serial0 → \(serial0): ttyAMA0 serves Bluetooth, not pins 8/10.",
                               fix: "Add dtoverlay=disable-bt to \(config), run sudo systemctl disable hciuart and reboot; or use --port /dev/serial0.")
        }
        if serial0 == "ttyAMA0" {
            return DoctorCheck("uart.device", title, .ok, "/dev/serial0 → ttyAMA0 (PL011: a stable baud rate).")
        }
        if serial0 == "ttyS0" {
            return DoctorCheck("uart.device", title, .warning,
                               "/dev/serial0 → ttyS0, the mini UART: its baud rate follows the VPU core clock, so frames go bad when the clock changes.",
                               fix: "Put dtoverlay=disable-bt in \(config) and run sudo systemctl disable hciuart (or dtoverlay=miniuart-bt to keep Bluetooth), then reboot: serial0 then points to ttyAMA0.")
        }
        return DoctorCheck("uart.device", title, .warning, "/dev/serial0 → \(serial0), neither ttyAMA0 nor ttyS0.",
                           fix: "Check the dtoverlay lines in \(config); with dtoverlay=disable-bt serial0 points to ttyAMA0.")
    }

    /// config.txt enables the UART the board needs.
    static func uartConfig(_ context: DoctorContext) -> DoctorCheck {
        let title = "UART in config.txt"
        if let reason = uartSkipReason(context) { return DoctorCheck("uart.config", title, .skipped, reason) }
        guard let file = context.facts.bootConfig else {
            return DoctorCheck("uart.config", title, .warning, "No config.txt in /boot/firmware or /boot: cannot check the UART settings.",
                               fix: "Mount the boot partition (Raspberry Pi OS does it at /boot/firmware) and run fpmod doctor again.")
        }
        let config = BootConfig(text: file.text, board: context.board)
        if context.board == .pi5 {
            if config.enablesPi5UART0 {
                return DoctorCheck("uart.config", title, .ok, "\(file.path) enables uart0 (pins 8/10).")
            }
            if context.facts.ttyAMA0Exists {
                return DoctorCheck("uart.config", title, .ok, "\(file.path) has no dtparam=uart0, but /dev/ttyAMA0 exists (enabled elsewhere).")
            }
            return DoctorCheck("uart.config", title, .problem, "\(file.path) does not enable uart0.",
                               fix: "Add dtparam=uart0=on to \(file.path), then reboot.")
        }
        if config.enableUART == false {
            return DoctorCheck("uart.config", title, .problem, "\(file.path) has enable_uart=0: the UART on pins 8/10 is off.",
                               fix: "Change it to enable_uart=1 (and add dtoverlay=disable-bt), then reboot.")
        }
        if let overlay = config.pl011Overlay {
            return DoctorCheck("uart.config", title, .ok, "\(file.path) has dtoverlay=\(overlay): the PL011 is on pins 8/10.")
        }
        if config.enableUART == true {
            return DoctorCheck("uart.config", title, .ok, "\(file.path) has enable_uart=1 (the mini UART's core clock is pinned to 250 MHz).")
        }
        let uartOn = context.facts.serialAliases["serial0"] != nil
        return DoctorCheck("uart.config", title, uartOn ? .warning : .problem,
                           "\(file.path) has neither enable_uart=1 nor dtoverlay=disable-bt/miniuart-bt.",
                           fix: "Add enable_uart=1 and dtoverlay=disable-bt to \(file.path), run sudo systemctl disable hciuart, then reboot.")
    }

    /// No kernel console on the module's port.
    static func serialConsole(_ context: DoctorContext) -> DoctorCheck {
        let title = "Serial console"
        let guarded = context.guardedTTYs
        if guarded.isEmpty {
            return DoctorCheck("uart.console", title, .skipped,
                               noGuardedTTYReason(context))
        }
        let facts = context.facts
        let names = guarded.sorted().joined(separator: ", ")
        func hits(_ line: String?) -> [String] {
            KernelCommandLine.consoles(line ?? "").filter { guarded.contains(context.resolveAlias($0)) || guarded.contains($0) }
        }
        let inFile = hits(facts.bootCmdline?.text)
        let running = hits(facts.kernelCmdline)
        let where_ = facts.bootCmdline?.path ?? "the kernel command line"
        if let device = inFile.first {
            return DoctorCheck("uart.console", title, .problem,
                               "console=\(device) in \(where_): the kernel log and a login prompt share the module's port.",
                               fix: "Remove console=\(device),115200 from \(where_) (raspi-config → Interface Options → Serial Port: No to the login shell), then reboot.")
        }
        if let device = running.first {
            let fix = context.board.isSupportedPi
                ? "It is gone from \(context.cmdlinePath) but the running kernel still uses it: reboot."
                : "Remove console=\(device) from GRUB_CMDLINE_LINUX in /etc/default/grub, run sudo update-grub, then reboot."
            return DoctorCheck("uart.console", title, .problem,
                               "The running kernel has console=\(device) (/proc/cmdline): its log goes to the module's port.", fix: fix)
        }
        return DoctorCheck("uart.console", title, .ok, "No kernel console on \(names).")
    }

    /// No login getty on the module's port.
    static func serialGetty(_ context: DoctorContext) -> DoctorCheck {
        let title = "Serial getty"
        let guarded = context.guardedTTYs
        if guarded.isEmpty {
            return DoctorCheck("uart.getty", title, .skipped,
                               noGuardedTTYReason(context))
        }
        guard let gettys = context.facts.activeGettys else {
            return DoctorCheck("uart.getty", title, .skipped, "could not tell which gettys run (no systemctl, /proc unreadable).")
        }
        let names = guarded.sorted().joined(separator: ", ")
        if let tty = gettys.keys.sorted().first(where: guarded.contains) {
            // On a Pi 5 a disabled getty came back and re-took the port (bookworm-feedback#251): mask it.
            let verb = context.board == .pi5 ? "mask --now" : "disable --now"
            return DoctorCheck("uart.getty", title, .problem, "\(gettys[tty] ?? "A getty runs on \(tty)"): it answers the module with a login prompt.",
                               fix: "sudo systemctl \(verb) serial-getty@\(tty).service, and remove any console=\(tty) from the kernel command line.")
        }
        return DoctorCheck("uart.getty", title, .ok, "No getty on \(names).")
    }

    /// ModemManager probes new USB serial ports by sending AT commands to them.
    static func modemManager(_ context: DoctorContext) -> DoctorCheck {
        let title = "ModemManager"
        guard let active = context.facts.modemManagerActive else {
            return DoctorCheck("modemmanager", title, .skipped, "could not tell whether ModemManager runs.")
        }
        guard active else { return DoctorCheck("modemmanager", title, .ok, "Not running.") }
        // Relevant when the module is (or, off a Pi without a port given, may be) on a USB adapter.
        let usbLikely = context.portKind == .usbAdapter || (context.portKind == .none && !context.board.isSupportedPi)
        switch usbLikely {
        case true:
            return DoctorCheck("modemmanager", title, .warning,
                               "ModemManager runs: it sends AT probes to USB serial adapters when they appear, corrupting the module's first frames.",
                               fix: "sudo systemctl disable --now ModemManager, or keep it and install tools/99-fpmod.rules (ID_MM_DEVICE_IGNORE for the adapter).")
        case false:
            return DoctorCheck("modemmanager", title, .ok, "Runs, but leaves this port alone (it probes USB adapters only).")
        }
    }
}
