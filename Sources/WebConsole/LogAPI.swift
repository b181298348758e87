import AccessPolicy
import ConsoleHTTP
import DoorLock
import Foundation
import JSONValue
import TemplateStore

/// `/api/v1/log` and `/api/v1/log.csv`: the audit log, filtered, newest first, a page at a time.
struct LogAPI {
    let context: ConsoleContext

    struct Filter {
        var user: String?
        var kind: String?
        var since: Int64?
        var until: Int64?
        var before: Int64?
        var limit: Int
    }

    func filter(_ request: HTTPRequest, maximum: Int) throws(ConsoleFailure) -> Filter {
        func text(_ name: String) -> String? {
            guard let value = request.queryValue(name), !value.isEmpty else { return nil }
            return value
        }
        let zone = context.timeZone
        let today = zone.localTime(atUTC: Int64(Date().timeIntervalSince1970)).date
        func moment(_ name: String) throws(ConsoleFailure) -> ReportMoment? {
            guard let value = text(name) else { return nil }
            guard let moment = ReportMoment(parsing: value, today: today) else {
                throw ConsoleFailure.badRequest("\"\(name)\" is not a day or time.",
                                                fix: "Write YYYY-MM-DD, 'YYYY-MM-DD HH:MM', today, yesterday or a weekday, on the door's clock (\(zone.name)).")
            }
            return moment
        }
        var filter = Filter(user: text("user"), kind: text("kind"), limit: 100)
        filter.since = try moment("since")?.start(in: zone)
        filter.until = try moment("until")?.end(in: zone)
        if let since = filter.since, let until = filter.until, until <= since {
            throw ConsoleFailure.badRequest("\"until\" is not after \"since\"; the period would be empty.")
        }
        if let before = text("before") {
            guard let id = Int64(before), id > 0 else { throw ConsoleFailure.badRequest("\"before\" must be an entry's id.") }
            filter.before = id
        }
        if let limit = text("limit") {
            guard let count = Int(limit), (1...maximum).contains(count) else {
                throw ConsoleFailure.badRequest("\"limit\" must be a whole number from 1 to \(maximum).")
            }
            filter.limit = count
        }
        for (name, value) in [("user", filter.user), ("kind", filter.kind)] where (value?.utf8.count ?? 0) > 200 {
            throw ConsoleFailure.badRequest("\"\(name)\" is too long (200 bytes at most).")
        }
        return filter
    }

    func page(_ filter: Filter) throws(ConsoleFailure) -> (entries: [AuditEntry], more: Bool) {
        do {
            return try context.store.auditPage(beforeID: filter.before, from: filter.since.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                                               to: filter.until.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                                               event: filter.kind, user: filter.user, limit: filter.limit)
        } catch {
            throw ConsoleFailure(500, "The audit log could not be read: \(error)")
        }
    }

    func entries(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        let page = try page(try filter(request, maximum: 500))
        let zone = context.timeZone
        return Reply.json(["entries": .array(page.entries.map { entry in
            var object: [String: JSONValue] = [
                "id": .int(entry.id), "at": .string(zone.wallClockText(atUTC: Int64(entry.time.timeIntervalSince1970))),
                "utc": .string(ISO8601DateFormatter().string(from: entry.time)), "kind": .string(entry.event),
                "user": JSONValue(entry.user), "detail": JSONValue(entry.detail),
            ]
            if let slot = entry.slot { object["slot"] = .int(Int64(slot)) }
            if let score = entry.score { object["score"] = .int(Int64(score)) }
            return .object(object)
        }), "next": page.more ? page.entries.last.map { .int($0.id) } ?? .null : .null, "timeZone": .string(zone.name)])
    }

    /// RFC 4180 with CRLF, each field formula-safe (`EntryReport.csvField`), as a download.
    func csv(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        let filter = try filter(request, maximum: 100_000)
        var limited = filter
        limited.limit = request.queryValue("limit") == nil ? 100_000 : filter.limit
        let page = try page(limited)
        let zone = context.timeZone
        let formatter = ISO8601DateFormatter()
        var lines = ["id,time,utc,time_zone,event,user,slot,score,detail"]
        for entry in page.entries {
            let fields = [String(entry.id), zone.wallClockText(atUTC: Int64(entry.time.timeIntervalSince1970)), formatter.string(from: entry.time),
                          zone.name, entry.event, entry.user ?? "", entry.slot.map(String.init) ?? "", entry.score.map(String.init) ?? "",
                          entry.detail ?? ""]
            lines.append(fields.map(EntryReport.csvField).joined(separator: ","))
        }
        let text = lines.map { $0 + "\r\n" }.joined()
        return HTTPResponse(status: 200, contentType: "text/csv; charset=utf-8", text: text,
                            headers: [("Content-Disposition", "attachment; filename=\"fpmod-log.csv\"")])
    }
}
