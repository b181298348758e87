import AccessPolicy
import Administration
import ArgumentParsing
import DoorLock
import Foundation
import JSONValue
import PrintableText
import TemplateStore

/// `fpmod schedule add|list|delete`, `fpmod holiday add|list|delete` and `fpmod user set`: who
/// may enter when, in the store (the running service reads a change at its next decision).
/// Every text is checked before the store is opened for writing; every change is audited.
enum AccessRuleCommands {
    // MARK: schedule

    static func addSchedule(_ invocation: Invocation) throws -> ExitCode {
        let name = try RuleName(validating: try invocation.parsed.require("name"))
        let schedule = try readSchedule(try invocation.parsed.require("text"), what: "schedule \"\(name)\"")
        let replace = invocation.parsed.flag("replace")
        try AccessAdministration.addSchedule(try invocation.openStore(), name: name, schedule: schedule, replace: replace)
        invocation.emit("\(replace ? "Set" : "Added") schedule \(name): \(schedule.text) (on the door's clock, \(invocation.doorTimeZone.name)).",
                        json: ["name": .string(name.text), "text": .string(schedule.text)])
        return .ok
    }

    static func listSchedules(_ invocation: Invocation) throws -> ExitCode {
        let store = try invocation.openStoreForReading()
        let schedules = try store.schedules()
        let users = try store.users().map(\.name)
        var usedBy: [String: [String]] = [:]
        for user in users { if let schedule = try store.access(of: user).schedule { usedBy[schedule, default: []].append(user) } }
        let lines = schedules.map { schedule in
            "\(Printable.escaped(schedule.name))  \(Printable.escaped(schedule.text))"
                + (usedBy[schedule.name].map { "  (\($0.map { Printable.escaped($0) }.joined(separator: ", ")))" } ?? "  (nobody)")
        }
        invocation.emit(lines.isEmpty ? "No schedules. Add one with: fpmod schedule add NAME 'mon-fri 07:00-19:00'" : lines.joined(separator: "\n"),
                        json: ["timeZone": .string(invocation.doorTimeZone.name),
                               "schedules": .array(schedules.map { schedule in
                                   ["name": .string(schedule.name), "text": .string(schedule.text),
                                    "users": .array((usedBy[schedule.name] ?? []).map(JSONValue.string))]
                               })])
        return .ok
    }

    static func deleteSchedule(_ invocation: Invocation) throws -> ExitCode {
        let name = try invocation.parsed.require("name")
        try AccessAdministration.deleteSchedule(try invocation.openStore(), name: name)
        invocation.emit("Deleted schedule \(Printable.escaped(name)).", json: ["name": .string(name), "deleted": true])
        return .ok
    }

    // MARK: holiday

    /// A holiday as `holiday add` and `hub add-holiday` take it, every part checked.
    static func holidayRequest(_ parsed: ParsedCommand) throws -> (name: RuleName, first: CivilDate, last: CivilDate, yearly: Bool, hours: WeeklySchedule?) {
        let name = try RuleName(validating: try parsed.require("name"))
        let request: HolidayRequest
        do {
            request = try HolidayRequest(date: parsed.string("date"), from: parsed.string("from"), until: parsed.string("until"),
                                         yearly: parsed.flag("yearly"), closed: parsed.flag("closed"), hours: parsed.string("hours"))
        } catch {
            throw CommandFailure(.usage, holidayProblem(error))
        }
        return (name, request.first, request.last, request.yearly, request.hours)
    }

    /// A holiday's problem in the options' words.
    static func holidayProblem(_ problem: HolidayRequest.Problem) -> String {
        switch problem {
        case .notADate(let field, let text): notADate(text, option: "--" + field.rawValue)
        case .noDays: "Say which days: --date YYYY-MM-DD for one day, or --from YYYY-MM-DD --until YYYY-MM-DD."
        case .dateAndRange: "--date is one day; --from and --until a range: give one or the other."
        case .halfRange: "A range needs both --from and --until."
        case .days(let problem): "The holiday's days: \(problem) (--from, --until)."
        case .closedOrHours:
            "Say what the door does that day: --closed (nobody with a schedule comes in) or --hours 'daily 10:00-14:00' (those hours instead of their schedules)."
        case .hours(let error): scheduleProblem(error, what: "--hours")
        }
    }

    static func addHoliday(_ invocation: Invocation) throws -> ExitCode {
        let (name, first, last, yearly, hours) = try holidayRequest(invocation.parsed)
        try AccessAdministration.addHoliday(try invocation.openStore(), name: name, first: first, last: last, yearly: yearly, hours: hours)
        let described = AccessAdministration.describe(first: first, last: last, yearly: yearly, hours: hours?.text)
        invocation.emit("Added holiday \(name): \(described).",
                        json: ["name": .string(name.text), "first": .string(first.description), "last": .string(last.description),
                               "yearly": .bool(yearly), "hours": hours.map { .string($0.text) } ?? .null])
        return .ok
    }

