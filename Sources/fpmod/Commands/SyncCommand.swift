import ArgumentParsing

// PLACEHOLDER: replaced by the real command.
enum SyncCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        throw CommandFailure(.unavailable, "'\(invocation.parsed.path.joined(separator: " "))' is not built yet.")
    }
}
