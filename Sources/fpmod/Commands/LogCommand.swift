import AccessPolicy
import ArgumentParsing
import DoorLock
import Foundation
import PrintableText
import TemplateStore

/// `fpmod log [--limit N] [--since WHEN] [--until WHEN] [--user NAME]`: the audit log, oldest
/// first; with `--who`, who was let in (`EntryReport`), as text, `--json` or `--csv`.
enum LogCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        if let action = invocation.parsed.string("action") {
            guard action == "verify" else { throw CommandFailure(.usage, "fpmod log takes `verify` or nothing; got '\(Printable.escaped(action))'.") }
            return try LogVerifyCommand.run(invocation)
        }
        if invocation.parsed.isExplicit("head") { throw CommandFailure(.usage, "--head belongs to `fpmod log verify`.") }
        let limit = try invocation.parsed.int("limit", range: 1...100_000) ?? (invocation.parsed.flag("who") ? 10_000 : 50)
        let zone = invocation.doorTimeZone
        let door = try invocation.servedDoor()
        if invocation.parsed.flag("csv") && invocation.json {
            throw CommandFailure(.usage, "--csv and --json are two ways to print the same rows; choose one.")
        }
        let period = try period(invocation, zone: zone)
        let user = invocation.parsed.string("user")
        let store = try invocation.openStoreForReading()
        if invocation.parsed.flag("who") {
            let report = try EntryReport.read(store: store, door: door, timeZone: zone, since: period.since ?? Int64.min / 2,
                                              until: period.until ?? Int64.max / 2, user: user, limit: limit)
            return printReport(report, invocation)
        }
        if invocation.parsed.flag("csv") { throw CommandFailure(.usage, "--csv is for the report of who came in: add --who.") }
        let entries = period.since == nil && period.until == nil && user == nil
            ? try store.auditEntries(limit: limit)
            : try store.auditEntries(from: Date(timeIntervalSince1970: TimeInterval(period.since ?? Int64.min / 2)),
                                     to: Date(timeIntervalSince1970: TimeInterval(period.until ?? Int64.max / 2)),
                                     user: user, limit: limit, newest: true)
        let formatter = ISO8601DateFormatter()
        // Each field escaped on its own: a name or detail with a line break stays on its entry's line.
        let lines = entries.map { entry in
            [formatter.string(from: entry.time), entry.event, entry.user, entry.slot.map { "slot \($0)" },
             entry.score.map { "score \($0)" }, entry.latencyJSON, entry.detail].compactMap { $0.map { Printable.escaped($0) } }
                .joined(separator: "  ")
        }
        invocation.emit(lines.isEmpty ? "The audit log is empty." : lines.joined(separator: "\n"),
                        json: ["entries": .array(entries.map { entry in
                            var object: [String: JSONValue] = ["id": .int(entry.id), "time": .string(formatter.string(from: entry.time)),
                                                               "event": .string(entry.event)]
                            if let user = entry.user { object["user"] = .string(user) }
                            if let slot = entry.slot { object["slot"] = .int(Int64(slot)) }
                            if let score = entry.score { object["score"] = .int(Int64(score)) }
                            if let latency = entry.latencyJSON { object["latency"] = .string(latency) }
                            if let detail = entry.detail { object["detail"] = .string(detail) }
                            return .object(object)
                        })])
        return .ok
    }

    /// `--since` and `--until` on the door's clock: a day from its start, until a day through
    /// its end (`--since tuesday --until tuesday` is all of Tuesday).
    static func period(_ invocation: Invocation, zone: TimeZoneRules) throws -> (since: Int64?, until: Int64?) {
        let today = zone.localTime(atUTC: Int64(Date().timeIntervalSince1970)).date
        func read(_ option: String) throws -> ReportMoment? {
            guard let text = invocation.parsed.string(option) else { return nil }
            guard let moment = ReportMoment(parsing: text, today: today) else {
                throw CommandFailure(.usage, "--\(option) \"\(Printable.escaped(text))\" is not a day or time; write YYYY-MM-DD, 'YYYY-MM-DD HH:MM', today, yesterday or a weekday such as tuesday (on the door's clock, \(zone.name))")
            }
            return moment
        }
        let since = try read("since")?.start(in: zone)
        let until = try read("until")?.end(in: zone)
        if let since, let until, until <= since {
            throw CommandFailure(.usage, "--until is not after --since; the period would be empty (swap them?)")
        }
        return (since, until)
    }

    static func printReport(_ report: EntryReport, _ invocation: Invocation) -> ExitCode {
        if invocation.parsed.flag("csv") {
            // A spreadsheet reads the text as it is; CSV quoting keeps each field in its cell.
            StandardStreams.writeOutput(lines: report.csvLines, ending: "\r\n")
            return .ok
        }
        let formatter = ISO8601DateFormatter()
        let lines = report.entries.map { entry in
            "\(entry.local)  \(Printable.escaped(entry.user))  \(Printable.escaped(entry.how))"
        }
        let header = "Who was let in at \(Printable.escaped(report.door)) (times in \(report.timeZone.name)):"
        let more = report.truncated ? "\n(only the first \(report.entries.count); narrow the period or raise --limit)" : ""
        invocation.emit(lines.isEmpty ? "Nobody was let in at \(Printable.escaped(report.door)) in that period." : header + "\n" + lines.joined(separator: "\n") + more,
                        json: .object([
                            "door": .string(report.door), "timeZone": .string(report.timeZone.name), "truncated": .bool(report.truncated),
                            "entries": .array(report.entries.map { entry in
                                var object: [String: JSONValue] = ["time": .string(entry.local.description), "utc": .string(formatter.string(from: entry.utc)),
                                                                   "user": .string(entry.user), "how": .string(entry.how)]
                                if let side = entry.side { object["side"] = .string(side) }
                                return .object(object)
                            }),
                        ]))
        return .ok
    }
}
