import ArgumentParsing

/// `fpmod setup [--defaults]`: the first-run guide (Setup/SetupGuide.swift). Enter accepts each
/// default; --defaults, or answers piped on stdin, make it scriptable.
enum SetupCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        var guide = SetupGuide(invocation: invocation, prompter: SetupPrompter(acceptDefaults: invocation.parsed.flag("defaults")))
        try guide.run()
        return .ok
    }
}
