import GPIO

extension DoctorChecks {
    /// Which board this is and which preset fits it.
    static func board(_ context: DoctorContext) -> DoctorCheck {
        let title = "Board"
        switch context.board {
        case .notAPi(let model):
            let what = model.map { "\($0), not a Raspberry Pi" } ?? "Not a Raspberry Pi"
            let machine = context.facts.machine.isEmpty ? "" : " (\(context.facts.machine))"
            return DoctorCheck("board", title, .ok,
                               "\(what)\(machine): the usb-serial preset fits (USB-serial adapter, no GPIO).")
        case .unsupported(let model):
            return DoctorCheck("board", title, .problem, "\(model): fpmod cannot run on this board.",
                               fix: "fpmod needs a 64-bit OS: use a Pi 3, 4, 400, 5 or Zero 2 W with 64-bit Raspberry Pi OS, or a USB-serial adapter on another machine.")
        default:
            let model = context.facts.deviceTreeModel?.trimmingNULsAndSpaces ?? "Raspberry Pi"
            let preset = BoardPreset.builtIn.first { $0.name == context.board.presetName }
            let where_ = preset.map { ": module on \($0.serialPort)" } ?? ""
            return DoctorCheck("board", title, .ok, "\(model): the \(context.board.presetName) preset fits\(where_).")
        }
    }
}

/// The pure checks of `fpmod doctor`: facts in, verdicts out.
public enum DoctorChecks {
    /// Every check, in checklist order.
    public static func evaluate(_ facts: DoctorFacts) -> [DoctorCheck] {
        let context = DoctorContext(facts)
        // Appended in steps: Swift 6.0's type checker gives up on one long `+` chain.
        var checks: [DoctorCheck] = [board(context)]
        checks += [uartDevice(context), uartConfig(context), serialConsole(context), serialGetty(context)]
        checks += [modemManager(context), userAccount(context), serialPermission(context), gpioPermission(context)]
        checks += gpio(context)
        checks += spi(context)
        checks.append(keypad(context))
        checks.append(wiegandLines(context))
        checks.append(nfcReader(context))
        checks.append(port(context))
        checks += module(context)
        checks += store(context)
        return checks
    }

    /// 0 when nothing is a problem, 1 otherwise: warnings do not fail the command.
    public static func exitStatus(_ checks: [DoctorCheck]) -> Int32 {
        checks.contains { $0.verdict == .problem } ? 1 : 0
    }
}
