// The result of parsing: which command, and typed access to its values with validation errors
// that name the option the value came from.

/// A parsed command line: the command path and every option, flag and argument value.
///
/// Values are resolved in this order: command line, environment variable (if declared),
/// declared default. Asking for a name the command does not declare is a programming error.
public struct ParsedCommand: Equatable, Sendable {
    public let programName: String
    /// The command words: `["enroll"]`, `["config", "check"]`.
    public let path: [String]
    /// The spec of the command that was selected.
    public let command: CommandSpec
    /// Positional arguments in order.
    public let positionals: [String]

    let globalOptions: [OptionSpec]
    let values: [String: [String]]
    let flagCounts: [String: Int]
    let environment: [String: String]

    init(
        programName: String, path: [String], command: CommandSpec, globalOptions: [OptionSpec],
        values: [String: [String]], flagCounts: [String: Int], positionals: [String], environment: [String: String]
    ) {
        self.programName = programName
        self.path = path
        self.command = command
        self.globalOptions = globalOptions
        self.values = values
        self.flagCounts = flagCounts
        self.positionals = positionals
        self.environment = environment
    }

    /// `See 'fpmod enroll --help'.` — for errors the caller raises about these values.
    public var hint: String { UsageError(.missingCommand(choices: []), programName: programName, commandPath: path).hint }

    // MARK: - Untyped

    /// The value of an option (the last one if repeated) or of a named positional argument.
    public func string(_ name: String) -> String? { resolve(name).values.last }

    /// All values of a repeatable option, or all positionals a repeating argument took.
    public func strings(_ name: String) -> [String] { resolve(name).values }

    /// The `index`-th positional argument.
    public func positional(_ index: Int) -> String? {
        positionals.indices.contains(index) ? positionals[index] : nil
    }

    /// Whether a flag is set on the command line or by its environment variable
    /// (`1`, `true`, `yes`, `on`; anything else, e.g. `0`, leaves it off).
    public func flag(_ name: String) -> Bool { flagCount(name) > 0 }

    /// How often a flag was given (`-vv` → 2); 1 if only its environment variable sets it.
    public func flagCount(_ name: String) -> Int {
        let option = spec(of: name)
        precondition(option?.kind == .flag, "'\(name)' is not a declared flag of '\(path.joined(separator: " "))'")
        if let count = flagCounts[name] { return count }
        if let variable = option?.environment, let value = environment[variable],
            ["1", "true", "yes", "on"].contains(value.lowercased())
        {
            return 1
        }
        return 0
    }

    /// Whether the option, flag or argument was given on the command line (not from environment or default).
    public func isExplicit(_ name: String) -> Bool {
        if let option = spec(of: name) { return option.kind == .flag ? flagCounts[name] != nil : values[name] != nil }
        return !resolve(name).values.isEmpty
    }

    /// The value or throws `missingValue`/`missingArgument` — for options without a default that a
    /// particular code path needs.
    public func require(_ name: String) throws(UsageError) -> String {
        if let value = string(name) { return value }
        if let option = spec(of: name) { throw usage(.missingValue(option: option.displayName)) }
        throw usage(.missingArgument("<\(name)>"))
    }

    // MARK: - Typed

    /// A decimal integer, optionally within `range`; nil if absent.
    public func int(_ name: String, range: ClosedRange<Int>? = nil) throws(UsageError) -> Int? {
        try typed(name, expected: range.map { "an integer from \($0.lowerBound) to \($0.upperBound)" } ?? "an integer") {
            guard let value = ValueParsing.int($0), range?.contains(value) ?? true else { return nil }
            return value
        }
    }

    /// A 32-bit hexadecimal value such as a module address or password (`0xFFFFFFFF`, `1234abcd`).
    public func hexUInt32(_ name: String) throws(UsageError) -> UInt32? {
        try typed(name, expected: "1 to 8 hexadecimal digits, e.g. 0xFFFFFFFF", ValueParsing.hexUInt32)
    }

    /// A duration such as `10s`, `500ms`, `1.5s`, `2m`.
    public func duration(_ name: String) throws(UsageError) -> Duration? {
        try typed(name, expected: "a duration such as 500ms, 10s, 2m", ValueParsing.duration)
    }

    /// One of an enum's raw values (`--profile r307|as608|r503`).
    public func choice<Choice: RawRepresentable & CaseIterable>(
        _ name: String, as type: Choice.Type
    ) throws(UsageError) -> Choice? where Choice.RawValue == String {
        try typed(name, expected: ArgumentParser.oneOf(Choice.allCases.map(\.rawValue)), Choice.init(rawValue:))
    }

    /// Applies `convert` to the resolved value; a nil result becomes an `invalidValue` error naming
    /// where the value came from (option, argument or environment variable).
    public func typed<Value>(
        _ name: String, expected: String, _ convert: (String) -> Value?
    ) throws(UsageError) -> Value? {
        let (values, subject) = resolve(name)
        guard let text = values.last else { return nil }
        guard let value = convert(text) else {
            throw usage(.invalidValue(subject: subject, value: text, expected: expected))
        }
        return value
    }

    /// Whether this command (or the program, globally) declares the option or flag `name`.
    public func declares(_ name: String) -> Bool { spec(of: name) != nil }

    // MARK: - Resolution

    private func spec(of name: String) -> OptionSpec? {
        command.options.first { $0.name == name } ?? globalOptions.first { $0.name == name }
    }

    /// The values for `name` and how to name their source in an error.
    private func resolve(_ name: String) -> (values: [String], subject: String) {
        if let option = spec(of: name) {
            if let given = values[name] { return (given, option.displayName) }
            if let variable = option.environment, let value = environment[variable], !value.isEmpty {
                return ([value], variable)
            }
            return (option.defaultValue.map { [$0] } ?? [], option.displayName)
        }
        guard let index = command.arguments.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("'\(name)' is not declared by '\(path.joined(separator: " "))' or globally")
        }
        let argument = command.arguments[index]
        let taken = argument.isRepeating ? Array(positionals.dropFirst(index)) : positional(index).map { [$0] } ?? []
        return (taken, "<\(argument.name)>")
    }

    private func usage(_ kind: UsageError.Kind) -> UsageError {
        UsageError(kind, programName: programName, commandPath: path)
    }
}
