extension DoctorChecks {
    /// The port exists and no other process holds it.
    static func port(_ context: DoctorContext) -> DoctorCheck {
        let title = "Serial port"
        let facts = context.facts
        guard let port = facts.port else {
            let present = facts.serialDevices.isEmpty ? "no serial devices present" : "serial devices present: \(facts.serialDevices.joined(separator: ", "))"
            return DoctorCheck("port", title, .skipped,
                               "no --port, FPMOD_PORT or --sim given (\(present)). Try: fpmod --port /dev/ttyUSB0 doctor, or fpmod --sim doctor.")
        }
        let named = port.path == port.resolvedPath ? port.path : "\(port.path) (→ \(port.resolvedPath))"
        let from = port.source == .boardPreset ? " [from the \(context.board.presetName) preset]" : ""
        switch port.open {
        case .opened:
            return DoctorCheck("port", title, .ok, "\(named)\(from) opens exclusively: no other program holds it.")
        case .simulated:
            return DoctorCheck("port", title, .ok, "Simulated module on \(port.path) (--sim).")
        case let .busy(pid, command):
            let who = pid.map { "process \($0)" + (command.map { " (\($0))" } ?? "") } ?? "another program"
            return DoctorCheck("port", title, .problem, "\(named)\(from) is held by \(who).", fix: busyFix(command: command, pid: pid, tty: port.deviceName))
        case let .noSuchDevice(candidates):
            let present = candidates.isEmpty ? "No serial devices exist at all." : "Present: \(candidates.joined(separator: ", "))."
            let fix = context.board.isSupportedPi && context.portKind != .usbAdapter
                ? "Enable the UART (see UART in config.txt) and reboot, or pass the right --port. \(present)"
                : "Plug in the USB-serial adapter (check dmesg), or pass the right --port. \(present)"
            return DoctorCheck("port", title, .problem, "\(port.path)\(from) does not exist.", fix: fix)
        case .permissionDenied:
            return DoctorCheck("port", title, .problem, "\(named)\(from): permission denied.",
                               fix: port.node.map { "It is \($0.owner):\($0.group) \($0.modeText): " }.map { $0 + groupFix(group: "dialout", user: facts.user) }
                                   ?? groupFix(group: "dialout", user: facts.user))
        case .notATerminal:
            return DoctorCheck("port", title, .problem, "\(named) is not a serial device.",
                               fix: "Point --port (or FPMOD_PORT) at a tty such as /dev/serial0, /dev/ttyAMA0 or /dev/ttyUSB0.")
        case let .failed(reason):
            return DoctorCheck("port", title, .problem, "\(named)\(from) could not be opened: \(reason)",
                               fix: "Check the device with ls -l \(port.resolvedPath) and dmesg, then try again.")
        }
    }

    /// What to stop, by who holds the port.
    static func busyFix(command: String?, pid: Int32?, tty: String) -> String {
        let name = command ?? ""
        if name.contains("getty") {
            return "A login getty has the port: sudo systemctl disable --now serial-getty@\(tty).service, and remove console=\(tty) from the kernel command line."
        }
        if name == "fpmod" {
            return "A running fpmod (the service?) owns the module: use its control socket, or sudo systemctl stop fpmod first."
        }
        if name.lowercased().contains("modemmanager") {
            return "ModemManager is probing it: sudo systemctl disable --now ModemManager, or install tools/99-fpmod.rules."
        }
        return "Stop that program" + (pid.map { " (see ps -p \($0))" } ?? " (sudo fuser -v /dev/\(tty) names it)") + ", then try again."
    }
}
