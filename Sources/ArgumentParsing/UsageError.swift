// Command-line mistakes, worded like swift-argument-parser's so they feel familiar, each followed
// by a hint pointing at the help of the command that was being parsed. What the user typed is
// quoted through `Printable`: a pasted escape sequence is shown, not run.

import PrintableText

/// A mistake on the command line. Always exits with `ExitCode.usage` (64).
public struct UsageError: CLIError, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Equatable, Sendable {
        /// An option no command or global option declares, with the closest declared one.
        case unknownOption(String, suggestion: String?)
        /// An option that needs a value came last or before `--`.
        case missingValue(option: String)
        /// A required positional argument was not given.
        case missingArgument(String)
        /// More positional arguments than the command takes.
        case unexpectedArgument(String)
        /// A value that does not parse or is out of range; `subject` names the option, argument or
        /// environment variable, `expected` says what would be accepted.
        case invalidValue(subject: String, value: String, expected: String)
        /// A command or subcommand that does not exist, with the closest one.
        case unknownCommand(String, suggestion: String?)
        /// No command was given (or a command group such as `config` without its subcommand).
        case missingCommand(choices: [String])
        /// An option that takes one value was given twice.
        case duplicateOption(String)
        /// `--flag=value` for a flag that takes no value.
        case flagWithValue(String)
    }

    public let kind: Kind
    /// The program name, e.g. `fpmod`.
    public let programName: String
    /// The command being parsed when the error happened, e.g. `["config", "check"]`; empty at top level.
    public let commandPath: [String]

    public init(_ kind: Kind, programName: String, commandPath: [String]) {
        self.kind = kind
        self.programName = programName
        self.commandPath = commandPath
    }

    public var exitCode: ExitCode { .usage }

    /// The error itself, one line, e.g. `Unknown option '--fingr'. Did you mean '--finger'?`
    public var summary: String {
        switch kind {
        case let .unknownOption(option, suggestion):
            return "Unknown option '\(Printable.escaped(option))'." + Self.didYouMean(suggestion)
        case let .missingValue(option):
            return "Missing value for '\(option)'."
        case let .missingArgument(name):
            return "Missing expected argument '\(name)'."
        case let .unexpectedArgument(argument):
            return "Unexpected argument '\(Printable.escaped(argument))'."
        case let .invalidValue(subject, value, expected):
            return "The value '\(Printable.escaped(value))' is invalid for '\(subject)': expected \(expected)."
        case let .unknownCommand(command, suggestion):
            return "Unknown command '\(Printable.escaped(command))'." + Self.didYouMean(suggestion)
        case let .missingCommand(choices):
            let what = commandPath.isEmpty ? "a command" : "a subcommand of '\(commandPath.joined(separator: " "))'"
            return "Missing \(what)" + (choices.isEmpty ? "." : ": one of \(choices.joined(separator: ", ")).")
        case let .duplicateOption(option):
            return "Option '\(Printable.escaped(option))' was given more than once; give it once."
        case let .flagWithValue(flag):
            return "Flag '\(Printable.escaped(flag))' does not take a value."
        }
    }

    /// Where to read on, e.g. `See 'fpmod enroll --help'.`
    public var hint: String {
        commandPath.isEmpty
            ? "See '\(programName) --help'."
            : "See '\(programName) \(commandPath.joined(separator: " ")) --help'."
    }

    /// Summary and hint on two lines.
    public var message: String { summary + "\n" + hint }

    /// As printed on stderr: `Error: <summary>` then the hint.
    public var description: String { "Error: " + message }

    private static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { " Did you mean '\($0)'?" } ?? ""
    }
}
