extension DoctorChecks {
    /// Whether the module answered, at which rate, and with which password.
    static func module(_ context: DoctorContext) -> [DoctorCheck] {
        let title = "Module"
        switch context.facts.module {
        case .notRequested:
            return [DoctorCheck("module", title, .skipped,
                                "not contacted: give --port (or FPMOD_PORT) or --sim to include the module.")]
        case .portUnavailable:
            return [DoctorCheck("module", title, .skipped, "not contacted: the port could not be opened (see Serial port).")]
        case .failed(let failure):
            return [moduleFailure(failure, context)]
        case .answered(let report):
            let templates = switch (report.templatesUsed, report.capacity) {
            case let (used?, capacity?): ", \(used) of \(capacity) templates used"
            case let (used?, nil): ", \(used) templates used"
            case let (nil, capacity?): ", capacity \(capacity)"
            case (nil, nil): ""
            }
            let connected = DoctorCheck("module", title, .ok,
                                        "\(report.familyName) (family \(report.familyCode)) on \(report.port) at \(report.answeredBaud) baud, address \(hex8(report.address))\(templates).")
            return [connected, baud(report), password(report)]
        }
    }

    static func baud(_ report: ModuleReport) -> DoctorCheck {
        let title = "Module baud rate"
        if report.answeredBaud == report.configuredBaud {
            return DoctorCheck("module.baud", title, .ok, "Answered at the configured \(report.configuredBaud) baud.")
        }
        return DoctorCheck("module.baud", title, .warning,
                           "Silent at the configured \(report.configuredBaud) baud; answered at \(report.answeredBaud) (probing costs time at every start).",
                           fix: "Pass --baud \(report.answeredBaud) (FPMOD_BAUD, or serial.baud in the configuration), or set the module back to \(report.configuredBaud).")
    }

    static func password(_ report: ModuleReport) -> DoctorCheck {
        let title = "Module password"
        switch report.passwordSource {
        case .factory:
            return DoctorCheck("module.password", title, .warning,
                               "The module accepts the factory password 00000000: anyone who reaches its wires can read, add or delete fingerprints.",
                               fix: "fpmod pair (gives it a random password and address, kept encrypted in the store).")
        case .pairing, .commandLine:
            return DoctorCheck("module.password", title, .ok, "Password verified (from \(report.passwordSource.rawValue)).")
        }
    }

    static func moduleFailure(_ failure: ModuleFailure, _ context: DoctorContext) -> DoctorCheck {
        let title = "Module"
        switch failure {
        case let .silent(port, rates):
            return DoctorCheck("module", title, .problem,
                               "No answer on \(port) at any rate tried (\(rates.map(String.init).joined(separator: ", "))).",
                               fix: wiringChecklist(context))
        case let .passwordRequired(code):
            let what = code == 0x21 ? "0x21 (password must be verified first)" : "0x13 (wrong password)"
            return DoctorCheck("module", title, .problem, "The module answered \(what): it has a password.",
                               fix: "It is paired to another store, or a sketch or another program set a password. Use the store that paired it (--store and --key) and run `fpmod unpair` there to set it back to the factory password, or pass the password with --password (FPMOD_PASSWORD). No module family has a reset of its own for this: see docs/recovery.md.")
        case let .wrongAddress(expected, seen):
            let who = seen.map { "address \(hex8($0))" } ?? "another address"
            return DoctorCheck("module", title, .problem, "Frames came from \(who), not \(hex8(expected)).",
                               fix: "Pass --address \(seen.map(hex8) ?? "<address>") (FPMOD_ADDRESS), or use the store that paired this module.")
        case let .corrupted(summary):
            let miniUART = context.facts.port?.deviceName == "ttyS0" && context.board.hasMiniUARTOnPins
            return DoctorCheck("module", title, .problem, "Bytes came back, but no valid frame (\(summary)).",
                               fix: (miniUART ? "The mini UART's baud drifts with the core clock: use dtoverlay=disable-bt. " : "")
                                   + "Check for a baud-rate mismatch (--baud), a loose wire, a missing common ground or a long unshielded cable.")
        case let .notPaired(finding):
            return DoctorCheck("module", title, .problem, finding,
                               fix: "Nothing is wrong with the wiring: this module answers, but it is not the one this store paired. If you replaced or reset it on purpose, run `fpmod pair --force`, then `fpmod restore BACKUP` or `fpmod sync`; otherwise treat it as tampering.")
        case let .other(text):
            return DoctorCheck("module", title, .problem, text, fix: "Run fpmod -v info to see each exchange.")
        }
    }

    /// The forum checklist for a silent module (field.md §5.3, protocol.md §9 #1, #4).
    static func wiringChecklist(_ context: DoctorContext) -> String {
        var steps = [
            "TX↔RX crossed (module TX → host RX, module RX → host TX; swapped wires are the most common fault)",
            "a common ground between module and host",
            "3.3 V logic on the UART lines (a 5 V adapter can damage a 3.3 V module)",
            "power: R50x modules need 3.3 V, R307/AS608 5 V; measure it at the module, and an R503's ring LED should flash at power-up",
        ]
        if context.board == .pi5 { steps.append("on a Pi 5, pins 8/10 are /dev/ttyAMA0, not /dev/serial0") }
        if context.piUARTMatters || context.portKind == .piUART { steps.append("no serial console or getty on the UART (see above)") }
        return "Check " + steps.enumerated().map { "(\($0.offset + 1)) \($0.element)" }.joined(separator: "; ") + "."
    }

    static func hex8(_ value: UInt32) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 8 - text.count)) + text
    }
}
