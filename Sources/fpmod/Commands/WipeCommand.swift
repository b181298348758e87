import Administration
import ArgumentParsing

/// `fpmod wipe --yes`: empty the module and delete every user.
enum WipeCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        guard invocation.parsed.flag("yes") else {
            throw CommandFailure(.usage, "wipe deletes every user and empties the module; confirm with --yes (make a backup first: fpmod backup FILE).")
        }
        let (_, session, administrator) = try AdminCommand.open(invocation)
        defer { session.close() }
        let count = try administrator.wipe()
        invocation.emit("Wiped: the module is empty and \(count) user(s) were removed.", json: ["usersRemoved": .int(Int64(count))])
        return .ok
    }
}
