import AccessPolicy
import TemplateStore

/// Who may enter when, changed by an admin: each change and its audit row in one transaction,
/// for every front end (the CLI today, the console next). The texts were checked where they
/// came in (`WeeklySchedule(parsing:)`, `RuleName`), before anything is written.
public enum AccessAdministration {
    public static func addSchedule(_ store: TemplateStore, name: RuleName, schedule: WeeklySchedule, replace: Bool) throws {
        try store.transaction {
            try store.addSchedule(name: name, schedule: schedule, replace: replace)
            try store.appendAudit(event: replace ? "schedule-set" : "schedule-added", detail: "schedule \(name): \(schedule.text)")
        }
    }

    public static func deleteSchedule(_ store: TemplateStore, name: String) throws {
        try store.transaction {
            try store.deleteSchedule(name: name)
            try store.appendAudit(event: "schedule-deleted", detail: "schedule \(name)")
        }
    }

    public static func addHoliday(_ store: TemplateStore, name: RuleName, first: CivilDate, last: CivilDate, yearly: Bool,
                                  hours: WeeklySchedule?) throws {
        try store.transaction {
            try store.addHoliday(name: name, first: first, last: last, yearly: yearly, hours: hours)
            try store.appendAudit(event: "holiday-added", detail: "holiday \(name): " + describe(first: first, last: last, yearly: yearly, hours: hours?.text))
        }
    }

    public static func deleteHoliday(_ store: TemplateStore, name: String) throws {
        try store.transaction {
            try store.deleteHoliday(name: name)
            try store.appendAudit(event: "holiday-deleted", detail: "holiday \(name)")
        }
    }

    /// Changes a user's rules; the audit row says what they are now, times on the door's clock
    /// (`moment` writes one).
    public static func setAccess(_ store: TemplateStore, user: String, schedule: AccessChange<String>? = nil,
                                 validFrom: AccessChange<Int64>? = nil, validUntil: AccessChange<Int64>? = nil,
                                 uses: AccessChange<Int>? = nil, moment: (Int64) -> String) throws -> UserAccess {
        try store.transaction {
            try store.setAccess(of: user, schedule: schedule, validFrom: validFrom, validUntil: validUntil, uses: uses)
            let now = try store.access(of: user)
            try store.appendAudit(event: "access-changed", user: user, detail: describe(now, moment: moment))
            return now
        }
    }

    /// `schedule "cleaning", valid until 2026-12-07 00:00 Europe/Berlin, 5 uses left`.
    public static func describe(_ access: UserAccess, moment: (Int64) -> String) -> String {
        let parts = [access.schedule.map { "schedule \"\($0)\"" }, access.validFrom.map { "valid from \(moment($0))" },
                     access.validUntil.map { "valid until \(moment($0))" }, access.usesLeft.map { "\($0) use\($0 == 1 ? "" : "s") left" }]
            .compactMap { $0 }
        return parts.isEmpty ? "no rules of their own (any time)" : parts.joined(separator: ", ")
    }

    /// `2026-12-24 to 2026-12-26, every year, closed`.
    public static func describe(first: CivilDate, last: CivilDate, yearly: Bool, hours: String?) -> String {
        let days: String
        if yearly {
            func monthDay(_ date: CivilDate) -> String { String(date.description.dropFirst(5)) }
            days = (first == last ? monthDay(first) : "\(monthDay(first)) to \(monthDay(last))") + ", every year"
        } else {
            days = first == last ? first.description : "\(first) to \(last)"
        }
        return days + ", " + (hours.map { "hours \($0)" } ?? "closed")
    }
}
