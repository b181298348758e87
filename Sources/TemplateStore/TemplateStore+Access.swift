import AccessPolicy
import Foundation

/// A schedule as the store keeps it: its name and the text it was given (normalised).
public struct StoredSchedule: Equatable, Sendable {
    public var name: String
    public var text: String
}

/// A holiday as the store keeps it; `hours` nil: closed all day.
public struct StoredHoliday: Equatable, Sendable {
    public var name: String
    public var first: String
    public var last: String
    public var yearly: Bool
    public var hours: String?
}

/// A change to one of a user's access fields: set it, or clear it (no rule of that kind).
public enum AccessChange<Value: Sendable & Equatable>: Sendable, Equatable {
    case set(Value)
    case clear
}

extension TemplateStore {
    // MARK: Schedules

    /// Adds a schedule (or, with `replace`, changes the one of that name).
    public func addSchedule(name: RuleName, schedule: WeeklySchedule, replace: Bool = false, at time: Date = Date()) throws {
        try transaction {
            let exists = try connection.query("SELECT 1 FROM schedules WHERE name = ?", [.text(name.text)]).first != nil
            if exists && !replace { throw StoreError.duplicateSchedule(name.text) }
            try connection.query("""
                INSERT INTO schedules (name, text, created_at) VALUES (?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET text = excluded.text
                """, [.text(name.text), .text(schedule.text), time.storeValue])
        }
    }

    /// Deletes a schedule no user has.
    public func deleteSchedule(name: String) throws {
        try transaction {
            let users = try connection.query("SELECT name FROM users WHERE schedule = ? ORDER BY name", [.text(name)]).compactMap(\.[0].string)
            if !users.isEmpty { throw StoreError.scheduleInUse(name, users: users) }
            try connection.query("DELETE FROM schedules WHERE name = ?", [.text(name)])
            if connection.changes == 0 { throw StoreError.unknownSchedule(name, known: try scheduleNames()) }
        }
    }

    public func schedules() throws -> [StoredSchedule] {
        try locked {
            try connection.query("SELECT name, text FROM schedules ORDER BY name").map {
                StoredSchedule(name: $0[0].string ?? "", text: $0[1].string ?? "")
            }
        }
    }

    func scheduleNames() throws -> [String] {
        try locked { try connection.query("SELECT name FROM schedules ORDER BY name").compactMap(\.[0].string) }
    }

    // MARK: Holidays

