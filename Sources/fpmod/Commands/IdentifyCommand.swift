import Administration
import ArgumentParsing

/// `fpmod identify`: 1:N over the occupied range; exit 0 on a match, 1 otherwise.
enum IdentifyCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        try AdminCommand.requireSimFinger(invocation)
        let (_, session, administrator) = try AdminCommand.open(invocation)
        defer { session.close() }
        invocation.progress("Place your finger")
        return AdminCommand.report(try administrator.identify(), invocation)
    }
}
