import TemplateStore

extension HubStore {
    /// Gives a user a schedule, or takes theirs away (nil: no schedule of their own); the
    /// change's revision, or nil when the hub has no such user. The user's whole state is
    /// recorded again, as `putUser` records it, since a door replaces a user with what a change
    /// carries.
    @discardableResult
    public func setSchedule(ofUser name: String, to schedule: String?) throws(HubStoreError) -> Int64? {
        if let schedule { try HubUser.checked { () throws(NameError) in _ = try RuleName(validating: schedule) } }
        return try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> Int64? in
                let rows = try connection.execute("""
                    UPDATE users SET schedule = $2 WHERE name = $1
                    RETURNING \(Self.userColumns)
                    """, [name, schedule])
                guard let row = rows.first else { return nil }
                // Checked inside the transaction: a schedule removed meanwhile would leave doors with a user they refuse.
                if let schedule, try connection.execute("SELECT 1 FROM schedules WHERE name = $1", [schedule]).isEmpty {
                    throw .invalid("no schedule \(schedule.debugDescription) on the hub; add it first")
                }
                return try Self.recordChange(connection, kind: .user, key: name, state: try Self.user(row).state)
            }
        }
    }
}
