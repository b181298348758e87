import AccessPolicy
import JSONValue
import TemplateStore
import Synchronization

/// The fleet's truth in PostgreSQL: what every door follows (users, schedules, … each change
/// stamped with a revision) and what every door reports back (its events, each exactly once).
///
/// A pool of connections (one for a command, a few for `fpmod hub serve`), each used by one
/// caller at a time: a caller takes a free one, or waits its turn for one. A write and its
/// change-log row are one transaction on one connection; revisions commit in the order they are
/// handed out whichever connection writes them (`HubSchema.changeLock`, an advisory lock).
public final class HubStore: Sendable {
    private let pool: [PooledConnection]
    private let conninfo: String
    /// Which connection a caller that finds none free waits for: each in turn.
    private let turn = Atomic<Int>(0)

    /// Opens the hub's database, which must be at this fpmod's schema version (older: migrate
    /// first; newer: refused, as this fpmod would not know its tables). `connections`: how many
    /// the pool may hold (1 to 64); the first is opened now, the others when callers need them.
    public init(conninfo: String, connections: Int = 1) throws(HubStoreError) {
        guard (1...64).contains(connections) else { throw .invalid("a hub holds 1 to 64 connections, not \(connections)") }
        let opened = try PostgresConnection(conninfo: conninfo)
        let found = try Self.schemaVersion(opened)
        guard found <= HubSchema.currentVersion else { throw .newerSchema(found: found, known: HubSchema.currentVersion) }
        guard found == HubSchema.currentVersion else { throw .olderSchema(found: found, known: HubSchema.currentVersion) }
        self.conninfo = conninfo
        pool = [PooledConnection(opened)] + (1..<connections).map { _ in PooledConnection(nil) }
    }

    /// How many connections the pool may hold.
    public var connectionLimit: Int { pool.count }

    /// Brings the database to this fpmod's schema, one migration per transaction (a failing
    /// migration leaves the database at the version before it, and `hub_migrations` says
    /// which), one migrator at a time (an advisory lock held by each transaction). Returns the
    /// versions before and after; run again it is a no-op. A database from a newer fpmod is
    /// refused untouched.
    @discardableResult
    public static func migrate(conninfo: String) throws(HubStoreError) -> (from: Int, to: Int) {
        try migrate(conninfo: conninfo, migrations: HubSchema.migrations)
    }

