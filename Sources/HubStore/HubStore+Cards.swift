import JSONValue
import TemplateStore

extension HubStore {
    /// Adds or replaces a user's card (its number's hash under the fleet's card key); the
    /// change's revision. A number another card has already is refused: one card, one owner.
    /// `replacing` false (a card a door enrolled): a card of that user and label with another
    /// number is refused rather than replaced, since the door did not know of it.
    @discardableResult
    public func putCard(_ card: HubCard, replacing: Bool = true) throws(HubStoreError) -> Int64 {
        try card.check()
        return try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> Int64 in
                guard !(try connection.execute("SELECT 1 FROM users WHERE name = $1 FOR UPDATE", [card.user])).isEmpty else {
                    throw .unknownUser(card.user)
                }
                let holders = try connection.execute("SELECT user_name, label FROM cards WHERE number_hash = $1", [ByteaText.encode(card.numberHash)])
                if let holder = holders.first, holder.count == 2, holder[0] != card.user || holder[1] != card.label {
                    throw .invalid("that card is \(holder[0] ?? "")'s \(holder[1] ?? "") already; remove it there first")
                }
                if !replacing, holders.isEmpty,
                   !(try connection.execute("SELECT 1 FROM cards WHERE user_name = $1 AND label = $2", [card.user, card.label])).isEmpty {
                    throw .invalid("\(card.user) has another card labelled \(card.label) at the hub; give this one another label")
                }
                try connection.execute("""
                    INSERT INTO cards (user_name, label, kind, number_hash, enabled, valid_from, valid_until) VALUES ($1, $2, $3, $4, $5, $6, $7)
                    ON CONFLICT (user_name, label) DO UPDATE SET kind = EXCLUDED.kind, number_hash = EXCLUDED.number_hash,
                        enabled = EXCLUDED.enabled, valid_from = EXCLUDED.valid_from, valid_until = EXCLUDED.valid_until
                    """, [card.user, card.label, card.kind.rawValue, ByteaText.encode(card.numberHash), card.enabled ? "true" : "false",
                          card.validFrom.map(String.init), card.validUntil.map(String.init)])
                return try Self.recordChange(connection, kind: .card, key: card.changeKey, state: card.json)
            }
        }
    }

    /// Removes a user's card and leaves a tombstone; nil when there was none.
    @discardableResult
    public func deleteCard(user: String, label: String) throws(HubStoreError) -> Int64? {
        try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> Int64? in
                let deleted = try connection.execute("DELETE FROM cards WHERE user_name = $1 AND label = $2 RETURNING label", [user, label])
                guard !deleted.isEmpty else { return nil }
                return try Self.recordChange(connection, kind: .card, key: HubCard.changeKey(user: user, label: label), state: nil)
            }
        }
    }

    /// A door's change to a card the hub has (switched off or on, new dates): only what the door
    /// changed, and only while the hub's card of that user and label is still that number; the
    /// change's revision, or nil when the hub has no such card now (removed, or given another
    /// number, there: the door hears of that at its next pull).
    public func updateCard(_ change: HubCardChange) throws(HubStoreError) -> Int64? {
        try change.check()
        return try changeCardState(user: change.user, label: change.label, numberHash: change.numberHash, enabled: change.enabled,
                                   validity: change.validity)
    }

    /// The hub's own change to a user's card, keyed by user and label (the hub's CLI and the
    /// fleet console know no number): switched on or off and/or new dates (nil: left as it is;
    /// `validity` replaces both bounds). The whole card is recorded, as `putCard` records it,
    /// since a door replaces its card with what a change carries; nil when the hub has no such
    /// card.
    @discardableResult
    public func setCardState(user: String, label: String, enabled: Bool? = nil, validity: CardValidity? = nil) throws(HubStoreError) -> Int64? {
        try HubUser.checked { () throws(NameError) in
            _ = try UserName(validating: user)
            _ = try CardLabel(validating: label)
        }
        if let from = validity?.from, let until = validity?.until, until <= from { throw .invalid("a card's validity ends before it starts") }
        return try changeCardState(user: user, label: label, numberHash: nil, enabled: enabled, validity: validity)
    }

    /// Switches and/or dates the card of that user and label (and, from a door, only while it is
    /// still that number), then records the whole card; nil when there is no such card. Bounds
    /// that would cross (the hub dated one side, a door the other) roll the change back.
    private func changeCardState(user: String, label: String, numberHash: [UInt8]?, enabled: Bool?,
                                 validity: CardValidity?) throws(HubStoreError) -> Int64? {
        try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> Int64? in
                let rows = try connection.execute("""
                    UPDATE cards SET enabled = COALESCE($4::boolean, enabled),
                        valid_from = CASE WHEN $5::boolean THEN $6::bigint ELSE valid_from END,
                        valid_until = CASE WHEN $5::boolean THEN $7::bigint ELSE valid_until END
                    WHERE user_name = $1 AND label = $2 AND ($3::bytea IS NULL OR number_hash = $3::bytea)
                    RETURNING kind, number_hash, enabled, valid_from, valid_until
                    """, [user, label, numberHash.map(ByteaText.encode), enabled.map { $0 ? "true" : "false" },
                          validity == nil ? "false" : "true", validity?.from.map(String.init), validity?.until.map(String.init)])
                guard let row = rows.first else { return nil }
                guard row.count == 5, let kind = row[0].flatMap(CardNumber.Kind.init(rawValue:)), let hash = row[1].flatMap(ByteaText.decode) else {
                    throw .unexpectedReply("a card row")
                }
                let card = HubCard(user: user, label: label, kind: kind, numberHash: hash, enabled: row[2] == "t",
                                   validFrom: row[3].flatMap { Int64($0) }, validUntil: row[4].flatMap { Int64($0) })
                if let from = card.validFrom, let until = card.validUntil, until <= from {
                    throw .invalid("that card's validity would end before it starts; nothing was changed")
                }
                return try Self.recordChange(connection, kind: .card, key: card.changeKey, state: card.json)
            }
        }
    }

    /// A door's removal of a card: removed (and every door follows) only when the hub's card of
    /// that user and label is still that number; nil when it has no such card now.
    public func deleteCard(user: String, label: String, numberHash: [UInt8]) throws(HubStoreError) -> Int64? {
        try locked { connection throws(HubStoreError) in
            try connection.transaction { () throws(HubStoreError) -> Int64? in
                let deleted = try connection.execute("DELETE FROM cards WHERE user_name = $1 AND label = $2 AND number_hash = $3 RETURNING label",
                                                     [user, label, ByteaText.encode(numberHash)])
                guard !deleted.isEmpty else { return nil }
                return try Self.recordChange(connection, kind: .card, key: HubCard.changeKey(user: user, label: label), state: nil)
            }
        }
    }

    /// The user's cards the hub holds, by label.
    public func cards(of user: String) throws(HubStoreError) -> [HubCard] {
        try locked { connection throws(HubStoreError) in
            let rows = try connection.execute("""
                SELECT label, kind, number_hash, enabled, valid_from, valid_until FROM cards WHERE user_name = $1 ORDER BY label
                """, [user])
            var cards: [HubCard] = []
            for row in rows {
                guard row.count == 6, let label = row[0], let kind = row[1].flatMap(CardNumber.Kind.init(rawValue:)),
                      let hash = row[2].flatMap(ByteaText.decode) else {
                    throw .unexpectedReply("a card row")
                }
                cards.append(HubCard(user: user, label: label, kind: kind, numberHash: hash, enabled: row[3] == "t",
                                     validFrom: row[4].flatMap { Int64($0) }, validUntil: row[5].flatMap { Int64($0) }))
            }
            return cards
        }
    }

    /// Tombstones for every card of `user` in the change log, inside the caller's transaction
    /// (the rows went with the user), as `tombstoneFingers` does for fingers.
    static func tombstoneCards(_ connection: PostgresConnection, of user: String) throws(HubStoreError) {
        let keys = try connection.execute("""
            SELECT key FROM changes WHERE kind = 'card' AND NOT tombstone AND payload->>'user' = $1 ORDER BY revision
            """, [user]).compactMap { $0.first ?? nil }
        for key in keys { _ = try recordChange(connection, kind: .card, key: key, state: nil) }
    }
}
