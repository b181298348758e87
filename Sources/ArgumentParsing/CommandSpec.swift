// The declaration of a command and of the whole program.

/// One command (`enroll`) or command group (`config`, with subcommand `check`).
public struct CommandSpec: Equatable, Sendable {
    public var name: String
    /// One line for command lists and the OVERVIEW of its help.
    public var abstract: String
    /// Longer text for its help page; paragraphs separated by blank lines.
    public var discussion: String
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    /// Non-empty for a group: the group itself then needs one of them (`fpmod config check`).
    public var subcommands: [CommandSpec]

    public init(
        name: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], subcommands: [CommandSpec] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
    }

    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}

/// The whole program: name, global options and commands. `-h/--help` and (if `version` is set)
/// `--version` are added by the parser; do not declare them.
public struct ProgramSpec: Equatable, Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String
    /// Printed by `--version`; nil means no `--version` option.
    public var version: String?
    /// Accepted before or after the command name.
    public var globalOptions: [OptionSpec]
    public var commands: [CommandSpec]

    public init(
        name: String, abstract: String, discussion: String = "", version: String? = nil,
        globalOptions: [OptionSpec] = [], commands: [CommandSpec]
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.version = version
        self.globalOptions = globalOptions
        self.commands = commands
    }

    /// Global options including the built-in `--help` and `--version`.
    var effectiveGlobalOptions: [OptionSpec] {
        var options = globalOptions
        options.append(.flag("help", short: "h", help: "Show help information."))
        if version != nil { options.append(.flag("version", help: "Show the version.")) }
        return options
    }

    /// The command at `path`, or nil if any part of it does not exist.
    public func command(at path: [String]) -> CommandSpec? {
        guard let first = path.first, var command = commands.first(where: { $0.name == first }) else { return nil }
        for name in path.dropFirst() {
            guard let next = command.subcommand(named: name) else { return nil }
            command = next
        }
        return command
    }
}
