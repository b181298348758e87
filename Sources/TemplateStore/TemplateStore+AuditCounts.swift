extension TemplateStore {
    /// The newest audit row's id (0 for an empty log): where a reader starts counting what
    /// happens from now on.
    public func newestAuditID() throws -> Int64 {
        try locked { try connection.scalar("SELECT coalesce(max(id), 0) FROM audit").int64 ?? 0 }
    }

    /// Audit rows after `afterID`, counted by event: what a soak compares with the events the
    /// service announced.
    public func auditCounts(afterID: Int64) throws -> [String: Int] {
        try locked {
            var counts: [String: Int] = [:]
            for row in try connection.query("SELECT event, count(*) FROM audit WHERE id > ? GROUP BY event", [.integer(afterID)]) {
                if let event = row[0].string { counts[event] = row[1].int ?? 0 }
            }
            return counts
        }
    }
}
