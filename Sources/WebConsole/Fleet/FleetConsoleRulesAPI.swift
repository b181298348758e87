import AccessPolicy
import Administration
import ConsoleHTTP
import HubStore
import JSONValue
import TemplateStore

/// Who may come in when, edited in the fleet console as `fpmod hub add-schedule|add-holiday|…`
/// edit it: weekly schedules, holidays, and a user's schedule. Every input is read and checked
/// (by the doors' own rules: `WeeklySchedule`, `HolidayRequest`, `RuleName`) before the hub's
/// database is written; each change is a revision every door follows, audited under the account.
extension FleetConsoleAPI {
    /// The longest schedule or hours text the hub keeps (`HubStore.putSchedule`).
    static let scheduleTextLimit = 2_000

    func schedules() throws(ConsoleFailure) -> HTTPResponse {
        let schedules = try read { () throws(HubStoreError) in try hub.schedules() }
        return Reply.json(["schedules": .array(schedules.map { schedule in
            .object(["name": .string(schedule.name), "text": .string(schedule.text), "users": .array(schedule.users.map(JSONValue.string))])
        })])
    }

    /// `{"name", "text"}`: a schedule every door follows, replacing one of that name.
    func putSchedule(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try Self.ruleName(try body.string("name"), of: "schedule")
        let text = try body.string("text")
        _ = try Self.weeklySchedule(text, what: "The schedule")
        let revision: Int64
        do { revision = try hub.putSchedule(name: name, text: text) } catch {
            if case .invalid(let problem) = error { throw ConsoleFailure.badRequest(AuthAPI.sentence(problem)) }
            throw Self.unavailable(error)
        }
        caller.audit(accounts, "schedule \(name) set to \(text) at revision \(revision)")
        return Reply.json(["schedule": .string(name), "text": .string(text), "revision": .int(revision)])
    }

    /// `{"name"}`: a schedule nobody has any more, gone from every door.
    func removeSchedule(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let name = try Self.name(try JSONBody(request).string("name"), of: "schedule")
        let revision: Int64?
        do { revision = try hub.deleteSchedule(named: name) } catch {
            if case .invalid(let problem) = error {
                throw ConsoleFailure(409, AuthAPI.sentence(problem), fix: "Give those users another schedule, or none, first.")
            }
            throw Self.unavailable(error)
        }
        guard let revision else { throw ConsoleFailure(404, "There is no schedule named \(name) on the hub.", fix: "The schedules are listed above.") }
        caller.audit(accounts, "schedule \(name) removed at revision \(revision)")
        return Reply.json(["schedule": .string(name), "revision": .int(revision)])
    }

    func holidays() throws(ConsoleFailure) -> HTTPResponse {
        let holidays = try read { () throws(HubStoreError) in try hub.holidays() }
        return Reply.json(["holidays": .array(holidays.map { holiday in
            let described = CivilDate(parsing: Substring(holiday.first)).flatMap { first in
                CivilDate(parsing: Substring(holiday.last)).map { AccessAdministration.describe(first: first, last: $0, yearly: holiday.yearly, hours: holiday.hours) }
            }
            return .object(["name": .string(holiday.name), "first": .string(holiday.first), "last": .string(holiday.last), "yearly": .bool(holiday.yearly),
                            "hours": holiday.hours.map(JSONValue.string) ?? .null,
                            "description": .string(described ?? "unreadable dates: remove it and add it again")])
        })])
    }

    /// `{"name", "date"}` or `{"name", "from", "until"}` (YYYY-MM-DD), `"yearly"`, and `"closed":
    /// true` or `"hours"`: a holiday every door follows, replacing one of that name.
    func putHoliday(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try Self.ruleName(try body.string("name"), of: "holiday")
        // The page sends every field; an empty one is one not given.
        func given(_ key: String) throws(ConsoleFailure) -> String? { try body.optionalString(key).flatMap { $0.isEmpty ? nil : $0 } }
        let date = try given("date"), from = try given("from"), until = try given("until"), hoursText = try given("hours")
        guard [date, from, until].allSatisfy({ ($0?.utf8.count ?? 0) <= 10 }), (hoursText?.utf8.count ?? 0) <= Self.scheduleTextLimit else {
            throw ConsoleFailure.badRequest("A day is YYYY-MM-DD; a holiday's hours are at most \(Self.scheduleTextLimit) bytes.")
        }
        let yearly = try body.bool("yearly", default: false), closed = try body.bool("closed", default: false)
        let holiday: HolidayRequest
        do { holiday = try HolidayRequest(date: date, from: from, until: until, yearly: yearly, closed: closed, hours: hoursText) } catch {
            throw Self.failure(error)
        }
        let hours = holiday.hours?.text
        let revision: Int64
        do { revision = try hub.putHoliday(name: name, first: holiday.first, last: holiday.last, yearly: holiday.yearly, hours: hours) } catch {
            if case .invalid(let problem) = error { throw ConsoleFailure.badRequest(AuthAPI.sentence(problem)) }
            throw Self.unavailable(error)
        }
        let described = AccessAdministration.describe(first: holiday.first, last: holiday.last, yearly: holiday.yearly, hours: hours)
        caller.audit(accounts, "holiday \(name) set to \(described) at revision \(revision)")
        return Reply.json(["holiday": .string(name), "description": .string(described), "revision": .int(revision)])
    }

