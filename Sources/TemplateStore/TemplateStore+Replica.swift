import AccessPolicy
import Foundation

/// A user as the fleet hub sends one: every field a door keeps about a person, each already
/// checked by its type (the PIN only as its Argon2 hash, never the PIN).
public struct ReplicatedUser: Sendable, Equatable {
    public var name: UserName
    public var displayName: DisplayName
    public var role: Role
    public var fingerprintUnlock: Bool
    public var pinHash: String?
    public var verifyMode: VerifyMode?
    public var schedule: RuleName?
    public var validFrom: Int64?
    public var validUntil: Int64?
    public var usesLeft: Int?

    public init(name: UserName, displayName: DisplayName, role: Role, fingerprintUnlock: Bool, pinHash: String?,
                verifyMode: VerifyMode?, schedule: RuleName?, validFrom: Int64?, validUntil: Int64?, usesLeft: Int?) {
        self.name = name
        self.displayName = displayName
        self.role = role
        self.fingerprintUnlock = fingerprintUnlock
        self.pinHash = pinHash
        self.verifyMode = verifyMode
        self.schedule = schedule
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.usesLeft = usesLeft
    }
}

extension TemplateStore {
    /// The key of the hub revision this store has applied (absent: it never followed a hub).
    static let hubRevisionKey = "hub.revision"

    /// The last hub revision applied to this store; 0 when it never followed a hub.
    public func hubRevision() throws -> Int64 {
        Int64(try value(forKey: Self.hubRevisionKey) ?? "") ?? 0
    }

    /// Records the hub revision this store now reflects. Called inside the transaction that
    /// applied the changes up to it, so the two can never disagree.
    public func setHubRevision(_ revision: Int64) throws {
        try setValue(String(revision), forKey: Self.hubRevisionKey)
    }

    /// Adds the user or makes an existing one exactly `user` (one statement: a first sync of
    /// 10,000 users is 10,000 statements, not 60,000). The user's fingers and cards stay. A
    /// schedule must exist; a validity must not end before it starts.
    public func putReplicatedUser(_ user: ReplicatedUser, at time: Date = Date()) throws {
        if let pinHash = user.pinHash, !pinHash.hasPrefix("$argon2") { throw StoreError.crypto(detail: "a PIN hash that is not Argon2") }
        if let from = user.validFrom, let until = user.validUntil, until <= from { throw StoreError.invalidValidity(from: from, until: until) }
        try transaction {
            if let schedule = user.schedule,
               try connection.query("SELECT 1 FROM schedules WHERE name = ?", [.text(schedule.text)]).first == nil {
                throw StoreError.unknownSchedule(schedule.text, known: try scheduleNames())
            }
            try connection.query("""
                INSERT INTO users (name, display_name, role, fingerprint_unlock, created_at, pin_hash, verify_mode, schedule,
                    valid_from, valid_until, uses_left, from_hub)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
                ON CONFLICT (name) DO UPDATE SET display_name = excluded.display_name, role = excluded.role,
                    fingerprint_unlock = excluded.fingerprint_unlock, pin_hash = excluded.pin_hash,
                    verify_mode = excluded.verify_mode, schedule = excluded.schedule, valid_from = excluded.valid_from,
                    valid_until = excluded.valid_until, uses_left = excluded.uses_left, from_hub = 1
                """, [.text(user.name.text), .text(user.displayName.text), .text(user.role.rawValue),
                      .integer(user.fingerprintUnlock ? 1 : 0), time.storeValue, user.pinHash.sql, user.verifyMode.map { .text($0.rawValue) } ?? .null,
                      user.schedule.map { .text($0.text) } ?? .null, user.validFrom.map { .integer($0) } ?? .null,
                      user.validUntil.map { .integer($0) } ?? .null, user.usesLeft.sql])
        }
    }
}

/// An audit record with its place in the chain, as a door uploads it to its hub.
public struct ChainedAuditRecord: Sendable, Equatable {
    public var id: Int64
    public var time: Double
    public var event: String
    public var user: String?
    public var detail: String?
    public var previousHash: [UInt8]
    public var hash: [UInt8]

    public var previousHashHex: String { Crypto.hex(previousHash) }
    public var hashHex: String { Crypto.hex(hash) }
}

extension TemplateStore {
    /// The key of the newest audit record the hub has confirmed it keeps.
    static let hubEventsSentKey = "hub.eventsSent"

    /// The chained audit records after `id`, oldest first, at most `limit` (records written
    /// before the chain began have no hash and are not sent: the hub checks the chain).
    public func chainedAuditRecords(after id: Int64, limit: Int) throws -> [ChainedAuditRecord] {
        try locked {
            try connection.query("""
                SELECT id, time, event, user, detail, prev_hash, hash FROM audit
                WHERE id > ? AND hash IS NOT NULL AND prev_hash IS NOT NULL ORDER BY id LIMIT ?
                """, [.integer(id), .integer(Int64(limit))]).compactMap { row in
                guard let id = row[0].int64, let time = row[1].double, let event = row[2].string,
                      let previous = row[5].bytes, let hash = row[6].bytes else { return nil }
                return ChainedAuditRecord(id: id, time: time, event: event, user: row[3].string, detail: row[4].string,
                                          previousHash: previous, hash: hash)
            }
        }
    }

    /// The newest audit record the hub confirmed (0: none yet).
    public func hubEventsSent() throws -> Int64 {
        Int64(try value(forKey: Self.hubEventsSentKey) ?? "") ?? 0
    }

    public func setHubEventsSent(_ id: Int64) throws {
        try setValue(String(id), forKey: Self.hubEventsSentKey)
    }
}

/// The door mode the hub last set for this door, with the revision that set it.
public struct HubDoorMode: Sendable, Equatable {
    public var mode: String
    public var revision: Int64

    public init(mode: String, revision: Int64) {
        self.mode = mode
        self.revision = revision
    }
}

extension TemplateStore {
    static let hubDoorModeKey = "hub.doorMode"
    static let hubDoorModeAppliedKey = "hub.doorModeApplied"

    /// The mode the hub last set for this door (applied with the batch that carried it).
    public func hubDoorMode() throws -> HubDoorMode? {
        guard let text = try value(forKey: Self.hubDoorModeKey) else { return nil }
        let parts = text.split(separator: " ")
        guard parts.count == 2, let revision = Int64(parts[1]) else { return nil }
        return HubDoorMode(mode: String(parts[0]), revision: revision)
    }

    public func setHubDoorMode(_ mode: HubDoorMode) throws {
        try setValue("\(mode.mode) \(mode.revision)", forKey: Self.hubDoorModeKey)
    }

    /// The revision of the hub's door mode the service last put into effect (a local change
    /// after it wins until the hub sets the mode again).
    public func hubDoorModeApplied() throws -> Int64 {
        Int64(try value(forKey: Self.hubDoorModeAppliedKey) ?? "") ?? 0
    }

    public func setHubDoorModeApplied(_ revision: Int64) throws {
        try setValue(String(revision), forKey: Self.hubDoorModeAppliedKey)
    }
}
