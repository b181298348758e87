/// Who may enter when: a user's schedule, validity and remaining uses, judged at a moment on
/// the door's wall clock, with the holidays. Pure: the caller gives the rules and the moment.
/// Every refusal says which rule refused, for the audit log, the events and `access explain`;
/// the person at the door hears only "not now".

/// What a user's own access rules say (all optional: a user without any may enter at any time).
public struct UserAccess: Hashable, Sendable {
    /// The name of a schedule of the door's calendar.
    public var schedule: String?
    /// UTC seconds; before it the user may not enter yet.
    public var validFrom: Int64?
    /// UTC seconds; from it on the user may not enter any more.
    public var validUntil: Int64?
    /// Grants left; nil: unlimited. Each grant uses one (the store counts, atomically with it).
    public var usesLeft: Int?

    public init(schedule: String? = nil, validFrom: Int64? = nil, validUntil: Int64? = nil, usesLeft: Int? = nil) {
        self.schedule = schedule
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.usesLeft = usesLeft
    }
}

/// The door's schedules, holidays and time zone.
public struct AccessCalendar: Sendable, Equatable {
    public var timeZone: TimeZoneRules
    public var schedules: [String: WeeklySchedule]
    public var holidays: [Holiday]

    public init(timeZone: TimeZoneRules = .utc, schedules: [String: WeeklySchedule] = [:], holidays: [Holiday] = []) {
        self.timeZone = timeZone
        self.schedules = schedules
        self.holidays = holidays
    }
}

public enum AccessVerdict: Hashable, Sendable, CustomStringConvertible {
    /// Let in, and by which rule (`no schedule`, `schedule "cleaning" (tue 08:00-12:00)`).
    case allowed(rule: String)
    case denied(AccessDenial)

    public var isAllowed: Bool { if case .allowed = self { true } else { false } }

    public var description: String {
        switch self {
        case .allowed(let rule): "allowed by \(rule)"
        case .denied(let denial): "denied: \(denial)"
        }
    }
}

public enum AccessDenial: Hashable, Codable, Sendable, CustomStringConvertible {
    case notYetValid(from: Int64)
    case expired(at: Int64)
    case noUsesLeft
    case outsideSchedule(String)
    case holidayClosed(String)
    case outsideHolidayHours(String)
    /// The user's schedule is not in the calendar: a rule that cannot be read refuses.
    case unknownSchedule(String)
    /// The rules themselves could not be read (the store failed): nobody's can be known.
    case rulesUnreadable(String)
    /// The credential (a card) is not valid yet, or no more, by its own dates.
    case credentialNotYetValid(from: Int64)
    case credentialExpired(at: Int64)

    /// A short name for events and the audit log.
    public var code: String {
        switch self {
        case .notYetValid: "not-yet-valid"
        case .expired: "expired"
        case .noUsesLeft: "no-uses-left"
        case .outsideSchedule: "outside-schedule"
        case .holidayClosed: "holiday-closed"
        case .outsideHolidayHours: "outside-holiday-hours"
        case .unknownSchedule: "unknown-schedule"
        case .rulesUnreadable: "rules-unreadable"
        case .credentialNotYetValid: "card-not-yet-valid"
        case .credentialExpired: "card-expired"
        }
    }

    public var description: String {
        switch self {
        case .notYetValid(let from): "not valid before \(from) (UTC seconds)"
        case .expired(let at): "expired at \(at) (UTC seconds)"
        case .noUsesLeft: "no uses left"
        case .outsideSchedule(let name): "outside schedule \"\(name)\""
        case .holidayClosed(let name): "closed for the holiday \"\(name)\""
        case .outsideHolidayHours(let name): "outside the hours of the holiday \"\(name)\""
        case .unknownSchedule(let name): "the schedule \"\(name)\" does not exist, so the rule cannot be read"
        case .rulesUnreadable(let reason): "the access rules cannot be read (\(reason))"
        case .credentialNotYetValid(let from): "the card is not valid before \(from) (UTC seconds)"
        case .credentialExpired(let at): "the card expired at \(at) (UTC seconds)"
        }
    }
}

extension AccessCalendar {
    /// Whether `user` may enter at `utcSeconds`, and which rule decides. Validity first, then
    /// uses, then the day's hours (a holiday's, else the user's schedule).
    public func verdict(for user: UserAccess, atUTC utcSeconds: Int64) -> AccessVerdict {
        if let from = user.validFrom, utcSeconds < from { return .denied(.notYetValid(from: from)) }
        if let until = user.validUntil, utcSeconds >= until { return .denied(.expired(at: until)) }
        if let left = user.usesLeft, left <= 0 { return .denied(.noUsesLeft) }
        guard let name = user.schedule else { return .allowed(rule: "no schedule") }
        guard let schedule = schedules[name] else { return .denied(.unknownSchedule(name)) }
        let local = timeZone.localTime(atUTC: utcSeconds)
        if let holiday = holidays.first(where: { $0.covers(local.date) }) {
            guard let hours = holiday.hours else { return .denied(.holidayClosed(holiday.name)) }
            return hours.contains(local) ? .allowed(rule: "the hours of the holiday \"\(holiday.name)\" (\(hours))")
                : .denied(.outsideHolidayHours(holiday.name))
        }
        return schedule.contains(local) ? .allowed(rule: "schedule \"\(name)\" (\(schedule))") : .denied(.outsideSchedule(name))
    }
}

/// Why a user's own rules keep them out at any hour now: what `fpmod list` marks. Such a user
/// stays in the store until an admin removes them.
public enum AccessStanding: String, Sendable, Equatable {
    case expired = "expired"
    case notYetValid = "not yet valid"
    case noUsesLeft = "no uses left"
}

extension UserAccess {
    /// The standing at `utcSeconds`; nil when the user's validity and uses let them in (their
    /// schedule may still say "not now").
    public func standing(atUTC utcSeconds: Int64) -> AccessStanding? {
        if let until = validUntil, utcSeconds >= until { return .expired }
        if let from = validFrom, utcSeconds < from { return .notYetValid }
        if let left = usesLeft, left <= 0 { return .noUsesLeft }
        return nil
    }

    public var isEmpty: Bool { self == UserAccess() }
}
