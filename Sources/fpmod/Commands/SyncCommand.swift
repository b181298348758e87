import Administration
import ArgumentParsing
import ReaderSessions

/// `fpmod sync`: make the module's library equal to the store; report each change.
enum SyncCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let (_, session, administrator) = try AdminCommand.open(invocation)
        defer { session.close() }
        let actions = try administrator.sync()
        let text = actions.isEmpty ? "The module already matches the store."
            : actions.map { "- \($0.description)" }.joined(separator: "\n")
        invocation.emit(text, json: ["changes": actions.jsonValue])
        return .ok
    }
}
