import Administration
import ArgumentParsing

/// `fpmod wipe --yes`: empty the reader's library and delete every user.
enum WipeCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        guard invocation.parsed.flag("yes") else {
            throw CommandFailure(.usage, "wipe deletes every user and empties the module; confirm with --yes (make a backup first: fpmod backup FILE).")
        }
        let (store, session) = try AdminCommand.openReader(invocation)
        defer { session.close() }
        let count: Int
        let emptied: String
        if let administrator = session.administrator {
            count = try administrator.wipe()
            emptied = "the module is empty"
        } else {
            // The host library is the store's: deleting each user (each delete crash-safe on
            // its own) empties it, with the audit rows every delete leaves.
            let users = try store.users()
            for user in users { try session.reader.delete(user: user.name, label: nil) }
            count = users.count
            emptied = "the host library is empty"
        }
        invocation.emit("Wiped: \(emptied) and \(count) user(s) were removed.", json: ["usersRemoved": .int(Int64(count))])
        return .ok
    }
}
