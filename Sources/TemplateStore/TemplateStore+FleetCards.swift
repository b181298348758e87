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
            // A card enrolled here under that label and not at the hub yet is the door's own,
            // not an older copy of the hub's: it moves to a free label (and still goes up)
            // rather than being replaced and lost.
            if holder == nil, let own = try connection.query("""
                SELECT cards.id FROM cards JOIN users ON users.id = cards.user_id WHERE users.name = ? AND cards.label = ? AND cards.hub_state = 1
                """, [.text(user.text), .text(label.text)]).first?[0].int64 {
                let moved = try freeLabel(like: label.text, for: user.text)
                try connection.query("UPDATE cards SET label = ? WHERE id = ?", [.text(moved), .integer(own)])
                try appendAudit(event: "card-renamed", user: user.text,
                                detail: "card \(label.text) enrolled here is now \(moved): the fleet's hub gave \(user.text) another card named \(label.text)")
            }
            if let same = try cardRow(user: user.text, label: label.text) {
                let unchanged = holder != nil && same.kind == kind && same.enabled == enabled && same.validFrom == validFrom && same.validUntil == validUntil
                if unchanged { return .unchanged }
                try connection.query("""
                    UPDATE cards SET kind = ?, number_hash = ?, enabled = ?, valid_from = ?, valid_until = ?, hub_state = 2 WHERE id = ?
                    """, values + [.integer(same.id)])
                return .replaced
            }
            try connection.query("""
                INSERT INTO cards (kind, number_hash, enabled, valid_from, valid_until, user_id, label, added_at, hub_state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 2)
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

    /// "desk-2", "desk-3", …: the first label of `user` free here, made from `label`.
    private func freeLabel(like label: String, for user: String) throws -> String {
        let taken = Set(try cards(of: user).map(\.label))
        let stem = String(label.prefix(28))
        for n in 2...(taken.count + 2) {
            let text = "\(stem)-\(n)"
            if !taken.contains(text), (try? CardLabel(validating: text)) != nil { return text }
        }
        throw StoreError.cardLabelTaken(user: user, label: label)
    }

    /// Whether `user` came from the fleet's hub (a card or finger enrolled here for them goes up).
    func isFromHub(_ user: String) throws -> Bool {
        try connection.query("SELECT from_hub FROM users WHERE name = ?", [.text(user)]).first?[0].int == 1
    }

    /// Cards enrolled here for users of the hub, hashed under the fleet's card key, that the hub
    /// does not have yet: oldest first, at most `limit`.
    public func cardsForHub(limit: Int) throws -> [CardForHub] {
        try locked {
            try connection.query("""
                SELECT u.name, c.label, c.kind, c.number_hash, c.enabled, c.valid_from, c.valid_until FROM cards c JOIN users u ON u.id = c.user_id
                WHERE c.hub_state = 1 AND u.from_hub = 1 ORDER BY c.id LIMIT ?
                """, [.integer(Int64(limit))]).compactMap { row in
                guard let user = row[0].string, let label = row[1].string, let kind = row[2].string.flatMap(CardNumber.Kind.init(rawValue:)),
                      let hash = row[3].bytes else { return nil }
                return CardForHub(user: user, label: label, kind: kind, numberHash: hash, enabled: row[4].int == 1,
                                  validFrom: row[5].int64, validUntil: row[6].int64)
            }
        }
    }

    /// Notes that the hub has the card (it took it, or refused it for good: not sent again).
    public func markCardAtHub(user: String, label: String) throws {
        try locked {
            try connection.query("UPDATE cards SET hub_state = 2 WHERE label = ? AND user_id = (SELECT id FROM users WHERE name = ?)",
                                 [.text(label), .text(user)])
        }
    }
}

/// A card enrolled at this door for a user of the hub, as it goes up: its number's hash under
/// the fleet's card key, never the number.
public struct CardForHub: Sendable, Equatable {
    public var user: String
    public var label: String
    public var kind: CardNumber.Kind
    public var numberHash: [UInt8]
    public var enabled: Bool
    public var validFrom: Int64?
    public var validUntil: Int64?

    /// The kinds that travel: a DESFire card is keyed to the store that enrolled it.
    public static let travelling: Set<CardNumber.Kind> = [.wiegand, .nfcUID]

    /// `cards.hub_state`.
    enum State: Int64 {
        case stays = 0, toSend = 1, atHub = 2
    }
}
