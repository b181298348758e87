import AccessPolicy
import Foundation
import TemplateStore

/// "Who came in on Tuesday": the grants of the audit log (the policy writes one `granted` row
/// per person let in by a credential, after any use was taken) in a period of the door's wall
/// clock, as text, JSON or CSV for a spreadsheet. Shared by `fpmod log --who` and the front
/// ends to come.
public struct EntryReport: Sendable {
    public struct Entry: Sendable, Equatable {
        public var utc: Date
        public var local: LocalTime
        public var user: String
        /// How and where, as the policy wrote it (`fingerprint at the entry reader`).
        public var how: String
        /// `entry` or `exit` when the row says, else nil.
        public var side: String?
    }

    public var door: String
    public var timeZone: TimeZoneRules
    public var entries: [Entry]
    /// More rows matched than the limit allowed.
    public var truncated: Bool

    /// The audit event a report reads.
    public static let grantEvent = "granted"

    /// The grants from `since` to `until` (UTC seconds; `until` exclusive), of `user` only when
    /// given, the oldest `limit`.
    public static func read(store: TemplateStore, door: String, timeZone: TimeZoneRules, since: Int64, until: Int64,
                            user: String?, limit: Int) throws -> EntryReport {
        let rows = try store.auditEntries(from: Date(timeIntervalSince1970: TimeInterval(since)),
                                          to: Date(timeIntervalSince1970: TimeInterval(until)), events: [grantEvent],
                                          user: user, limit: limit + 1)
        let entries = rows.prefix(limit).map { row in
            let detail = row.detail ?? ""
            let side = detail.contains("the exit reader") ? "exit" : detail.contains("the entry reader") ? "entry" : nil
            return Entry(utc: row.time, local: timeZone.localTime(atUTC: Int64(row.time.timeIntervalSince1970.rounded(.down))),
                         user: row.user ?? "", how: detail, side: side)
        }
        return EntryReport(door: door, timeZone: timeZone, entries: Array(entries), truncated: rows.count > limit)
    }

    /// RFC 4180 CSV with a header row; a field with a comma, quote or line break is quoted, and
    /// one starting with = + - @ gets a leading apostrophe so a spreadsheet never runs it as a
    /// formula (a user name is the admin's text, but a report travels).
    public var csv: String { csvLines.map { $0 + "\r\n" }.joined() }

    /// The CSV's records, without their CRLF.
    public var csvLines: [String] {
        var lines = ["time,utc,time_zone,door,user,side,how"]
        let formatter = ISO8601DateFormatter()
        for entry in entries {
            lines.append([entry.local.description, formatter.string(from: entry.utc), timeZone.name, door, entry.user,
                          entry.side ?? "", entry.how].map(Self.csvField).joined(separator: ","))
        }
        return lines
    }

    public static func csvField(_ text: String) -> String {
        var field = text
        if let first = field.first, "=+-@\t\r".contains(first) { field = "'" + field }
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A day or moment as an admin names it for a report, on the door's clock: `YYYY-MM-DD`,
/// `YYYY-MM-DD HH:MM`, `today`, `yesterday`, or a weekday (`tuesday`, `tue`: the latest one,
/// today included).
public struct ReportMoment: Sendable, Equatable {
    public var date: CivilDate
    /// nil: the whole day.
    public var minuteOfDay: Int?

    public init?(parsing text: String, today: CivilDate) {
        let word = text.lowercased()
        if let (date, minute) = LocalTime.parse(text) {
            self.date = date
            minuteOfDay = minute
            return
        }
        minuteOfDay = nil
        if let date = CivilDate(parsing: Substring(text)) { self.date = date; return }
        if word == "today" { date = today; return }
        if word == "yesterday" { date = today.adding(days: -1); return }
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        guard let weekday = names.firstIndex(where: { $0 == word || (word.count >= 3 && $0.hasPrefix(word)) }) else { return nil }
        date = today.adding(days: -((today.weekday - weekday + 7) % 7))
    }

    /// The first moment it names (a day: its first minute that happens).
    public func start(in zone: TimeZoneRules) -> Int64 { zone.firstUTCSeconds(forLocal: date, minuteOfDay: minuteOfDay ?? 0) }

    /// The moment a period ending with it ends (exclusive): a day ends at the next day's start.
    public func end(in zone: TimeZoneRules) -> Int64 {
        minuteOfDay.map { zone.firstUTCSeconds(forLocal: date, minuteOfDay: $0) } ?? zone.firstUTCSeconds(forLocal: date.adding(days: 1), minuteOfDay: 0)
    }
}
