extension HubStore {
    /// A weekly schedule as the hub holds it, with the users who have it (a schedule someone
    /// has cannot be removed: `deleteSchedule` refuses it).
    public struct ScheduleListing: Sendable, Equatable {
        public var name: String
        public var text: String
        public var users: [String]
    }

    /// Every schedule, by name.
    public func schedules() throws(HubStoreError) -> [ScheduleListing] {
        try locked { connection throws(HubStoreError) in
            let rows = try connection.execute("""
                SELECT s.name, s.text, coalesce((SELECT string_agg(u.name, E'\\n' ORDER BY u.name) FROM users u WHERE u.schedule = s.name), '')
                FROM schedules s ORDER BY s.name
                """)
            var schedules: [ScheduleListing] = []
            for row in rows {
                guard row.count == 3, let name = row[0], let text = row[1] else { throw .unexpectedReply("a schedule row") }
                schedules.append(ScheduleListing(name: name, text: text, users: (row[2] ?? "").split(separator: "\n").map(String.init)))
            }
            return schedules
        }
    }
}
