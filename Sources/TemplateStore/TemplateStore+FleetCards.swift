import Foundation

/// What applying one card from the hub did.
public enum ReplicatedCardOutcome: Sendable, Equatable {
    case added
    /// The user's card with this label changed (another number, switched off, new dates).
    case replaced
    case unchanged
    /// The store has no such user (removed here, or not yet arrived): nothing written.
    case noSuchUser
    /// A card of this door's own user has that number: kept, the hub's not stored.
    case taken(user: String, label: String)
}

/// Cards managed at the fleet's hub (`fpmod hub add-card`): kept under the hash the hub sent,
/// the fleet's card key's (`FleetTemplateKey.cardHash`); the number never reaches the door.
extension TemplateStore {
    /// Puts a card that came from the hub, in place of the user's card with the same label.
    /// Call it inside the transaction that applies the hub's batch.
    public func putReplicatedCard(user: UserName, label: CardLabel, kind: CardNumber.Kind, hash: [UInt8], enabled: Bool,
                                  validFrom: Int64?, validUntil: Int64?, at time: Date = Date()) throws -> ReplicatedCardOutcome {
        try transaction {
            guard let owner = try self.user(named: user.text) else { return .noSuchUser }
            let holder = try connection.query("""
                SELECT users.name, cards.label FROM cards JOIN users ON users.id = cards.user_id WHERE cards.number_hash = ?
                """, [.blob(hash)]).first
            if let holder, holder[0].string != user.text || holder[1].string != label.text {
                return .taken(user: holder[0].string ?? "", label: holder[1].string ?? "")
            }
            let values: [SQLValue] = [.text(kind.rawValue), .blob(hash), .integer(enabled ? 1 : 0),
                                      validFrom.map { .integer($0) } ?? .null, validUntil.map { .integer($0) } ?? .null]
            if let same = try cardRow(user: user.text, label: label.text) {
                let unchanged = holder != nil && same.kind == kind && same.enabled == enabled && same.validFrom == validFrom && same.validUntil == validUntil
                if unchanged { return .unchanged }
                try connection.query("""
                    UPDATE cards SET kind = ?, number_hash = ?, enabled = ?, valid_from = ?, valid_until = ? WHERE id = ?
                    """, values + [.integer(same.id)])
                return .replaced
            }
            try connection.query("""
                INSERT INTO cards (kind, number_hash, enabled, valid_from, valid_until, user_id, label, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, values + [.integer(owner.id), .text(label.text), time.storeValue])
            return .added
        }
    }

    /// Removes the user's card with `label` that the hub removed; false when there was none.
    public func deleteReplicatedCard(user: String, label: String) throws -> Bool {
        try transaction {
            guard try self.user(named: user) != nil, try cardRow(user: user, label: label) != nil else { return false }
            try connection.query("DELETE FROM cards WHERE label = ? AND user_id = (SELECT id FROM users WHERE name = ?)", [.text(label), .text(user)])
            return true
        }
    }
}
