import Foundation

/// A finger enrolled at this door for a user of the fleet, not yet at the hub (or replaced here
/// since): what `FleetLink` uploads.
public struct FingerForHub: Sendable, Equatable {
    public var user: String
    public var label: String
    public var template: [UInt8]
    public var quality: Int
    public var isDuress: Bool
    /// SHA-256 (hex) of the template: what the hub is told it holds once it took it.
    public var digest: String
}

/// What applying one finger from the hub did.
public enum ReplicatedFingerOutcome: Sendable, Equatable {
    /// The store already had this template under this user and label (a finger this door
    /// enrolled, back from the hub): only marked as the hub's.
    case unchanged
    case added(slot: Int)
    /// The user's finger with this label held another template: replaced in its slot.
    case replaced(slot: Int)
    /// The store has no such user (removed here, or not yet arrived): nothing written.
    case noSuchUser
    /// Every slot below the reader's capacity is taken.
    case full
}

extension TemplateStore {
    private static let fleetTemplateKeyName = "fleet-template-key"

    /// The fleet's template key as the hub gave it; nil before the door fetched it. Kept sealed
    /// under the store key and never in a backup (a backup is not a door of the fleet).
    public func fleetTemplateKey() throws -> FleetTemplateKey? {
        guard let bytes = try metaSecret(named: Self.fleetTemplateKeyName) else { return nil }
        guard let key = FleetTemplateKey(bytes: bytes) else { throw StoreError.undecryptable(what: "the fleet's template key (wrong length)") }
        return key
    }

    /// Keeps the fleet's key; a store without a card yet takes the fleet's card key as its own,
    /// so its cards and the hub's are hashed alike (one lookup, and they can travel).
    public func setFleetTemplateKey(_ key: FleetTemplateKey) throws {
        try transaction {
            try setMetaSecret(key.bytes, named: Self.fleetTemplateKeyName)
            if try metaSecret(named: Self.hashKeyName) == nil { try setMetaSecret(key.cardHashKey, named: Self.hashKeyName) }
        }
    }

    /// Fingers of the hub's users whose template the hub does not hold yet, oldest first.
    /// A local user's fingers (a user added at this door alone) stay at this door.
    public func fingersForHub(limit: Int) throws -> [FingerForHub] {
        try transaction {
            let rows = try connection.query("""
                SELECT f.slot, u.name, f.label, f.template_digest, f.quality, f.duress FROM fingers f JOIN users u ON u.id = f.user_id
                WHERE u.from_hub = 1 AND (f.hub_digest IS NULL OR f.hub_digest != f.template_digest) ORDER BY f.id LIMIT ?
                """, [.integer(Int64(max(1, limit)))])
            return try rows.compactMap { row in
                guard let slot = row[0].int, let user = row[1].string, let label = row[2].string, let digest = row[3].string else { return nil }
                return FingerForHub(user: user, label: label, template: try template(atSlot: slot), quality: row[4].int ?? 0,
                                    isDuress: row[5].int == 1, digest: digest)
            }
        }
    }

    /// Records that the hub holds `digest` for the user's finger (taken by the hub, or refused
    /// for good: either way it is not sent again until the template changes here).
    public func markFingerAtHub(user: String, label: String, digest: String) throws {
        try locked {
            try connection.query("""
                UPDATE fingers SET hub_digest = ? WHERE label = ? AND user_id = (SELECT id FROM users WHERE name = ?)
                """, [.text(digest), .text(label), .text(user)])
        }
    }

    /// Puts a finger that came from the hub: kept with the hub's mark, in the lowest free slot
    /// below `capacity` (a host reader's library), or in place of the user's finger with the
    /// same label. Call it inside the transaction that applies the hub's batch.
    public func putReplicatedFinger(user: UserName, label: FingerLabel, template: [UInt8], quality: Int, duress: Bool,
                                    capacity: Int, at time: Date = Date()) throws -> ReplicatedFingerOutcome {
        let digest = Crypto.sha256Hex(template)
        return try transaction {
            guard let owner = try self.user(named: user.text) else { return .noSuchUser }
            if let same = try fingers(of: user.text).first(where: { $0.label == label.text }) {
                if same.templateDigest == digest {
                    try markFingerAtHub(user: user.text, label: label.text, digest: digest)
                    return .unchanged
                }
                try connection.query("""
                    UPDATE fingers SET template = ?, template_digest = ?, quality = ?, duress = ?, enrolled_at = ?, hub_digest = ? WHERE id = ?
                    """, [.blob(seal(template, purpose: Self.fingerPurpose(slot: same.slot))), .text(digest), .integer(Int64(quality)),
                          .integer(duress ? 1 : 0), time.storeValue, .text(digest), .integer(same.id)])
                return .replaced(slot: same.slot)
            }
            let taken = try occupiedSlots().union(slotsHeldByIntents())
            guard let slot = (0..<capacity).first(where: { !taken.contains($0) }) else { return .full }
            try connection.query("""
                INSERT INTO fingers (user_id, label, slot, template, template_digest, quality, enrolled_at, duress, enrolled_slot, hub_digest)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.integer(owner.id), .text(label.text), .integer(Int64(slot)), .blob(seal(template, purpose: Self.fingerPurpose(slot: slot))),
                      .text(digest), .integer(Int64(quality)), time.storeValue, .integer(duress ? 1 : 0), .integer(Int64(slot)), .text(digest)])
            return .added(slot: slot)
        }
    }

    /// Removes the user's finger with `label` that the hub removed; false when there was none.
    /// A finger enrolled here and never at the hub is the hub's to remove too: the hub names it.
    public func deleteReplicatedFinger(user: String, label: String) throws -> Bool {
        try transaction {
            guard try self.user(named: user) != nil, let finger = try fingers(of: user).first(where: { $0.label == label }) else { return false }
            try deleteFinger(atSlot: finger.slot)
            return true
        }
    }
}
