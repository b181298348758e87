import GPIO

extension DoctorChecks {
    /// The board preset's chip is present (found by label, as the Pi 5 renumbering needs) and
    /// every line of the preset is within it.
    static func gpio(_ context: DoctorContext) -> [DoctorCheck] {
        let chipTitle = "GPIO chip"
        let linesTitle = "GPIO lines"
        let chips = context.facts.gpioChips
        guard context.board.isSupportedPi,
              let preset = BoardPreset.builtIn.first(where: { $0.name == context.board.presetName }),
              let assignment = preset.gpio
        else {
            let seen = chips.isEmpty
                ? "no GPIO chips (none needed with a USB adapter)."
                : "\(chips.map(\.description).joined(separator: ", ")); no board preset to check them against."
            return [DoctorCheck("gpio.chip", chipTitle, chips.isEmpty ? .skipped : .ok, chips.isEmpty ? seen : "Not a Raspberry Pi: " + seen),
                    DoctorCheck("gpio.lines", linesTitle, .skipped, "not a Raspberry Pi: no preset lines to check.")]
        }
        let wantedLabel = assignment.chipLabel ?? ""
        let resolved = assignment.resolveChip(available: chips)
        let chip = chips.first { $0.name == resolved && (wantedLabel.isEmpty || $0.label == wantedLabel) }
        guard let chip else {
            let unreadable = chips.filter { $0.problem != nil }
            let seen = chips.isEmpty ? "no /dev/gpiochip* at all" : chips.map(\.description).joined(separator: ", ")
            let skipLines = DoctorCheck("gpio.lines", linesTitle, .skipped, "the header chip was not found.")
            if !unreadable.isEmpty {
                return [DoctorCheck("gpio.chip", chipTitle, .warning,
                                    "Cannot read the chip labels (\(seen)), so the \(wantedLabel) chip cannot be identified.",
                                    fix: "Fix GPIO access (see GPIO access), then run fpmod doctor again."),
                        skipLines]
            }
            return [DoctorCheck("gpio.chip", chipTitle, .problem, "No chip labelled \(wantedLabel) (seen: \(seen)).",
                                fix: "Update the kernel and firmware (sudo apt full-upgrade), or name the chip in the configuration (gpio.chip / fpmod run --chip)."),
                    skipLines]
        }
        var seen = "\(chip.name) [\(chip.label)], \(chip.lineCount) lines: the header chip of the \(preset.name) preset."
        if context.board == .pi5 {
            if chip.name == "gpiochip4" {
                seen += " A kernel before 6.6.45 numbers it gpiochip4; fpmod finds it by label, other tools may look for gpiochip0."
            } else if let alias = context.facts.gpioChipAliases.first(where: { $0.value == chip.name })?.key {
                seen += " (/dev/\(alias) → \(chip.name) is kept for old tools.)"
            }
        }
        let chipCheck = DoctorCheck("gpio.chip", chipTitle, .ok, seen)

        let roles = LineRole.allCases.compactMap { role in assignment.lines[role].map { (role, $0) } }
        let outside = roles.filter { $0.1.offset < 0 || $0.1.offset >= chip.lineCount }
        let list = roles.map { "\($0.0.rawValue) \($0.1.offset)" }.joined(separator: ", ")
        if outside.isEmpty {
            return [chipCheck, DoctorCheck("gpio.lines", linesTitle, .ok, "\(list): all within \(chip.name)'s \(chip.lineCount) lines.")]
        }
        return [chipCheck,
                DoctorCheck("gpio.lines", linesTitle, .problem,
                            "\(outside.map { "\($0.0.rawValue) \($0.1.offset)" }.joined(separator: ", ")) beyond \(chip.name)'s \(chip.lineCount) lines.",
                            fix: "This is not the header chip the \(preset.name) preset expects: set gpio.chip in the configuration, or pick the preset of this board.")]
    }
}
