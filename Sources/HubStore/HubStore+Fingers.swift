import JSONValue

extension HubStore {
    /// Adds or replaces a user's finger for one reader family (a door enrolled it, or it was
    /// enrolled again); the change's revision. The user must be the hub's.
    @discardableResult
    public func putFinger(_ finger: HubFinger) throws(HubStoreError) -> Int64 {
        try finger.check()
        return try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> Int64 in
                guard !(try connection.execute("SELECT 1 FROM users WHERE name = $1 FOR UPDATE", [finger.user])).isEmpty else {
                    throw .unknownUser(finger.user)
                }
                try connection.execute("""
                    INSERT INTO fingers (user_name, label, module_family, template_size, sealed_template, quality, duress)
                    VALUES ($1, $2, $3, $4, $5, $6, $7)
                    ON CONFLICT (user_name, label, module_family) DO UPDATE SET template_size = EXCLUDED.template_size,
                        sealed_template = EXCLUDED.sealed_template, quality = EXCLUDED.quality, duress = EXCLUDED.duress, enrolled_at = now()
                    """, [finger.user, finger.label, finger.family, String(finger.templateSize), ByteaText.encode(finger.sealedTemplate),
                          String(finger.quality), finger.isDuress ? "true" : "false"])
                return try Self.recordChange(connection, kind: .finger, key: finger.changeKey, state: finger.json)
            }
        }
    }

    /// Removes a user's finger for one family and leaves a tombstone; nil when there was none.
    @discardableResult
    public func deleteFinger(user: String, label: String, family: String) throws(HubStoreError) -> Int64? {
        try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> Int64? in
                let deleted = try connection.execute("""
                    DELETE FROM fingers WHERE user_name = $1 AND label = $2 AND module_family = $3 RETURNING label
                    """, [user, label, family])
                guard !deleted.isEmpty else { return nil }
                return try Self.recordChange(connection, kind: .finger, key: HubFinger.changeKey(user: user, label: label, family: family), state: nil)
            }
        }
    }

    /// The user's fingers the hub holds (every family), by label.
    public func fingers(of user: String) throws(HubStoreError) -> [HubFinger] {
        try locked { connection throws(HubStoreError) in
            let rows = try connection.execute("""
                SELECT label, module_family, template_size, sealed_template, quality, duress FROM fingers WHERE user_name = $1
                ORDER BY label, module_family
                """, [user])
            var fingers: [HubFinger] = []
            for row in rows {
                guard row.count == 6, let label = row[0], let family = row[1], let size = row[2].flatMap({ Int($0) }),
                      let sealed = row[3].flatMap(ByteaText.decode), let quality = row[4].flatMap({ Int($0) }) else {
                    throw .unexpectedReply("a finger row")
                }
                fingers.append(HubFinger(user: user, label: label, family: family, templateSize: size, sealedTemplate: sealed,
                                         quality: quality, isDuress: row[5] == "t"))
            }
            return fingers
        }
    }

    /// Tombstones for every finger of `user` in the change log, inside the caller's transaction
    /// (the rows went with the user): a door that syncs from the start later gets no finger of
    /// a user it never sees.
    static func tombstoneFingers(_ connection: PostgresConnection, of user: String) throws(HubStoreError) {
        let keys = try connection.execute("""
            SELECT key FROM changes WHERE kind = 'finger' AND NOT tombstone AND payload->>'user' = $1 ORDER BY revision
            """, [user]).compactMap { $0.first ?? nil }
        for key in keys { _ = try recordChange(connection, kind: .finger, key: key, state: nil) }
    }
}
