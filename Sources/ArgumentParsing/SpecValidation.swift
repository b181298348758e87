// Checks a ProgramSpec for declaration mistakes the parser would otherwise resolve silently
// (a command option shadowing a global one, two options on one letter). Meant for a unit test
// of the real program spec, not for run time.

extension ProgramSpec {
    /// Human-readable problems with the declaration; empty when it is consistent.
    public func problems() -> [String] {
        var problems: [String] = []
        let globals = effectiveGlobalOptions
        problems += Self.optionProblems(globals, where: "global options")
        problems += Self.duplicates(commands.map(\.name) + ["help"], what: "command ", where: name)
        for command in commands {
            problems += command.problems(path: [command.name], globals: globals)
        }
        return problems
    }

    static func optionProblems(_ options: [OptionSpec], where place: String) -> [String] {
        var problems = duplicates(options.map(\.name), what: "option --", where: place)
        problems += duplicates(options.compactMap(\.short).map(String.init), what: "short option -", where: place)
        for option in options {
            if let value = option.defaultValue, !option.choices.isEmpty, !option.choices.contains(value) {
                problems.append("--\(option.name) in \(place): default '\(value)' is not one of its choices")
            }
            if option.name.isEmpty || option.name.hasPrefix("-") || option.name.contains("=") {
                problems.append("'\(option.name)' in \(place) is not a usable option name (no dashes, no '=')")
            }
        }
        return problems
    }

    static func duplicates(_ names: [String], what: String, where place: String) -> [String] {
        var seen: Set<String> = []
        return names.filter { !seen.insert($0).inserted }.map { "\(what)\($0) is declared twice in \(place)" }
    }
}

extension CommandSpec {
    func problems(path: [String], globals: [OptionSpec]) -> [String] {
        let place = "'\(path.joined(separator: " "))'"
        // Problems among the global options alone are reported once, by ProgramSpec.problems().
        let globalOnly = Set(ProgramSpec.optionProblems(globals, where: place))
        var problems = ProgramSpec.optionProblems(globals + options, where: place).filter { !globalOnly.contains($0) }
        if !subcommands.isEmpty, !arguments.isEmpty {
            problems.append("\(place) has both subcommands and arguments; a group takes only a subcommand")
        }
        for (index, argument) in arguments.enumerated() {
            let isLast = index == arguments.count - 1
            if argument.isRepeating, !isLast {
                problems.append("<\(argument.name)> of \(place) repeats but is not the last argument")
            }
            if argument.isOptional, !isLast, !arguments[index + 1].isOptional {
                problems.append("<\(argument.name)> of \(place) is optional but a required argument follows it")
            }
        }
        problems += ProgramSpec.duplicates(subcommands.map(\.name), what: "subcommand ", where: place)
        for sub in subcommands {
            problems += sub.problems(path: path + [sub.name], globals: globals)
        }
        return problems
    }
}
