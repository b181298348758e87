// Help pages in the layout of swift-argument-parser: OVERVIEW, USAGE, ARGUMENTS, OPTIONS,
// SUBCOMMANDS, GLOBAL OPTIONS, with the descriptions in one column at 26 and wrapped at 80.
// A command's page ends with the global options by name only: described in full they are
// 40 lines that push the command's own off the screen; the overview describes them.

struct HelpFormatter {
    let program: ProgramSpec
    static let width = 80
    /// Column where descriptions start: two spaces of indent plus 24 for the label.
    static let descriptionColumn = 26

    /// Help for the command at `path` (which must exist), or the program overview for `[]`.
    func help(for path: [String]) -> String {
        guard let command = program.command(at: path) else { return overview() }
        let fullName = ([program.name] + path).joined(separator: " ")
        var sections: [String] = []
        sections.append(wrap("OVERVIEW: " + command.abstract))
        if !command.discussion.isEmpty { sections.append(wrap(command.discussion)) }
        sections.append(usage(command, fullName: fullName))
        if !command.arguments.isEmpty {
            sections.append(section("ARGUMENTS", command.arguments.map { ("<\($0.name)>" + ($0.isRepeating ? " ..." : ""), $0.help) }))
        }
        if !command.options.isEmpty {
            sections.append(section("OPTIONS", command.options.map(row)))
        }
        if !command.subcommands.isEmpty {
            sections.append(section("SUBCOMMANDS", command.subcommands.map { ($0.name, $0.abstract) }))
        }
        sections.append(globalOptionNames())
        if !command.subcommands.isEmpty {
            sections.append("See '\(program.name) help \(path.joined(separator: " ")) <subcommand>' for detailed help.")
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// `GLOBAL OPTIONS:` with the names only (`-p/--port, --baud, …`) and where they are described.
    private func globalOptionNames() -> String {
        let names = program.effectiveGlobalOptions.map { option in
            option.short.map { "-\($0)/--\(option.name)" } ?? "--" + option.name
        }
        let indented = { (text: String) in "  " + TextWrapping.wrap(text, width: Self.width, indent: 2, firstLineUsed: 2) }
        return "GLOBAL OPTIONS:\n" + indented(names.joined(separator: ", "))
            + "\n" + indented("Every command takes them; '\(program.name) help' describes each.")
    }

    private func overview() -> String {
        var sections: [String] = []
        sections.append(wrap("OVERVIEW: " + program.abstract))
        if !program.discussion.isEmpty { sections.append(wrap(program.discussion)) }
        sections.append("USAGE: \(program.name) [<global options>] <command> [<options>] [<arguments>]")
        // Groups are listed by their full two-word names so every runnable command is visible here.
        var rows: [(String, String)] = []
        for command in program.commands {
            if command.subcommands.isEmpty {
                rows.append((command.name, command.abstract))
            } else {
                rows += command.subcommands.map { ("\(command.name) \($0.name)", $0.abstract) }
            }
        }
        rows.append(("help", "Show help for a command."))
        sections.append(section("COMMANDS", rows))
        sections.append(section("GLOBAL OPTIONS", program.effectiveGlobalOptions.map(row)))
        sections.append("See '\(program.name) help <command>' for detailed help.")
        return sections.joined(separator: "\n\n") + "\n"
    }

    private func usage(_ command: CommandSpec, fullName: String) -> String {
        if !command.subcommands.isEmpty { return "USAGE: \(fullName) <subcommand>" }
        let arguments = command.arguments.map(\.usage)
        let options = command.options.map { option in
            option.repeatable ? "[\(option.displayName) ...]" : "[\(option.displayName)]"
        }
        let full = (["USAGE:", fullName] + options + arguments).joined(separator: " ")
        if full.count <= Self.width { return full }
        let short = (["USAGE:", fullName] + (options.isEmpty ? [] : ["[<options>]"]) + arguments).joined(separator: " ")
        return wrap(short, indent: 2)
    }

    private func row(_ option: OptionSpec) -> (String, String) {
        let label = option.short.map { "-\($0), " + option.displayName } ?? option.displayName
        var notes: [String] = []
        if !option.choices.isEmpty { notes.append("values: " + option.choices.joined(separator: ", ")) }
        if let value = option.defaultValue { notes.append("default: \(value)") }
        if let variable = option.environment { notes.append("env: \(variable)") }
        if option.repeatable { notes.append("repeatable") }
        let help = notes.isEmpty ? option.help : option.help + " (" + notes.joined(separator: "; ") + ")"
        return (label, help)
    }

    private func section(_ title: String, _ rows: [(label: String, help: String)]) -> String {
        ([title + ":"] + rows.map(formatRow)).joined(separator: "\n")
    }

    /// `  label   help…`, or the label alone with the help on the next line when the label is too wide.
    private func formatRow(_ row: (label: String, help: String)) -> String {
        let column = Self.descriptionColumn
        let label = "  " + row.label
        if row.help.isEmpty { return label }
        let helpText = TextWrapping.wrap(row.help, width: Self.width, indent: column, firstLineUsed: column)
        if label.count <= column - 2 {
            return label + String(repeating: " ", count: column - label.count) + helpText
        }
        return label + "\n" + String(repeating: " ", count: column) + helpText
    }

    private func wrap(_ text: String, indent: Int = 0) -> String {
        TextWrapping.wrap(text, width: Self.width, indent: indent)
    }
}