    /// `migrate(conninfo:)` over any list of migrations (the tests give a broken one).
    @discardableResult
    static func migrate(conninfo: String, migrations: [String]) throws(HubStoreError) -> (from: Int, to: Int) {
        let connection = try PostgresConnection(conninfo: conninfo)
        let known = migrations.count
        var from: Int?
        while true {
            let found = try connection.transaction { () throws(HubStoreError) -> Int in
                try connection.execute("SELECT pg_advisory_xact_lock($1)", [String(HubSchema.migrationLock)])
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS hub_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                    """)
                let found = try schemaVersion(connection)
                guard found <= known else { throw .newerSchema(found: found, known: known) }
                guard found < known else { return found }
                try connection.executeScript(migrations[found])
                try connection.execute("INSERT INTO hub_migrations (version) VALUES ($1)", [String(found + 1)])
                return found
            }
            if from == nil { from = found }
            if found == known { return (from ?? found, known) }
        }
    }

    /// The version recorded in `hub_migrations`, 0 for a database never migrated.
    private static func schemaVersion(_ connection: PostgresConnection) throws(HubStoreError) -> Int {
        let exists = try connection.execute("SELECT to_regclass('hub_migrations') IS NOT NULL")
        guard try Self.bool(exists, "to_regclass") else { return 0 }
        return try Self.int(connection.execute("SELECT coalesce(max(version), 0) FROM hub_migrations"), "max(version)")
    }

    /// `body` on a connection of its own for its duration: a free one, else the next in turn
    /// once its caller is done. A connection the pool has not opened yet is opened first.
    func locked<T: Sendable>(_ body: (PostgresConnection) throws(HubStoreError) -> T) throws(HubStoreError) -> T {
        if pool.count > 1 {
            for pooled in pool {
                if let done = pooled.ifFree(conninfo, body) { return try done.get() }
            }
        }
        let next = turn.wrappingAdd(1, ordering: .relaxed).oldValue
        return try pool[(next % pool.count + pool.count) % pool.count].waiting(conninfo, body)
    }

    // MARK: Changes

    /// The newest revision handed out and committed (0 before the first change).
    public func latestRevision() throws(HubStoreError) -> Int64 {
        try locked { connection throws(HubStoreError) in
            try Self.int64(connection.execute("SELECT coalesce(max(revision), 0) FROM changes"), "max(revision)")
        }
    }

    /// The changes after `revision`, oldest first, at most `limit`: each the whole state of one
    /// thing at its latest change, or its tombstone. A door applies them in order and then
    /// remembers the last one's revision.
    public func changes(since revision: Int64, limit: Int = 500) throws(HubStoreError) -> [HubChange] {
        guard revision >= 0 else { throw .invalid("a revision is 0 or more, not \(revision)") }
        guard (1...10_000).contains(limit) else { throw .invalid("a page of changes holds 1 to 10000, not \(limit)") }
        return try locked { connection throws(HubStoreError) in
            let rows = try connection.execute("""
                SELECT revision, kind, key, tombstone, payload::text FROM changes WHERE revision > $1 ORDER BY revision LIMIT $2
                """, [String(revision), String(limit)])
            var changes: [HubChange] = []
            for row in rows {
                guard row.count == 5, let revision = row[0].flatMap({ Int64($0) }), let kindText = row[1],
                      let kind = HubChange.Kind(rawValue: kindText), let key = row[2], let tombstone = row[3] else {
                    throw .unexpectedReply("a change row \(row)")
                }
                var state: JSONValue?
                if tombstone == "f" {
                    guard let text = row[4], let parsed = try? JSONValue(parsing: text) else { throw .unexpectedReply("change \(revision)'s payload") }
                    state = parsed
                }
                changes.append(HubChange(revision: revision, kind: kind, key: key, state: state))
            }
            return changes
        }
    }

    /// Records a change of one thing inside the caller's transaction: takes the change lock,
    /// hands out the next revision, replaces the thing's row in the change log. The revision.
    static func recordChange(_ connection: PostgresConnection, kind: HubChange.Kind, key: String,
                                     state: JSONValue?) throws(HubStoreError) -> Int64 {
        try connection.execute("SELECT pg_advisory_xact_lock($1)", [String(HubSchema.changeLock)])
        let rows = try connection.execute("""
            INSERT INTO changes (revision, kind, key, tombstone, payload, changed_at)
            VALUES (nextval('revisions'), $1, $2, $3, $4::jsonb, now())
            ON CONFLICT (kind, key) DO UPDATE
            SET revision = EXCLUDED.revision, tombstone = EXCLUDED.tombstone, payload = EXCLUDED.payload, changed_at = EXCLUDED.changed_at
            RETURNING revision
            """, [kind.rawValue, key, state == nil ? "true" : "false", state?.encoded])
        let revision = try int64(rows, "revision")
        // Delivered at commit, to every hub process listening (`HubChangeListener`): waiting
        // doors hear of the change at once instead of at their next poll.
        try connection.execute("SELECT pg_notify($1, $2)", [HubChangeListener.channel, String(revision)])
        return revision
    }

    // MARK: Users and schedules

    /// Adds or replaces a user; the change's revision.
    @discardableResult
    public func putUser(_ user: HubUser) throws(HubStoreError) -> Int64 {
        try user.check()
        return try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> Int64 in
                // A door refuses a user whose schedule it does not have, and would stop following here.
                if let schedule = user.schedule, try connection.execute("SELECT 1 FROM schedules WHERE name = $1", [schedule]).isEmpty {
                    throw .invalid("no schedule \(schedule.debugDescription) on the hub; add it first")
                }
                try connection.execute("""
                    INSERT INTO users (name, display_name, role, pin_hash, verify_mode, schedule, valid_from, valid_until, uses_left,
                        fingerprint_unlock)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                    ON CONFLICT (name) DO UPDATE SET display_name = EXCLUDED.display_name, role = EXCLUDED.role,
                        fingerprint_unlock = EXCLUDED.fingerprint_unlock, pin_hash = EXCLUDED.pin_hash, verify_mode = EXCLUDED.verify_mode, schedule = EXCLUDED.schedule,
                        valid_from = EXCLUDED.valid_from, valid_until = EXCLUDED.valid_until, uses_left = EXCLUDED.uses_left
                    """, [user.name, user.displayName, user.role.rawValue, user.pinHash, user.verifyMode, user.schedule,
                          user.validFrom.map(String.init), user.validUntil.map(String.init), user.usesLeft.map(String.init),
                          user.fingerprintUnlock ? "true" : "false"])
                return try Self.recordChange(connection, kind: .user, key: user.name, state: user.state)
            }
        }
    }

    /// Deletes a user (with their fingers and cards) and leaves a tombstone; the revision, or
    /// nil when there was no such user (nothing is recorded then).
    @discardableResult
    public func deleteUser(named name: String) throws(HubStoreError) -> Int64? {
        try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> Int64? in
                let deleted = try connection.execute("DELETE FROM users WHERE name = $1 RETURNING name", [name])
                guard !deleted.isEmpty else { return nil }
                try Self.tombstoneFingers(connection, of: name)
                try Self.tombstoneCards(connection, of: name)
                return try Self.recordChange(connection, kind: .user, key: name, state: nil)
            }
        }
    }

    /// Adds or replaces a weekly schedule (its text as `fpmod schedule add` takes it); the revision.
    @discardableResult
    public func putSchedule(name: String, text: String) throws(HubStoreError) -> Int64 {
        try HubUser.checked { () throws(NameError) in _ = try RuleName(validating: name) }
        guard !text.isEmpty, text.utf8.count <= 2_000 else { throw .invalid("a schedule's text is 1 to 2000 bytes") }
        // Read by the doors' own parser: a schedule a door cannot read would stop every door there.
        do { _ = try WeeklySchedule(parsing: text) } catch { throw .invalid("the schedule does not read: \(error)") }
        return try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> Int64 in
                try connection.execute("""
                    INSERT INTO schedules (name, text) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET text = EXCLUDED.text
                    """, [name, text])
                return try Self.recordChange(connection, kind: .schedule, key: name, state: .object(["name": .string(name), "text": .string(text)]))
            }
        }
    }

    @discardableResult
    public func deleteSchedule(named name: String) throws(HubStoreError) -> Int64? {
        try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> Int64? in
                let users = try connection.execute("SELECT name FROM users WHERE schedule = $1 ORDER BY name LIMIT 6", [name]).compactMap { $0.first ?? nil }
                if !users.isEmpty {
                    throw .invalid("users still have schedule \(name.debugDescription): \(users.prefix(5).joined(separator: ", "))\(users.count > 5 ? ", …" : ""); change theirs first")
                }
                guard !(try connection.execute("DELETE FROM schedules WHERE name = $1 RETURNING name", [name])).isEmpty else { return nil }
                return try Self.recordChange(connection, kind: .schedule, key: name, state: nil)
            }
        }
    }

    // MARK: Doors and their events

    /// A new door; its id.
    public func addDoor(named name: String) throws(HubStoreError) -> Int64 {
        // A door's name is typed in shells and shown in events, as a rule's is.
        try HubUser.checked { () throws(NameError) in _ = try RuleName(validating: name) }
        return try locked { connection throws(HubStoreError) in
            try Self.int64(connection.execute("INSERT INTO doors (name) VALUES ($1) RETURNING id", [name]), "id")
        }
    }

    /// Refuses the door from now on (its uploads, and in time its certificate).
    public func revokeDoor(id: Int64) throws(HubStoreError) {
        try locked { connection throws(HubStoreError) in
            let rows = try connection.execute("UPDATE doors SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING id", [String(id)])
            guard !rows.isEmpty else { throw .unknownDoor(id: id) }
        }
    }

    /// Takes a door's events exactly once: one already held with the same hash is counted as a
    /// duplicate (a retry), one held with another hash refuses the upload, and each new event
    /// must chain to its neighbours the hub holds (`previousHash` = the hash of the one before,
    /// and the one after must chain to it). Missing sequence numbers before an event are
    /// reported as gaps (a door offline for a week uploads in pages; a later page fills them).
    /// All or nothing: a refused upload keeps none of its events.
    @discardableResult
    public func insertEvents(door: Int64, _ events: [DoorEvent]) throws(HubStoreError) -> EventUpload {
        guard events.count <= 10_000 else { throw .invalid("an upload holds at most 10000 events, not \(events.count)") }
        for event in events {
            guard event.sequence > 0, event.hash.count == 32, event.previousHash.count == 32, !event.event.isEmpty,
                  event.event.utf8.count <= 64, (event.detail?.utf8.count ?? 0) <= 4_000, (event.user?.utf8.count ?? 0) <= 64 else {
                throw .invalid("door \(door)'s event \(event.sequence) is malformed (sequence, 32-byte hashes, sizes)")
            }
        }
        return try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> EventUpload in
                // The door's row, locked: one upload per door at a time.
                let doorRow = try connection.execute("SELECT revoked_at IS NOT NULL FROM doors WHERE id = $1 FOR UPDATE", [String(door)])
                guard !doorRow.isEmpty else { throw .unknownDoor(id: door) }
                guard try !Self.bool(doorRow, "revoked") else { throw .revokedDoor(id: door) }
                var upload = EventUpload()
                for event in events.sorted(by: { $0.sequence < $1.sequence }) {
                    let held = try connection.execute("SELECT hash FROM door_events WHERE door_id = $1 AND sequence = $2",
                                                      [String(door), String(event.sequence)])
                    if let text = held.first?[0] {
                        guard ByteaText.decode(text) == event.hash else { throw .conflictingEvent(door: door, sequence: event.sequence) }
                        upload.duplicates += 1
                        continue
                    }
                    let before = try connection.execute("""
                        SELECT sequence, hash FROM door_events WHERE door_id = $1 AND sequence < $2 ORDER BY sequence DESC LIMIT 1
                        """, [String(door), String(event.sequence)])
                    let previousSequence = before.first?[0].flatMap { Int64($0) } ?? 0
                    if previousSequence == event.sequence - 1, let text = before.first?[1] {
                        guard ByteaText.decode(text) == event.previousHash else { throw .brokenEventChain(door: door, sequence: event.sequence) }
                    } else if previousSequence + 1 <= event.sequence - 1 {
                        upload.gaps.append((previousSequence + 1)...(event.sequence - 1))
                    }
                    let after = try connection.execute("SELECT previous_hash FROM door_events WHERE door_id = $1 AND sequence = $2",
                                                       [String(door), String(event.sequence + 1)])
                    if let text = after.first?[0], ByteaText.decode(text) != event.hash {
                        throw .brokenEventChain(door: door, sequence: event.sequence + 1)
                    }
                    // ON CONFLICT DO NOTHING as well as the door's row lock: a (door, sequence) is
                    // never written twice; a row there now came from outside the hub, so refused.
                    let written = try connection.execute("""
                        INSERT INTO door_events (door_id, sequence, time, event, user_name, detail, previous_hash, hash)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                        ON CONFLICT (door_id, sequence) DO NOTHING RETURNING sequence
                        """, [String(door), String(event.sequence), String(event.time), event.event, event.user, event.detail,
                              ByteaText.encode(event.previousHash), ByteaText.encode(event.hash)])
                    guard !written.isEmpty else { throw .conflictingEvent(door: door, sequence: event.sequence) }
                    upload.inserted += 1
                }
                // A gap this upload filled is no gap: report only what is still missing.
                var stillMissing: [ClosedRange<Int64>] = []
                for gap in upload.gaps {
                    let rows = try connection.execute("""
                        SELECT min(s), max(s) FROM generate_series($2::bigint, $3::bigint) AS s
                        WHERE NOT EXISTS (SELECT 1 FROM door_events WHERE door_id = $1 AND sequence = s)
                        """, [String(door), String(gap.lowerBound), String(gap.upperBound)])
                    if let low = rows.first?[0].flatMap({ Int64($0) }), let high = rows.first?[1].flatMap({ Int64($0) }) { stillMissing.append(low...high) }
                }
                upload.gaps = stillMissing
                try connection.execute("UPDATE doors SET last_seen = now() WHERE id = $1", [String(door)])
                return upload
            }
        }
    }

    /// The door's events the hub holds, oldest first (for "who came in", and the tests).
    public func events(door: Int64, after sequence: Int64 = 0, limit: Int = 1_000) throws(HubStoreError) -> [DoorEvent] {
        try locked { connection throws(HubStoreError) in
            let rows = try connection.execute("""
                SELECT sequence, time, event, user_name, detail, previous_hash, hash FROM door_events
                WHERE door_id = $1 AND sequence > $2 ORDER BY sequence LIMIT $3
                """, [String(door), String(sequence), String(max(1, min(limit, 10_000)))])
            var events: [DoorEvent] = []
            for row in rows {
                guard row.count == 7, let sequence = row[0].flatMap({ Int64($0) }), let time = row[1].flatMap({ Double($0) }),
                      let event = row[2], let previous = row[5].flatMap(ByteaText.decode), let hash = row[6].flatMap(ByteaText.decode) else {
                    throw .unexpectedReply("an event row")
                }
                events.append(DoorEvent(sequence: sequence, time: time, event: event, user: row[3], detail: row[4],
                                        previousHash: previous, hash: hash))
            }
            return events
        }
    }

    // MARK: Reading replies

    private static func int64(_ rows: [[String?]], _ what: String) throws(HubStoreError) -> Int64 {
        guard let text = rows.first?.first ?? nil, let value = Int64(text) else { throw .unexpectedReply(what) }
        return value
    }

    private static func int(_ rows: [[String?]], _ what: String) throws(HubStoreError) -> Int {
        Int(try int64(rows, what))
    }

    private static func bool(_ rows: [[String?]], _ what: String) throws(HubStoreError) -> Bool {
        guard let text = rows.first?.first ?? nil, text == "t" || text == "f" else { throw .unexpectedReply(what) }
        return text == "t"
    }
}

/// One connection of the pool, opened when first needed, used by one caller at a time.
final class PooledConnection: Sendable {
    private let connection: Mutex<PostgresConnection?>

    init(_ opened: sending PostgresConnection?) {
        connection = Mutex(opened)
    }

    /// `body` once the connection is free.
    func waiting<T: Sendable>(_ conninfo: String, _ body: (PostgresConnection) throws(HubStoreError) -> T) throws(HubStoreError) -> T {
        try connection.withLock { (connection: inout PostgresConnection?) throws(HubStoreError) -> T in
            try body(try Self.open(&connection, conninfo))
        }
    }

    /// `body`'s outcome when the connection was free; nil (and `body` not run) when it was not.
    func ifFree<T: Sendable>(_ conninfo: String, _ body: (PostgresConnection) throws(HubStoreError) -> T) -> Result<T, HubStoreError>? {
        connection.withLockIfAvailable { (connection: inout PostgresConnection?) -> Result<T, HubStoreError> in
            do throws(HubStoreError) { return .success(try body(try Self.open(&connection, conninfo))) } catch { return .failure(error) }
        }
    }

    private static func open(_ connection: inout PostgresConnection?, _ conninfo: String) throws(HubStoreError) -> PostgresConnection {
        if let connection { return connection }
        let opened = try PostgresConnection(conninfo: conninfo)
        connection = opened
        return opened
    }
}
