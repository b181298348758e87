import Foundation

extension TemplateStore {
    /// Appends one row to the audit log (which refuses updates and deletes) and returns its id.
    @discardableResult
    public func appendAudit(event: String, user: String? = nil, slot: Int? = nil, score: Int? = nil,
                            latencyJSON: String? = nil, detail: String? = nil, time: Date = Date()) throws -> Int64 {
        try locked {
            try connection.query("""
                INSERT INTO audit (time, event, user, slot, score, latency_json, detail) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [time.storeValue, .text(event), user.sql, slot.sql, score.sql, latencyJSON.sql, detail.sql])
            return connection.lastInsertRowID
        }
    }

    /// The newest `limit` audit rows at or after `since`, oldest first.
    public func auditEntries(limit: Int = 100, since: Date? = nil) throws -> [AuditEntry] {
        try locked {
            let rows = try connection.query("""
                SELECT id, time, event, user, slot, score, latency_json, detail FROM audit
                WHERE time >= ? ORDER BY id DESC LIMIT ?
                """, [.real(since?.timeIntervalSince1970 ?? -Double.greatestFiniteMagnitude), .integer(Int64(max(0, limit)))])
            return rows.reversed().map {
                AuditEntry(id: $0[0].int64 ?? 0, time: Date(storeValue: $0[1]), event: $0[2].string ?? "",
                           user: $0[3].string, slot: $0[4].int, score: $0[5].int, latencyJSON: $0[6].string,
                           detail: $0[7].string)
            }
        }
    }
}
