import Administration
import ArgumentParsing

/// `fpmod verify NAME`: 1:1 against that user's fingers; exit 0 on a match, 1 otherwise.
enum VerifyCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let name = try invocation.parsed.require("name")
        try AdminCommand.requireSimFinger(invocation)
        let (store, session, administrator) = try AdminCommand.open(invocation)
        defer { session.close() }
        try MatchPreflight.check(store, administrator, user: name)
        invocation.progress("Place your finger")
        return AdminCommand.report(try administrator.verify(user: name), invocation)
    }
}
