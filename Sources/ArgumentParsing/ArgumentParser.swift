// Turns `fpmod [global options] <command> [options] [arguments]` into a ParsedCommand.
// One left-to-right pass; global options are recognised anywhere before `--`.

/// What the command line asks for.
public enum ParseOutcome: Equatable, Sendable {
    /// Run this command.
    case run(ParsedCommand)
    /// Print this help text to stdout and exit 0 (`--help`, `-h`, `fpmod help [command]`).
    case help(String)
    /// Print this version to stdout and exit 0.
    case version(String)
}

/// Parses command lines against a `ProgramSpec`.
public struct ArgumentParser: Sendable {
    public let program: ProgramSpec
    /// Where environment fallbacks (`OptionSpec.environment`) are looked up; injected for tests.
    public let environment: [String: String]

    /// - Parameter environment: usually `ProcessInfo.processInfo.environment`.
    public init(program: ProgramSpec, environment: [String: String] = [:]) {
        self.program = program
        self.environment = environment
    }

    /// Parses the arguments after the program name (`CommandLine.arguments.dropFirst()`).
    public func parse<Arguments: Sequence<String>>(_ arguments: Arguments) throws(UsageError) -> ParseOutcome {
        let tokens = Array(arguments)
        var state = State()
        do {
            try consume(tokens, into: &state)
        } catch {
            // `--help` anywhere wins over mistakes elsewhere: show the help of what was recognised.
            // Not over a command that does not exist: `fpmod nosuch --help` is that mistake, with
            // its suggestion, as `fpmod help nosuch` is (the general help would hide the typo).
            if case .unknownCommand = error.kind {
                throw error
            }
            if tokens.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
                return .help(HelpFormatter(program: program).help(for: state.path))
            }
            throw error
        }
        return try finish(state)
    }

    /// The help text of the command at `path` (empty path: the program's overview).
    public func helpText(for path: [String] = []) throws(UsageError) -> String {
        try resolveHelpPath(path)
        return HelpFormatter(program: program).help(for: path)
    }

    // MARK: - The pass over the tokens

    struct State {
        var path: [String] = []
        var command: CommandSpec?
        var values: [String: [String]] = [:]
        var flagCounts: [String: Int] = [:]
        var positionals: [String] = []
        /// `fpmod help a b`: the words after `help`.
        var helpPath: [String]?
        var optionsEnded = false
    }

    private func consume(_ tokens: [String], into state: inout State) throws(UsageError) {
        var index = 0
        func nextValue(for option: OptionSpec, spelled: String) throws(UsageError) -> String {
            index += 1
            guard index < tokens.count, !tokens[index].hasPrefix("--") else {
                throw error(.missingValue(option: "\(spelled) <\(option.valueName)>"), state)
            }
            return tokens[index]
        }

        while index < tokens.count {
            let token = tokens[index]
            if state.optionsEnded || token == "-" || !token.hasPrefix("-") || isNegativeNumber(token, state) {
                try positional(token, into: &state)
            } else if token == "--" {
                state.optionsEnded = true
            } else if token.hasPrefix("--") {
                let body = token.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
                guard let option = visibleOptions(state).first(where: { $0.name == name }) else {
                    let suggestion = Suggestions.closest(
                        to: "--" + name, among: visibleOptions(state).map { "--" + $0.name })
                    throw error(.unknownOption("--" + name, suggestion: suggestion), state)
                }
                if option.kind == .flag {
                    if inline != nil { throw error(.flagWithValue("--" + name), state) }
                    state.flagCounts[name, default: 0] += 1
                } else {
                    let value: String
                    if let inline { value = inline } else { value = try nextValue(for: option, spelled: "--" + name) }
                    try record(value, for: option, into: &state)
                }
            } else {
                // A cluster of short options: `-v`, `-vv`, `-p /dev/ttyS0`, `-p/dev/ttyS0`.
                var letters = Substring(token.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let option = visibleOptions(state).first(where: { $0.short == letter }) else {
                        // `-finger` is probably `--finger`.
                        let long = String(token.dropFirst())
                        let suggestion = visibleOptions(state).contains { $0.name == long } ? "--" + long : nil
                        throw error(.unknownOption("-" + String(letter), suggestion: suggestion), state)
                    }
                    if option.kind == .flag {
                        state.flagCounts[option.name, default: 0] += 1
                    } else {
                        var value = String(letters)
                        if value.isEmpty { value = try nextValue(for: option, spelled: "-" + String(letter)) }
                        try record(value, for: option, into: &state)
                        break
                    }
                }
            }
            index += 1
        }
    }

    private func positional(_ token: String, into state: inout State) throws(UsageError) {
        if state.helpPath != nil {
            state.helpPath!.append(token)
        } else if let command = state.command {
            if !command.subcommands.isEmpty {
                guard let sub = command.subcommand(named: token) else {
                    let suggestion = Suggestions.closest(to: token, among: command.subcommands.map(\.name))
                    throw error(.unknownCommand(token, suggestion: suggestion), state)
                }
                state.command = sub
                state.path.append(token)
            } else {
                state.positionals.append(token)
            }
        } else if token == "help" {
            state.helpPath = []
        } else if let command = program.commands.first(where: { $0.name == token }) {
            state.command = command
            state.path = [token]
        } else {
            let names = program.commands.map(\.name) + ["help"]
            throw error(.unknownCommand(token, suggestion: Suggestions.closest(to: token, among: names)), state)
        }
    }

    private func record(_ value: String, for option: OptionSpec, into state: inout State) throws(UsageError) {
        if !option.choices.isEmpty, !option.choices.contains(value) {
            throw error(.invalidValue(subject: option.displayName, value: value, expected: Self.oneOf(option.choices)), state)
        }
        if !option.repeatable, state.values[option.name] != nil {
            throw error(.duplicateOption("--" + option.name), state)
        }
        state.values[option.name, default: []].append(value)
    }

    private func finish(_ state: State) throws(UsageError) -> ParseOutcome {
        if let helpPath = state.helpPath {
            try resolveHelpPath(helpPath)
            return .help(HelpFormatter(program: program).help(for: helpPath))
        }
        if state.flagCounts["help"] != nil {
            return .help(HelpFormatter(program: program).help(for: state.path))
        }
        if let version = program.version, state.flagCounts["version"] != nil {
            return .version(version)
        }
        guard let command = state.command else {
            throw error(.missingCommand(choices: program.commands.map(\.name)), state)
        }
        if !command.subcommands.isEmpty {
            throw error(.missingCommand(choices: command.subcommands.map(\.name)), state)
        }
        try checkArity(command, state)
        for option in visibleOptions(state) where option.kind == .value && state.values[option.name] == nil {
            if let variable = option.environment, let value = environment[variable], !value.isEmpty,
                !option.choices.isEmpty, !option.choices.contains(value)
            {
                throw error(.invalidValue(subject: variable, value: value, expected: Self.oneOf(option.choices)), state)
            }
        }
        return .run(ParsedCommand(
            programName: program.name, path: state.path, command: command,
            globalOptions: program.effectiveGlobalOptions, values: state.values,
            flagCounts: state.flagCounts, positionals: state.positionals, environment: environment))
    }

    private func checkArity(_ command: CommandSpec, _ state: State) throws(UsageError) {
        let given = state.positionals.count
        if let missing = command.arguments.dropFirst(given).first(where: { !$0.isOptional }) {
            throw error(.missingArgument("<\(missing.name)>"), state)
        }
        let takesRest = command.arguments.last?.isRepeating ?? false
        if !takesRest, given > command.arguments.count {
            throw error(.unexpectedArgument(state.positionals[command.arguments.count]), state)
        }
    }

    private func resolveHelpPath(_ path: [String]) throws(UsageError) {
        var resolved: [String] = []
        var choices = program.commands
        for word in path {
            guard let command = choices.first(where: { $0.name == word }) else {
                let suggestion = Suggestions.closest(to: word, among: choices.map(\.name))
                throw UsageError(.unknownCommand(word, suggestion: suggestion), programName: program.name, commandPath: resolved)
            }
            resolved.append(word)
            choices = command.subcommands
        }
    }

    // MARK: - Helpers

    /// The current command's options first (they may shadow a global), then the global ones.
    private func visibleOptions(_ state: State) -> [OptionSpec] {
        (state.command?.options ?? []) + program.effectiveGlobalOptions
    }

    /// `-5` is a value, not an option, unless some visible option is named by a digit.
    private func isNegativeNumber(_ token: String, _ state: State) -> Bool {
        let second = token.dropFirst().first
        guard let second, second.isNumber else { return false }
        return !visibleOptions(state).contains { $0.short == second }
    }

    private func error(_ kind: UsageError.Kind, _ state: State) -> UsageError {
        UsageError(kind, programName: program.name, commandPath: state.path)
    }

    static func oneOf(_ choices: [String]) -> String {
        "one of " + choices.map { "'\($0)'" }.joined(separator: ", ")
    }
}
