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
            // A change made here to this card and not at the hub yet is newer than this one, which
            // the door had not seen when it made it: it stays (a removed card is not put back) and
            // goes up. A card of another number under that label is the hub's new one: the edit of
            // the old card is moot.
            if let edit = try connection.query("SELECT number_hash FROM card_edits_for_hub WHERE user_name = ? AND label = ?",
                                               [.text(user.text), .text(label.text)]).first {
                if edit[0].bytes == hash { return .unchanged }
                try connection.query("DELETE FROM card_edits_for_hub WHERE user_name = ? AND label = ?", [.text(user.text), .text(label.text)])
            }
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
            // The hub removed it: an edit made here of that card has nothing left to change.
            try connection.query("DELETE FROM card_edits_for_hub WHERE user_name = ? AND label = ?", [.text(user), .text(label)])
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

    /// Notes that the hub took the card, or (`atHub` false) refused it for good: then it stays
    /// at this door, is not sent again, and a change made here to it stays here too.
    public func markCardAtHub(user: String, label: String, atHub: Bool = true) throws {
        try locked {
            try connection.query("UPDATE cards SET hub_state = ? WHERE label = ? AND user_id = (SELECT id FROM users WHERE name = ?)",
                                 [.integer(atHub ? CardForHub.State.atHub.rawValue : CardForHub.State.stays.rawValue), .text(label), .text(user)])
        }
    }

    /// What a door changed of a card the hub has.
    public enum CardEdit: Sendable {
        case switched, dated, removed
    }

    /// Inside the transaction that changes or removes the card: when the hub has it (a user of the
    /// hub's card that came from there or went up), notes the change to go up, so every door
    /// follows; true then. Changes add up until sent (switched, then dated: both go); a removal
    /// carries the number's hash so the hub removes that card only, not one it has given the
    /// label since.
    func noteCardEditForHub(user: String, label: String, edit: CardEdit) throws -> Bool {
        guard let row = try connection.query("""
            SELECT c.number_hash FROM cards c JOIN users u ON u.id = c.user_id
            WHERE u.name = ? AND c.label = ? AND c.hub_state = ? AND u.from_hub = 1
            """, [.text(user), .text(label), .integer(CardForHub.State.atHub.rawValue)]).first, let hash = row[0].bytes else { return false }
        let flags: [SQLValue] = [edit == .removed, edit == .switched, edit == .dated].map { .integer($0 ? 1 : 0) }
        try connection.query("""
            INSERT INTO card_edits_for_hub (user_name, label, number_hash, removed, switched, dated) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_name, label) DO UPDATE SET number_hash = excluded.number_hash, removed = excluded.removed,
                switched = max(switched, excluded.switched), dated = max(dated, excluded.dated), version = version + 1
            """, [.text(user), .text(label), .blob(hash)] + flags)
        return true
    }

    /// Changes made here to cards the hub has, not sent yet: oldest first, at most `limit`; a
    /// change carries what changed as the card is now.
    public func cardEditsForHub(limit: Int) throws -> [CardEditForHub] {
        try locked {
            try connection.query("""
                SELECT e.user_name, e.label, e.number_hash, e.removed, e.version, e.switched, e.dated, c.id, c.enabled, c.valid_from, c.valid_until
                FROM card_edits_for_hub e LEFT JOIN users u ON u.name = e.user_name
                LEFT JOIN cards c ON c.user_id = u.id AND c.label = e.label AND c.number_hash = e.number_hash
                ORDER BY e.rowid LIMIT ?
                """, [.integer(Int64(limit))]).compactMap { row in
                guard let user = row[0].string, let label = row[1].string, let hash = row[2].bytes, let version = row[4].int64 else { return nil }
                let change: CardEditForHub.Change
                if row[3].int == 1 {
                    change = .removed
                } else if row[7].int64 != nil {
                    change = .changed(enabled: row[5].int == 1 ? row[8].int == 1 : nil,
                                      validity: row[6].int == 1 ? CardValidity(from: row[9].int64, until: row[10].int64) : nil)
                } else {
                    // Changed, then gone with its user: the card's removal was not asked for here.
                    change = .nothing
                }
                return CardEditForHub(user: user, label: label, numberHash: hash, version: version, change: change)
            }
        }
    }

    /// Notes that the hub has heard the change (took it, or had no such card): done, unless the
    /// card was changed here again since it was read (`version`), which then goes up in turn.
    public func markCardEditAtHub(_ edit: CardEditForHub) throws {
        try locked {
            try connection.query("DELETE FROM card_edits_for_hub WHERE user_name = ? AND label = ? AND version = ?",
                                 [.text(edit.user), .text(edit.label), .integer(edit.version)])
        }
    }
}

/// A change made at this door to a card the hub has, as it goes up: what changed, as the card is
/// now, and the number's hash that names which card it was.
public struct CardEditForHub: Sendable, Equatable {
    public var user: String
    public var label: String
    public var numberHash: [UInt8]
    /// Which change of the card this is (`markCardEditAtHub`).
    public var version: Int64
    public var change: Change

    public enum Change: Sendable, Equatable {
        /// Removed here: removed at the hub, if the hub's card of that label is still this one.
        case removed
        /// Switched off or on (`enabled`), given dates (`validity`), or both; nil: not changed here.
        case changed(enabled: Bool?, validity: CardValidity?)
        /// Changed here, then gone with its user: nothing to send.
        case nothing
    }
}

/// A card's own validity, UTC seconds (`until` exclusive); nil: no bound on that side.
public struct CardValidity: Sendable, Equatable {
    public var from: Int64?
    public var until: Int64?

    public init(from: Int64?, until: Int64?) {
        self.from = from
        self.until = until
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
