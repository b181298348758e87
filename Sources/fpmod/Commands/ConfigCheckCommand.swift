import ArgumentParsing
import DoorLock
import GPIO

/// `fpmod config check [FILE]`: every problem of a config file, each with its key path.
enum ConfigCheckCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        guard let path = invocation.positional(0) ?? invocation.parsed.string("config") else {
            throw CommandFailure(.usage, "Name the file: fpmod config check FILE (or --config FILE); tools/config.example.json is a starting point.")
        }
        var problems: [String] = []
        var summary = ""
        do {
            let config = try LockConfig.load(path: path)
            let preset = try config.loadBoard()
            // Check lines against the real chip when this machine has it; otherwise only the layout.
            let chip = config.chipName(preset: preset).flatMap { try? LibgpiodChip($0) }
            problems = config.problems(preset: preset, chip: chip) + config.hookProblems() + config.mqttProblems()
            let lines = config.resolvedLines(preset: preset, family: config.family)
            summary = "board \(preset.name), port \(config.serialPort(preset: preset)), "
                + (lines.isEmpty ? "no GPIO" : "\(lines.count) GPIO lines" + (chip.map { " on \($0.name)" } ?? " (chip not present here, offsets not checked)"))
                + (lines[.touch] == nil ? ", GenImg polling every \(config.scanIntervalMs) ms" : ", touch line")
        } catch {
            problems = error.problems
        }
        if invocation.json {
            JSONOutput.print(.object(["ok": .bool(problems.isEmpty), "file": .string(path),
                                      "problems": .array(problems.map(JSONValue.string))]))
        } else if problems.isEmpty {
            StandardStreams.writeOutput("OK: \(path) (\(summary))\n")
        } else {
            StandardStreams.writeOutput("\(path): \(problems.count) problem\(problems.count == 1 ? "" : "s")\n"
                + problems.map { "  " + $0 + "\n" }.joined())
        }
        return problems.isEmpty ? .ok : .config
    }
}
