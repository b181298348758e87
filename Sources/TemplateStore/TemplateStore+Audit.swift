import Foundation

extension TemplateStore {
    /// Appends one row to the audit log (which refuses updates and deletes) and returns its id.
    /// The row is chained (`AuditChain`): its hash covers the row before it, its MAC the store
    /// key. One transaction, so two processes appending at once cannot fork the chain.
    @discardableResult
    public func appendAudit(event: String, user: String? = nil, slot: Int? = nil, score: Int? = nil,
                            latencyJSON: String? = nil, detail: String? = nil, time: Date = Date()) throws -> Int64 {
        try transaction {
            let previous = try auditChainTail()
            let next = try connection.scalar("""
                SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'audit'), 0), coalesce((SELECT max(id) FROM audit), 0)) + 1
                """).int64 ?? 1
            let record = AuditChain.Record(id: next, time: time.timeIntervalSince1970, event: event, user: user,
                                           slot: slot.map(Int64.init), score: score.map(Int64.init), latencyJSON: latencyJSON, detail: detail)
            let hash = AuditChain.hash(previous: previous, record)
            let mac = AuditChain.mac(hash: hash, macKey: AuditChain.macKey(storeKey: key))
            try connection.query("""
                INSERT INTO audit (id, time, event, user, slot, score, latency_json, detail, prev_hash, hash, mac)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.integer(next), .real(record.time), .text(event), user.sql, slot.sql, score.sql, latencyJSON.sql, detail.sql,
                      .blob(previous), .blob(hash), .blob(mac)])
            return next
        }
    }

    /// The hash the next row chains to: the newest row's, or — the first time after an upgrade
    /// — the chain folded over the rows written before it (the recorded starting point).
    private func auditChainTail() throws -> [UInt8] {
        let newest = try connection.query("SELECT hash FROM audit ORDER BY id DESC LIMIT 1")
        guard let row = newest.first else { return AuditChain.genesis }
        if let hash = row[0].bytes { return hash }
        var folded = AuditChain.genesis
        for row in try connection.query("SELECT \(Self.auditChainColumns) FROM audit WHERE hash IS NULL ORDER BY id") {
            folded = AuditChain.hash(previous: folded, Self.auditRecord(row))
        }
        return folded
    }

    static let auditChainColumns = "id, time, event, user, slot, score, latency_json, detail, prev_hash, hash, mac"

    static func auditRecord(_ row: [SQLValue]) -> AuditChain.Record {
        AuditChain.Record(id: row[0].int64 ?? 0, time: row[1].double ?? 0, event: row[2].string ?? "", user: row[3].string,
                          slot: row[4].int64, score: row[5].int64, latencyJSON: row[6].string, detail: row[7].string)
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

extension TemplateStore {
    /// The rows a history of identify touches needs, oldest first: the newest `touches` touches
    /// at or after `since` — a row with a slot, a score and stage times whose event is not in
    /// `excludedMatches`, or a row of `strangerEvents` with stage times — and, from the oldest
    /// of them on, every row of `otherEvents` (the slot changes that say whose a slot was).
    public func touchHistory(touches: Int, since: Date, excludedMatches: Set<String>, strangerEvents: Set<String>,
                             otherEvents: Set<String>) throws -> [AuditEntry] {
        func list(_ events: Set<String>) -> (String, [SQLValue]) {
            let sorted = events.sorted()
            return (sorted.isEmpty ? "''" : sorted.map { _ in "?" }.joined(separator: ", "), sorted.map { .text($0) })
        }
        let (excluded, excludedValues) = list(excludedMatches)
        let (strangers, strangerValues) = list(strangerEvents)
        let (others, otherValues) = list(otherEvents)
        let touch = """
            ((slot IS NOT NULL AND score IS NOT NULL AND latency_json IS NOT NULL AND event NOT IN (\(excluded)))
             OR (latency_json IS NOT NULL AND event IN (\(strangers))))
            """
        return try locked {
            let rows = try connection.query("""
                WITH recent AS (SELECT id FROM audit WHERE time >= ? AND \(touch) ORDER BY id DESC LIMIT ?)
                SELECT id, time, event, user, slot, score, latency_json, detail FROM audit
                WHERE id >= (SELECT COALESCE(MIN(id), 9223372036854775807) FROM recent)
                  AND (id IN (SELECT id FROM recent) OR event IN (\(others)))
                ORDER BY id
                """, [.real(since.timeIntervalSince1970)] + excludedValues + strangerValues + [.integer(Int64(max(0, touches)))] + otherValues)
            return rows.map {
                AuditEntry(id: $0[0].int64 ?? 0, time: Date(storeValue: $0[1]), event: $0[2].string ?? "",
                           user: $0[3].string, slot: $0[4].int, score: $0[5].int, latencyJSON: $0[6].string,
                           detail: $0[7].string)
            }
        }
    }
}

extension TemplateStore {
    /// The audit rows from `from` (inclusive) to `to` (exclusive), of `events` only and of `user`
    /// only when given, oldest first, at most `limit` (the oldest `limit`, or the newest with
    /// `newest`): what a report such as "who came in on Tuesday" reads (`audit_time` index).
    public func auditEntries(from: Date, to: Date, events: Set<String>? = nil, user: String? = nil, limit: Int,
                             newest: Bool = false) throws -> [AuditEntry] {
        var sql = "SELECT id, time, event, user, slot, score, latency_json, detail FROM audit WHERE time >= ? AND time < ?"
        var values: [SQLValue] = [.real(from.timeIntervalSince1970), .real(to.timeIntervalSince1970)]
        if let events {
            let names = events.sorted()
            guard !names.isEmpty else { return [] }
            sql += " AND event IN (" + names.map { _ in "?" }.joined(separator: ", ") + ")"
            values += names.map { .text($0) }
        }
        if let user {
            sql += " AND user = ?"
            values.append(.text(user))
        }
        sql += newest ? " ORDER BY time DESC, id DESC LIMIT ?" : " ORDER BY time, id LIMIT ?"
        values.append(.integer(Int64(max(0, limit))))
        return try locked {
            let rows = try connection.query(sql, values)
            return (newest ? rows.reversed() : rows).map {
                AuditEntry(id: $0[0].int64 ?? 0, time: Date(storeValue: $0[1]), event: $0[2].string ?? "",
                           user: $0[3].string, slot: $0[4].int, score: $0[5].int, latencyJSON: $0[6].string,
                           detail: $0[7].string)
            }
        }
    }
}

extension TemplateStore {
    /// One page of the audit log, newest first: rows with an id below `beforeID` (nil: from the
    /// newest), in [`from`, `to`), of `event` and `user` when given. `limit + 1` rows are read so
    /// the caller knows whether an older page exists without counting the table.
    public func auditPage(beforeID: Int64?, from: Date?, to: Date?, event: String?, user: String?,
                          limit: Int) throws -> (entries: [AuditEntry], more: Bool) {
        var sql = "SELECT id, time, event, user, slot, score, latency_json, detail FROM audit WHERE id < ?"
        var values: [SQLValue] = [.integer(beforeID ?? Int64.max)]
        if let from { sql += " AND time >= ?"; values.append(.real(from.timeIntervalSince1970)) }
        if let to { sql += " AND time < ?"; values.append(.real(to.timeIntervalSince1970)) }
        if let event { sql += " AND event = ?"; values.append(.text(event)) }
        if let user { sql += " AND user = ?"; values.append(.text(user)) }
        sql += " ORDER BY id DESC LIMIT ?"
        let count = max(1, limit)
        values.append(.integer(Int64(count + 1)))
        return try locked {
            let rows = try connection.query(sql, values)
            let entries = rows.prefix(count).map {
                AuditEntry(id: $0[0].int64 ?? 0, time: Date(storeValue: $0[1]), event: $0[2].string ?? "",
                           user: $0[3].string, slot: $0[4].int, score: $0[5].int, latencyJSON: $0[6].string,
                           detail: $0[7].string)
            }
            return (Array(entries), rows.count > count)
        }
    }
}
