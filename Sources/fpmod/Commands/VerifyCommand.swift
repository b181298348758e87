import Administration
import ArgumentParsing

/// `fpmod verify NAME`: 1:1 against that user's fingers; exit 0 on a match, 1 otherwise.
enum VerifyCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let name = try invocation.parsed.require("name")
        try AdminCommand.requireSimFinger(invocation)
        let (store, session) = try AdminCommand.openReader(invocation)
        defer { session.close() }
        try MatchPreflight.check(store, session.reader, user: name)
        invocation.progress("Place your finger")
        return AdminCommand.report(try session.reader.verify(user: name), invocation)
    }
}
