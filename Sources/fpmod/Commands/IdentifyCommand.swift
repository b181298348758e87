import Administration
import ArgumentParsing

/// `fpmod identify`: 1:N over the occupied range; exit 0 on a match, 1 otherwise.
enum IdentifyCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        try AdminCommand.requireSimFinger(invocation)
        let (store, session, administrator) = try AdminCommand.open(invocation)
        defer { session.close() }
        try MatchPreflight.check(store, administrator, user: nil)
        if try store.allFingers().isEmpty { return AdminCommand.report(.nothingEnrolled, invocation) }
        invocation.progress("Place your finger")
        return AdminCommand.report(try administrator.identify(), invocation)
    }
}
