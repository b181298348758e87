// Which environment variables a program reads in place of options: the ENVIRONMENT section
// of the man page.

/// One option that falls back to an environment variable, and the commands declaring it
/// (none: a global option). The same option of several commands is one use.
struct EnvironmentUse: Equatable {
    var variable: String
    var option: OptionSpec
    var commands: [String]

    /// In the order of the spec: global options first, then each command's.
    static func collect(_ program: ProgramSpec) -> [EnvironmentUse] {
        var uses: [EnvironmentUse] = []
        func add(_ options: [OptionSpec], command: String?) {
            for option in options {
                guard let variable = option.environment else { continue }
                if let index = uses.firstIndex(where: { $0.variable == variable && $0.option == option }) {
                    if let command { uses[index].commands.append(command) }
                } else {
                    uses.append(EnvironmentUse(variable: variable, option: option, commands: command.map { [$0] } ?? []))
                }
            }
        }
        add(program.globalOptions, command: nil)
        func walk(_ command: CommandSpec, path: [String]) {
            add(command.options, command: path.joined(separator: " "))
            for sub in command.subcommands { walk(sub, path: path + [sub.name]) }
        }
        for command in program.commands { walk(command, path: [command.name]) }
        return uses
    }
}