    public func addHoliday(name: RuleName, first: CivilDate, last: CivilDate, yearly: Bool, hours: WeeklySchedule?,
                           at time: Date = Date()) throws {
        try transaction {
            if try connection.query("SELECT 1 FROM holidays WHERE name = ?", [.text(name.text)]).first != nil {
                throw StoreError.duplicateHoliday(name.text)
            }
            try connection.query("""
                INSERT INTO holidays (name, first, last, yearly, hours, created_at) VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(name.text), .text(first.description), .text(last.description), .integer(yearly ? 1 : 0),
                      hours.map { .text($0.text) } ?? .null, time.storeValue])
        }
    }

    public func deleteHoliday(name: String) throws {
        try locked {
            try connection.query("DELETE FROM holidays WHERE name = ?", [.text(name)])
            if connection.changes == 0 { throw StoreError.unknownHoliday(name) }
        }
    }

    public func holidays() throws -> [StoredHoliday] {
        try locked {
            try connection.query("SELECT name, first, last, yearly, hours FROM holidays ORDER BY first, name").map {
                StoredHoliday(name: $0[0].string ?? "", first: $0[1].string ?? "", last: $0[2].string ?? "",
                              yearly: $0[3].int64 == 1, hours: $0[4].string)
            }
        }
    }

    // MARK: A user's rules

    /// The user's own access rules (none set: an empty `UserAccess`).
    public func access(of user: String) throws -> UserAccess {
        try locked {
            guard let row = try connection.query("SELECT schedule, valid_from, valid_until, uses_left FROM users WHERE name = ?",
                                                 [.text(user)]).first else { throw StoreError.unknownUser(user) }
            return UserAccess(schedule: row[0].string, validFrom: row[1].int64, validUntil: row[2].int64, usesLeft: row[3].int)
        }
    }

    /// Changes the given fields of a user's rules in one transaction (nil: left as it is). A
    /// schedule must exist; validity must not end before it starts.
    public func setAccess(of user: String, schedule: AccessChange<String>? = nil, validFrom: AccessChange<Int64>? = nil,
                          validUntil: AccessChange<Int64>? = nil, uses: AccessChange<Int>? = nil) throws {
        try transaction {
            var current = try access(of: user)
            if case .set(let name)? = schedule {
                guard try connection.query("SELECT 1 FROM schedules WHERE name = ?", [.text(name)]).first != nil else {
                    throw StoreError.unknownSchedule(name, known: try scheduleNames())
                }
            }
            func apply<T>(_ change: AccessChange<T>?, _ field: inout T?) {
                switch change {
                case .set(let value)?: field = value
                case .clear?: field = nil
                case nil: break
                }
            }
            apply(schedule, &current.schedule)
            apply(validFrom, &current.validFrom)
            apply(validUntil, &current.validUntil)
            apply(uses, &current.usesLeft)
            if let from = current.validFrom, let until = current.validUntil, until <= from {
                throw StoreError.invalidValidity(from: from, until: until)
            }
            try connection.query("UPDATE users SET schedule = ?, valid_from = ?, valid_until = ?, uses_left = ? WHERE name = ?",
                                 [current.schedule.sql, current.validFrom.map { .integer($0) } ?? .null,
                                  current.validUntil.map { .integer($0) } ?? .null, current.usesLeft.sql, .text(user)])
        }
    }

    /// Takes one of `user`'s limited uses, in one statement so that two doors (two processes on
    /// one store) can never both take the last. True when one was taken or the user's uses are
    /// unlimited; false when none is left (or the user is gone).
    public func consumeUse(user: String) throws -> Bool {
        try locked {
            try connection.query("UPDATE users SET uses_left = uses_left - 1 WHERE name = ? AND uses_left > 0", [.text(user)])
            if connection.changes == 1 { return true }
            let row = try connection.query("SELECT uses_left FROM users WHERE name = ?", [.text(user)]).first
            return row.map { $0[0] == .null } ?? false
        }
    }

    // MARK: For the policy

    /// Every rule the policy applies, each stored text read again: a schedule whose text this
    /// fpmod cannot read is left out of the calendar, so the users on it are refused
    /// (`unknownSchedule`); a holiday that cannot be read closes its days (it cannot say when
    /// it is open). Never a looser rule than the one stored.
    public func accessRules(timeZone: TimeZoneRules) throws -> AccessRules {
        try locked {
            var calendar = AccessCalendar(timeZone: timeZone)
            for row in try connection.query("SELECT name, text FROM schedules") {
                guard let name = row[0].string, let text = row[1].string,
                      let schedule = try? WeeklySchedule(parsing: text) else { continue }
                calendar.schedules[name] = schedule
            }
            for row in try connection.query("SELECT name, first, last, yearly, hours FROM holidays ORDER BY first, name") {
                let name = row[0].string ?? "?"
                guard let first = row[1].string.flatMap({ CivilDate(parsing: Substring($0)) }),
                      let last = row[2].string.flatMap({ CivilDate(parsing: Substring($0)) }) else { continue }
                let hours = row[4].string.flatMap { try? WeeklySchedule(parsing: $0) }
                calendar.holidays.append(Holiday(name: name, first: first, last: last, yearly: row[3].int64 == 1, hours: hours))
            }
            var users: [String: UserAccess] = [:]
            for row in try connection.query("""
                SELECT name, schedule, valid_from, valid_until, uses_left FROM users
                WHERE schedule IS NOT NULL OR valid_from IS NOT NULL OR valid_until IS NOT NULL OR uses_left IS NOT NULL
                """) {
                guard let name = row[0].string else { continue }
                users[name] = UserAccess(schedule: row[1].string, validFrom: row[2].int64, validUntil: row[3].int64, usesLeft: row[4].int)
            }
            return AccessRules(calendar: calendar, users: users)
        }
    }

    /// SQLite's `data_version`: changes when another connection (another program) committed,
    /// so the service reads the rules again only then.
    public func dataVersion() throws -> Int64 {
        try locked { try connection.scalar("PRAGMA data_version").int64 ?? 0 }
    }
}
