import AccessPolicy
import JSONValue
import TemplateStore

extension HubStore {
    /// Adds or replaces a holiday (as `fpmod holiday add` takes one: its days, yearly or not,
    /// closed or with hours of its own); the change's revision. Checked by the doors' own rules
    /// first: a holiday a door could not read would stop it following.
    @discardableResult
    public func putHoliday(name: String, first: CivilDate, last: CivilDate, yearly: Bool, hours: String?) throws(HubStoreError) -> Int64 {
        try HubUser.checked { () throws(NameError) in _ = try RuleName(validating: name) }
        if let problem = HolidayDays.problem(first: first, last: last, yearly: yearly) { throw .invalid("the holiday's days: \(problem)") }
        if let hours {
            guard hours.utf8.count <= 2_000 else { throw .invalid("a holiday's hours are at most 2000 bytes") }
            do { _ = try WeeklySchedule(parsing: hours) } catch { throw .invalid("the holiday's hours do not read: \(error)") }
        }
        let state = JSONValue.object(["name": .string(name), "first": .string(first.description), "last": .string(last.description),
                                      "yearly": .bool(yearly), "hours": hours.map(JSONValue.string) ?? .null])
        return try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> Int64 in
                try connection.execute("""
                    INSERT INTO holidays (name, first, last, yearly, hours) VALUES ($1, $2, $3, $4, $5)
                    ON CONFLICT (name) DO UPDATE SET first = EXCLUDED.first, last = EXCLUDED.last, yearly = EXCLUDED.yearly, hours = EXCLUDED.hours
                    """, [name, first.description, last.description, yearly ? "true" : "false", hours])
                return try Self.recordChange(connection, kind: .holiday, key: name, state: state)
            }
        }
    }

    /// Removes a holiday and leaves a tombstone; nil when there was none.
    @discardableResult
    public func deleteHoliday(named name: String) throws(HubStoreError) -> Int64? {
        try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> Int64? in
                guard !(try connection.execute("DELETE FROM holidays WHERE name = $1 RETURNING name", [name])).isEmpty else { return nil }
                return try Self.recordChange(connection, kind: .holiday, key: name, state: nil)
            }
        }
    }
}

extension HubStore {
    /// A holiday as the hub holds it: its days as the doors take them (YYYY-MM-DD), and its
    /// hours (nil: closed).
    public struct HolidayListing: Sendable, Equatable {
        public var name: String
        public var first: String
        public var last: String
        public var yearly: Bool
        public var hours: String?
    }

    /// Every holiday, by name.
    public func holidays() throws(HubStoreError) -> [HolidayListing] {
        try locked { connection throws(HubStoreError) in
            let rows = try connection.execute("SELECT name, first, last, yearly, hours FROM holidays ORDER BY name")
            var holidays: [HolidayListing] = []
            for row in rows {
                guard row.count == 5, let name = row[0], let first = row[1], let last = row[2], let yearly = row[3] else {
                    throw .unexpectedReply("a holiday row")
                }
                holidays.append(HolidayListing(name: name, first: first, last: last, yearly: yearly == "t", hours: row[4]))
            }
            return holidays
        }
    }
}
