extension HubStore {
    /// A user as `fpmod hub users` and the fleet console list one: who, and which fingers and
    /// cards the hub holds for them ("right-index (host)", "badge (wiegand)").
    public struct UserListing: Sendable, Equatable {
        public var name: String
        public var displayName: String
        public var role: HubUser.Role
        public var fingers: [String]
        public var cards: [String] = []
        /// The weekly schedule they may come in by; nil: none of their own.
        public var schedule: String? = nil
        /// When they may first and last come in (UTC seconds, `validUntil` exclusive) and the
        /// grants each door gives them; nil: no bound, no limit.
        public var validFrom: Int64? = nil
        public var validUntil: Int64? = nil
        public var usesLeft: Int? = nil
    }

    /// Every user, by name, with their fingers and cards; `named`: that user alone (none or one).
    public func users(named name: String? = nil) throws(HubStoreError) -> [UserListing] {
        try locked { connection throws(HubStoreError) in
            let rows = try connection.execute("""
                SELECT u.name, u.display_name, u.role,
                    coalesce((SELECT string_agg(f.label || ' (' || f.module_family || ')', E'\\n' ORDER BY f.label, f.module_family)
                              FROM fingers f WHERE f.user_name = u.name), ''),
                    coalesce((SELECT string_agg(c.label || ' (' || c.kind || CASE WHEN c.enabled THEN '' ELSE ', off' END || ')', E'\\n' ORDER BY c.label)
                              FROM cards c WHERE c.user_name = u.name), ''),
                    u.schedule, u.valid_from, u.valid_until, u.uses_left
                FROM users u WHERE $1::text IS NULL OR u.name = $1 ORDER BY u.name
                """, [name])
            var users: [UserListing] = []
            for row in rows {
                guard row.count == 9, let name = row[0], let display = row[1], let role = row[2].flatMap(HubUser.Role.init(rawValue:)) else {
                    throw .unexpectedReply("a user row")
                }
                let fingers = (row[3] ?? "").split(separator: "\n").map(String.init)
                let cards = (row[4] ?? "").split(separator: "\n").map(String.init)
                users.append(UserListing(name: name, displayName: display, role: role, fingers: fingers, cards: cards, schedule: row[5],
                                         validFrom: row[6].flatMap { Int64($0) }, validUntil: row[7].flatMap { Int64($0) },
                                         usesLeft: row[8].flatMap { Int($0) }))
            }
            return users
        }
    }

    /// Whether the hub has a user of that name.
    public func hasUser(named name: String) throws(HubStoreError) -> Bool {
        try locked { connection throws(HubStoreError) in
            !(try connection.execute("SELECT 1 FROM users WHERE name = $1", [name])).isEmpty
        }
    }
}
