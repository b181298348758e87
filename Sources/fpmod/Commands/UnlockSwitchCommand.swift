import ArgumentParsing

// PLACEHOLDER: replaced by the real command.
enum UnlockSwitchCommand {
    static func enable(_ invocation: Invocation) throws -> ExitCode { throw CommandFailure(.unavailable, "not built yet") }
    static func disable(_ invocation: Invocation) throws -> ExitCode { throw CommandFailure(.unavailable, "not built yet") }
}
