import ArgumentParsing
import DoorLock
import GPIO

/// `fpmod config check [FILE]`: every problem of a config file, each with its key path.
enum ConfigCheckCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        guard let path = invocation.positional(0) ?? invocation.parsed.string("config") else {
            throw CommandFailure(.usage, "Name the file: fpmod config check FILE (or --config FILE); tools/config.example.json is a starting point.")
        }
        // Lines are checked on the real chip when this machine has it, else against the preset.
        var chip: (any GPIOChip)?
        let check = LockConfigCheck(path: path) { config, preset in
            chip = config.chipName(preset: preset).flatMap { try? LibgpiodChip($0) }
            return chip
        }
        // The rules the config and the store make together, when the store is here to read.
        let store = check.config.flatMap { try? invocation.openStoreForReading(configured: $0) }
        let problems = check.allProblems(store: store)
        var summary = ""
        if let config = check.config {
            if let preset = check.preset {
                let lines = config.resolvedLines(preset: preset, family: config.family)
                let presetLines = config.gpio.chip == nil ? preset.gpio?.lineCount : nil
                let checkedOn = chip.map { " on \($0.name)" }
                    ?? presetLines.map { " (chip not present here; offsets checked against its \($0) lines)" }
                    ?? " (chip not present here, offsets not checked)"
                summary = "board \(preset.name), port \(config.serialPort(preset: preset)), "
                    + (lines.isEmpty ? "no GPIO" : "\(lines.count) GPIO lines" + checkedOn)
                    + (lines[.touch] == nil ? ", GenImg polling every \(config.scanIntervalMs) ms" : ", touch line")
            }
        }
        if invocation.json {
            JSONOutput.print(.object(["ok": .bool(problems.isEmpty), "file": .string(path),
                                      "problems": .array(problems.map(JSONValue.string))]))
        } else if problems.isEmpty {
            StandardStreams.writeOutput("OK: \(path) (\(summary))\n")
        } else {
            StandardStreams.writeOutput("\(path): \(problems.count) problem\(problems.count == 1 ? "" : "s")\n"
                + problems.map { problem in "  " + problem + (check.location(of: problem).map { " (\($0))" } ?? "") + "\n" }.joined())
        }
        return problems.isEmpty ? .ok : .config
    }
}
