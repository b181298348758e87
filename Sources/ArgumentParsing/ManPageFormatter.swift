// The manual page, section 1, in man(7) macros, from the same ProgramSpec that prints --help:
// NAME, SYNOPSIS, DESCRIPTION, GLOBAL OPTIONS, COMMANDS, ENVIRONMENT, EXIT STATUS, SEE ALSO.
// The same inputs always give the same bytes: no date unless one is passed in.

/// Renders a `ProgramSpec` as a troff man page, e.g. `fpmod.1`.
public struct ManPageFormatter: Sendable {
    public let program: ProgramSpec
    /// The date in the page footer (`2026-12-01`); nil leaves it empty so the page is reproducible.
    public let date: String?
    /// References for SEE ALSO, as `name(section)`: `sysexits.h(3head)`.
    public let seeAlso: [String]

    public init(program: ProgramSpec, date: String? = nil, seeAlso: [String] = []) {
        self.program = program
        self.date = date
        self.seeAlso = seeAlso
    }

    /// The whole page, ending with a newline.
    public func render() -> String {
        var lines: [String] = []
        lines.append(#".\" \#(program.name)(1), generated from the command specs that also print --help. Do not edit."#)
        lines.append(".TH " + [program.name.uppercased(), "1", date ?? "", program.version ?? "", "User Commands"]
            .map(TroffText.argument).joined(separator: " "))
        // No hyphenation (option names and values must be copied whole) and a ragged right margin,
        // as DocBook and Asciidoctor pages do.
        lines += [".nh", ".ad l"]
        lines += name() + synopsis() + description() + globalOptions() + commands() + environment()
            + exitStatus() + seeAlsoSection()
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Sections

    private func name() -> [String] {
        var abstract = program.abstract
        if abstract.hasSuffix(".") { abstract.removeLast() }
        return [".SH NAME", TroffText.line(TroffText.literal(program.name) + " \\- " + TroffText.prose(abstract))]
    }

    private func synopsis() -> [String] {
        let name = TroffText.bold(program.name)
        var lines = [
            ".SH SYNOPSIS",
            name + " [\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]",
            ".br",
            TroffText.bold(program.name + " help") + " [\\fIcommand\\fR]",
        ]
        if program.version != nil { lines += [".br", name + " " + TroffText.bold("--version")] }
        return lines
    }

    private func description() -> [String] {
        [".SH DESCRIPTION"] + paragraphs(program.abstract) + paragraphs(program.discussion, leadingBreak: true)
            + [".PP", "Each command is described under " + TroffText.bold("COMMANDS") + "; "
                + TroffText.bold(program.name + " help") + " \\fIcommand\\fR and "
                + TroffText.bold(program.name) + " \\fIcommand\\fR " + TroffText.bold("--help")
                + " print the same descriptions as text."]
    }

    private func globalOptions() -> [String] {
        [".SH GLOBAL OPTIONS", "Accepted before or after the command name."]
            + program.effectiveGlobalOptions.flatMap(option)
    }

    private func commands() -> [String] {
        var lines = [".SH COMMANDS", "Every command also accepts the global options."]
        for command in program.commands {
            lines += self.command(command, path: [command.name])
        }
        lines += [".SS " + TroffText.argument("help"), TroffText.bold(program.name + " help") + " [\\fIcommand\\fR]", ".PP",
                  "Show help for a command (the overview without one)."]
        return lines
    }

    private func command(_ command: CommandSpec, path: [String]) -> [String] {
        var lines = [".SS " + TroffText.argument(path.joined(separator: " ")), usage(command, path: path)]
        lines += [".PP"] + paragraphs(command.abstract) + paragraphs(command.discussion, leadingBreak: true)
        for argument in command.arguments {
            var help = TroffText.prose(argument.help)
            if argument.isOptional { help += " Optional." }
            if argument.isRepeating { help += " May be given more than once." }
            lines += [".TP", TroffText.italic(argument.name) + (argument.isRepeating ? " ..." : ""), TroffText.line(help)]
        }
        lines += command.options.flatMap(option)
        if !command.subcommands.isEmpty {
            lines += [".PP", "Subcommands: " + command.subcommands.map { TroffText.bold($0.name) }.joined(separator: ", ") + "."]
        }
        for subcommand in command.subcommands {
            lines += self.command(subcommand, path: path + [subcommand.name])
        }
        return lines
    }

    /// `fpmod enroll [--finger LABEL] … name`, as one filled line.
    private func usage(_ command: CommandSpec, path: [String]) -> String {
        var words = [TroffText.bold(([program.name] + path).joined(separator: " "))]
        if !command.subcommands.isEmpty { return (words + ["\\fIsubcommand\\fR"]).joined(separator: " ") }
        for option in command.options {
            words.append("[" + optionLabel(option, withShort: false).replacingSpaces() + "]" + (option.repeatable ? " ..." : ""))
        }
        for argument in command.arguments {
            let core = TroffText.italic(argument.name) + (argument.isRepeating ? " ..." : "")
            words.append(argument.isOptional ? "[" + core + "]" : core)
        }
        return words.joined(separator: " ")
    }

    private func environment() -> [String] {
        let uses = EnvironmentUse.collect(program)
        guard !uses.isEmpty else { return [] }
        var lines = [".SH ENVIRONMENT"]
        var variables: [String] = []
        for use in uses where !variables.contains(use.variable) { variables.append(use.variable) }
        for variable in variables {
            lines += [".TP", TroffText.bold(variable)]
            for (index, use) in uses.filter({ $0.variable == variable }).enumerated() {
                if index > 0 { lines.append(".br") }
                let commands = use.commands.isEmpty ? ""
                    : " of " + Self.list(use.commands.map { TroffText.bold(program.name + " " + $0) })
                let when = use.option.kind == .flag
                    ? "Sets " + TroffText.bold("--" + use.option.name) + commands + " when it is 1, true, yes or on: "
                    : "The value of " + TroffText.bold("--" + use.option.name) + commands + " when that is not given: "
                lines.append(TroffText.line(when + TroffText.prose(use.option.help)))
            }
        }
        return lines
    }

    private func exitStatus() -> [String] {
        var lines = [".SH EXIT STATUS"]
        for code in ExitCode.allCases {
            lines += [".TP", TroffText.bold(String(code.rawValue)), TroffText.line(TroffText.prose(code.meaning))]
        }
        return lines
    }

    private func seeAlsoSection() -> [String] {
        var references = [TroffText.bold(program.name + " help") + " \\fIcommand\\fR"]
        for reference in seeAlso {
            if let open = reference.firstIndex(of: "("), reference.hasSuffix(")") {
                references.append(TroffText.bold(String(reference[..<open])) + TroffText.literal(String(reference[open...])))
            } else {
                references.append(TroffText.bold(reference))
            }
        }
        return [".SH SEE ALSO", references.joined(separator: ",\n")]
    }

    // MARK: - Pieces

    /// `.TP` with the option's label, then its help and everything help shows about it.
    private func option(_ option: OptionSpec) -> [String] {
        var lines = [".TP", optionLabel(option, withShort: true), TroffText.line(TroffText.prose(option.help))]
        if !option.choices.isEmpty {
            lines.append("Values: " + option.choices.map(TroffText.bold).joined(separator: ", ") + ".")
        }
        if let value = option.defaultValue { lines.append("Default: " + TroffText.bold(value) + ".") }
        if let variable = option.environment { lines.append("Environment: " + TroffText.bold(variable) + ".") }
        if option.repeatable {
            lines.append(option.kind == .flag ? "May be repeated for more." : "May be given more than once.")
        }
        return lines
    }

    /// `\fB\-p\fR, \fB\-\-port\fR \fIPATH\fR`.
    private func optionLabel(_ option: OptionSpec, withShort: Bool) -> String {
        var label = TroffText.bold("--" + option.name)
        if option.kind == .value { label += " " + TroffText.italic(option.valueName) }
        if withShort, let short = option.short { label = TroffText.bold("-" + String(short)) + ", " + label }
        return label
    }

    /// Each line of `text` as a paragraph of its own (help prints each on its own line too).
    private func paragraphs(_ text: String, leadingBreak: Bool = false) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n") {
            let words = paragraph.split(separator: " ").joined(separator: " ")
            if words.isEmpty { continue }
            if leadingBreak || !lines.isEmpty { lines.append(".PP") }
            lines.append(TroffText.line(TroffText.prose(words)))
        }
        return lines
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}

extension String {
    /// Spaces as troff's unbreakable space, so `[--finger LABEL]` is never split across lines.
    fileprivate func replacingSpaces() -> String {
        map { $0 == " " ? "\\ " : String($0) }.joined()
    }
}
