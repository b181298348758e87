import ArgumentParsing
import HubStore
import JSONValue

/// `fpmod hub …`: the fleet hub, whose truth is a PostgreSQL database (`HubStore`).
enum HubCommand {
    /// `fpmod hub migrate --database CONNINFO`: brings the hub's database to this fpmod's
    /// schema, one migration per transaction; run again it changes nothing. A database a newer
    /// fpmod migrated is refused untouched.
    static func migrate(_ invocation: Invocation) throws -> ExitCode {
        let conninfo = try invocation.parsed.require("database")
        let (from, to) = try HubStore.migrate(conninfo: conninfo)
        let text = from == to
            ? "The hub's database is at schema version \(to) already; nothing changed."
            : "The hub's database went from schema version \(from) to \(to)."
        invocation.emit(text, json: ["from": .int(Int64(from)), "to": .int(Int64(to))])
        return .ok
    }
}