    static func listHolidays(_ invocation: Invocation) throws -> ExitCode {
        let holidays = try invocation.openStoreForReading().holidays()
        let lines = holidays.map { holiday -> String in
            let described = CivilDate(parsing: Substring(holiday.first)).flatMap { first in
                CivilDate(parsing: Substring(holiday.last)).map { AccessAdministration.describe(first: first, last: $0, yearly: holiday.yearly, hours: holiday.hours) }
            } ?? "unreadable dates: delete it and add it again"
            return "\(Printable.escaped(holiday.name))  \(Printable.escaped(described))"
        }
        invocation.emit(lines.isEmpty ? "No holidays. Add one with: fpmod holiday add NAME --date YYYY-MM-DD --closed" : lines.joined(separator: "\n"),
                        json: ["holidays": .array(holidays.map { holiday in
                            ["name": .string(holiday.name), "first": .string(holiday.first), "last": .string(holiday.last),
                             "yearly": .bool(holiday.yearly), "hours": holiday.hours.map(JSONValue.string) ?? .null]
                        })])
        return .ok
    }

    static func deleteHoliday(_ invocation: Invocation) throws -> ExitCode {
        let name = try invocation.parsed.require("name")
        try AccessAdministration.deleteHoliday(try invocation.openStore(), name: name)
        invocation.emit("Deleted holiday \(Printable.escaped(name)).", json: ["name": .string(name), "deleted": true])
        return .ok
    }

    // MARK: user set

    static func setUser(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        let name = try parsed.require("name")
        let zone = invocation.doorTimeZone
        func pair<T>(_ set: T?, clear: String, _ option: String) throws -> AccessChange<T>? {
            if set != nil && parsed.flag(clear) { throw CommandFailure(.usage, "--\(option) and --\(clear) contradict each other; give one.") }
            if let set { return .set(set) }
            return parsed.flag(clear) ? .clear : nil
        }
        if let schedule = parsed.string("schedule") { _ = try RuleName(validating: schedule) }
        let schedule = try pair(parsed.string("schedule"), clear: "no-schedule", "schedule")
        let from = try parsed.string("valid-from").map { try readMoment($0, option: "--valid-from", zone: zone, endOfDay: false) }
        let validFrom = try pair(from, clear: "no-valid-from", "valid-from")
        let until = try parsed.string("valid-until").map { try readMoment($0, option: "--valid-until", zone: zone, endOfDay: true) }
        let validUntil = try pair(until, clear: "no-valid-until", "valid-until")
        let uses = try pair(try parsed.int("uses", range: 0...1_000_000), clear: "unlimited-uses", "uses")
        guard schedule != nil || validFrom != nil || validUntil != nil || uses != nil else {
            throw CommandFailure(.usage, "Nothing to set: give --schedule NAME, --valid-from WHEN, --valid-until WHEN or --uses N (or one of the --no-… options).")
        }
        let store = try invocation.openStore()
        let access = try AccessAdministration.setAccess(store, user: name, schedule: schedule, validFrom: validFrom, validUntil: validUntil,
                                                        uses: uses, moment: zone.wallClockText(atUTC:))
        var json: [String: JSONValue] = ["user": .string(name), "access": access.jsonValue, "timeZone": .string(zone.name)]
        let standing = access.standing(atUTC: Int64(Date().timeIntervalSince1970))
        if let standing { json["standing"] = .string(standing.rawValue) }
        invocation.emit("\(Printable.escaped(name)): \(AccessAdministration.describe(access, moment: zone.wallClockText(atUTC:)))"
                        + (standing.map { " (\($0.rawValue) now)" } ?? "") + ".", json: .object(json))
        return .ok
    }

    // MARK: Reading what the admin typed

    static func readSchedule(_ text: String, what: String) throws -> WeeklySchedule {
        do { return try WeeklySchedule(parsing: text) } catch {
            throw CommandFailure(.usage, scheduleProblem(error, what: what))
        }
    }

    static func scheduleProblem(_ error: WeeklySchedule.ParseError, what: String) -> String {
        "\(what), column \(error.column): \(error.message). Nothing was changed."
    }

    static func notADate(_ text: String, option: String) -> String {
        "\(option) \"\(Printable.escaped(text))\" is not a date; write YYYY-MM-DD (a day that exists), e.g. 2026-12-24."
    }

    /// `YYYY-MM-DD` (from its start; with `endOfDay`, through its end) or `YYYY-MM-DD HH:MM`, on
    /// the door's clock.
    static func readMoment(_ text: String, option: String, zone: TimeZoneRules, endOfDay: Bool) throws -> Int64 {
        guard let moment = ValidityBounds.moment(text, in: zone, endOfDay: endOfDay) else {
            throw CommandFailure(.usage, "\(option) \"\(Printable.escaped(text))\" is not a day or time; write \(ValidityBounds.howToWrite(in: zone)).")
        }
        return moment
    }
}