    /// `{"name"}`: a holiday gone from every door.
    func removeHoliday(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let name = try Self.name(try JSONBody(request).string("name"), of: "holiday")
        let revision = try read { () throws(HubStoreError) in try hub.deleteHoliday(named: name) }
        guard let revision else { throw ConsoleFailure(404, "There is no holiday named \(name) on the hub.", fix: "The holidays are listed above.") }
        caller.audit(accounts, "holiday \(name) removed at revision \(revision)")
        return Reply.json(["holiday": .string(name), "revision": .int(revision)])
    }

    /// `{"user", "schedule"}` (`null` or `""`: none of their own): the schedule that user comes in by, at every door.
    func setUserSchedule(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let user = try Self.name(try body.string("user"), of: "user")
        guard body.has("schedule") else { throw ConsoleFailure.badRequest("\"schedule\" is missing.", fix: "Send a schedule's name, or null for none.") }
        let schedule = try body.optionalString("schedule").flatMap { $0.isEmpty ? nil : $0 }
        if let schedule { _ = try Self.ruleName(schedule, of: "schedule") }
        let revision: Int64?
        do { revision = try hub.setSchedule(ofUser: user, to: schedule) } catch {
            // The name was checked above: what is left to refuse is a schedule the hub lacks.
            if case .invalid = error, let schedule {
                throw ConsoleFailure(404, "There is no schedule named \(schedule) on the hub.", fix: "Add it under Schedules first.")
            }
            throw Self.unavailable(error)
        }
        guard let revision else { throw ConsoleFailure(404, "There is no user named \(user) on the hub.") }
        caller.audit(accounts, "user \(user) given \(schedule.map { "schedule \($0)" } ?? "no schedule") at revision \(revision)", user: user)
        return Reply.json(["user": .string(user), "schedule": schedule.map(JSONValue.string) ?? .null, "revision": .int(revision)])
    }

    /// A schedule's or holiday's name by the doors' rule (they refuse any other).
    static func ruleName(_ text: String, of kind: String) throws(ConsoleFailure) -> String {
        let bounded = try name(text, of: kind)
        do { return try RuleName(validating: bounded).text } catch {
            throw ConsoleFailure.badRequest(AuthAPI.sentence(error.description))
        }
    }

    /// `text` read as the doors read a weekly schedule.
    static func weeklySchedule(_ text: String, what: String) throws(ConsoleFailure) -> WeeklySchedule {
        guard !text.isEmpty, text.utf8.count <= scheduleTextLimit else {
            throw ConsoleFailure.badRequest("\(what) is 1 to \(scheduleTextLimit) bytes.", fix: "Write days and hours, e.g. mon-fri 07:00-19:00; sat 09:00-12:00.")
        }
        do { return try WeeklySchedule(parsing: text) } catch {
            throw ConsoleFailure.badRequest("\(what), column \(error.column): \(error.message).", fix: "Write days and hours, e.g. mon-fri 07:00-19:00; sat 09:00-12:00.")
        }
    }

    /// A holiday's problem in the form's words.
    static func failure(_ problem: HolidayRequest.Problem) -> ConsoleFailure {
        let dates = "Write YYYY-MM-DD (a day that exists), e.g. 2026-12-24."
        switch problem {
        case .notADate(let field, _):
            let which = ["date": "day", "from": "first day", "until": "last day"][field.rawValue] ?? field.rawValue
            return .badRequest("The holiday's \(which) is not a date.", fix: dates)
        case .noDays: return .badRequest("Say which days: a date for one day, or from and until for a range.")
        case .dateAndRange: return .badRequest("A date is one day, from and until a range: give one or the other.")
        case .halfRange: return .badRequest("A range needs both from and until.")
        case .days(let problem): return .badRequest(AuthAPI.sentence("the holiday's days: \(problem)"))
        case .closedOrHours:
            return .badRequest("Say what the doors do that day: closed (nobody with a schedule comes in), or hours such as daily 10:00-14:00 (those instead of their schedules).")
        case .hours(let error):
            return .badRequest("The holiday's hours, column \(error.column): \(error.message).", fix: "Write days and hours, e.g. daily 10:00-14:00.")
        }
    }
}
