extension HubStore {
    /// A user as `fpmod hub users` and the fleet console list one: who, and which fingers the
    /// hub holds for them ("right-index (host)").
    public struct UserListing: Sendable, Equatable {
        public var name: String
        public var displayName: String
        public var role: HubUser.Role
        public var fingers: [String]
    }

    /// Every user, by name, with their fingers.
    public func users() throws(HubStoreError) -> [UserListing] {
        try locked { connection throws(HubStoreError) in
            let rows = try connection.execute("""
                SELECT u.name, u.display_name, u.role,
                    coalesce(string_agg(f.label || ' (' || f.module_family || ')', E'\\n' ORDER BY f.label, f.module_family), '')
                FROM users u LEFT JOIN fingers f ON f.user_name = u.name GROUP BY u.name ORDER BY u.name
                """)
            var users: [UserListing] = []
            for row in rows {
                guard row.count == 4, let name = row[0], let display = row[1], let role = row[2].flatMap(HubUser.Role.init(rawValue:)) else {
                    throw .unexpectedReply("a user row")
                }
                let fingers = (row[3] ?? "").split(separator: "\n").map(String.init)
                users.append(UserListing(name: name, displayName: display, role: role, fingers: fingers))
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
