import Foundation

/// A card of a user: never its number (see `CardNumber`), only what an admin needs to manage it.
public struct Card: Equatable, Sendable {
    public var id: Int64
    public var user: String
    public var label: String
    public var kind: CardNumber.Kind
    public var enabled: Bool
    public var addedAt: Date
    /// The card's own validity, UTC seconds (`validUntil` exclusive); nil: no bound.
    public var validFrom: Int64? = nil
    public var validUntil: Int64? = nil

    /// Whether the card's own validity covers `utcSeconds`.
    public func isValid(atUTC utcSeconds: Int64) -> Bool {
        (validFrom.map { utcSeconds >= $0 } ?? true) && (validUntil.map { utcSeconds < $0 } ?? true)
    }
}

/// Cards as credentials: added, switched on and off and deleted one by one, each change in the
/// audit log in the same transaction (a change without its audit row never lands).
extension TemplateStore {
    private static let cardColumns = "cards.id, users.name, cards.label, cards.kind, cards.enabled, cards.added_at, cards.valid_from, cards.valid_until"
    private static let hashContext = "fpmodcrd"

    private static func card(from row: [SQLValue]) -> Card {
        Card(id: row[0].int64 ?? 0, user: row[1].string ?? "", label: row[2].string ?? "",
             kind: CardNumber.Kind(rawValue: row[3].string ?? "") ?? .wiegand, enabled: row[4].int64 == 1,
             addedAt: Date(storeValue: row[5]), validFrom: row[6].int64, validUntil: row[7].int64)
    }

    static let hashKeyName = "card-hash-key"

    /// The key of the cards' keyed hashes: random, made with the first card, kept in `store_meta`
    /// sealed under the store key. A key of its own (not one derived from the store key) so a
    /// backup can carry it to a store with another key and the cards still match there.
    /// nil when no card was ever added and `create` is false.
    func cardHashKey(create: Bool) throws -> [UInt8]? {
        if let existing = try metaSecret(named: Self.hashKeyName) { return existing }
        guard create else { return nil }
        let fresh = Crypto.randomBytes(Self.cardHashKeyBytes)
        try setMetaSecret(fresh, named: Self.hashKeyName)
        return fresh
    }

    /// The keyed hash of a card number; nil when the store has no hash key yet (so no card).
    func cardHash(_ number: CardNumber, create: Bool = false) throws -> [UInt8]? {
        try locked { try cardHashKey(create: create).map { Self.cardHash(number, key: $0) } }
    }

    static func cardHash(_ number: CardNumber, key: [UInt8]) -> [UInt8] {
        Crypto.keyedHash(Array(number.canonical.utf8), key: key, context: hashContext)
    }

    /// Every hash a card of this number may be kept under here: the store's own key's, and the
    /// fleet's when the door follows a hub and had cards of its own before (two keys then; one
    /// when the store took the fleet's card key as its own). The store's own comes first.
    func cardHashes(_ number: CardNumber, create: Bool = false) throws -> [[UInt8]] {
        try locked {
            var hashes: [[UInt8]] = []
            if let own = try cardHash(number, create: create) { hashes.append(own) }
            if let fleet = try fleetTemplateKey()?.cardHash(number), !hashes.contains(fleet) { hashes.append(fleet) }
            return hashes
        }
    }

    /// Gives `number` to `user` as `label`; refused if the card is anyone's already.
    @discardableResult
    public func addCard(_ number: CardNumber, label: CardLabel, for user: UserName, by actor: String? = nil,
                        addedAt: Date = Date()) throws -> Card {
        return try transaction {
            let owner = try requireUser(user.text)
            // A card for a user of the fleet's hub is hashed under the fleet's card key, so it
            // can go up to the hub and open every door (`cardsForHub`); any other under this store's own.
            let forHub = try isFromHub(user.text) && CardForHub.travelling.contains(number.kind) ? try fleetTemplateKey() : nil
            guard let hash = try forHub.map({ $0.cardHash(number) }) ?? cardHash(number, create: true) else {
                throw StoreError.crypto(detail: "no key for the cards' hashes")
            }
            if let taken = try cardRows(anyOf: try cardHashes(number)).first {
                throw StoreError.cardTaken(user: taken.user, label: taken.label)
            }
            if try cardRow(user: user.text, label: label.text) != nil {
                throw StoreError.cardLabelTaken(user: user.text, label: label.text)
            }
            try connection.query("""
                INSERT INTO cards (user_id, label, kind, number_hash, enabled, added_at, hub_state) VALUES (?, ?, ?, ?, 1, ?, ?)
                """, [.integer(owner.id), .text(label.text), .text(number.kind.rawValue), .blob(hash), addedAt.storeValue,
                      .integer(forHub == nil ? CardForHub.State.stays.rawValue : CardForHub.State.toSend.rawValue)])
            try appendAudit(event: "card-added", user: user.text, detail: "\(number.kind.rawValue) card \(label.text)" + Self.by(actor))
            guard let card = try cardRow(user: user.text, label: label.text) else { throw StoreError.unknownCard(user: user.text, label: label.text) }
            return card
        }
    }

    /// Every card (of `user` only, when given), by user and label.
    public func cards(of user: String? = nil) throws -> [Card] {
        try locked {
            if let user { _ = try requireUser(user) }
            return try connection.query("""
                SELECT \(Self.cardColumns) FROM cards JOIN users ON users.id = cards.user_id
                WHERE ? IS NULL OR users.name = ? ORDER BY users.name, cards.label
                """, [user.sql, user.sql]).map(Self.card(from:))
        }
    }

    /// The card with this number and its owner, or nil for a card nobody has.
    public func card(matching number: CardNumber) throws -> (card: Card, owner: User)? {
        return try locked {
            let found = try cardRows(anyOf: try cardHashes(number))
            guard let card = found.first else { return nil }
            // Under two keys, a card added here and one from the hub could not see each other.
            if found.count > 1 { throw StoreError.cardOfTwo(found.map { "\($0.user)'s \($0.label)" }) }
            return (card, try requireUser(card.user))
        }
    }

    /// Switches a card on or off; true when the change goes up to the fleet's hub (a card the
    /// hub has: every door follows at the next sync).
    @discardableResult
    public func setCardEnabled(_ enabled: Bool, user: String, label: String, by actor: String? = nil) throws -> Bool {
        try transaction {
            guard try cardRow(user: user, label: label) != nil else { throw StoreError.unknownCard(user: user, label: label) }
            let toHub = try noteCardEditForHub(user: user, label: label, edit: .switched)
            try connection.query("""
                UPDATE cards SET enabled = ? WHERE label = ? AND user_id = (SELECT id FROM users WHERE name = ?)
                """, [.integer(enabled ? 1 : 0), .text(label), .text(user)])
            try appendAudit(event: enabled ? "card-enabled" : "card-disabled", user: user, detail: "card \(label)" + Self.by(actor))
            return toHub
        }
    }

    /// Sets a card's own validity (nil: no bound), audited with `described`; true when the change
    /// goes up to the fleet's hub.
    @discardableResult
    public func setCardValidity(user: String, label: String, from: Int64?, until: Int64?, described: String,
                                by actor: String? = nil) throws -> Bool {
        if let from, let until, until <= from { throw StoreError.invalidValidity(from: from, until: until) }
        return try transaction {
            guard try cardRow(user: user, label: label) != nil else { throw StoreError.unknownCard(user: user, label: label) }
            let toHub = try noteCardEditForHub(user: user, label: label, edit: .dated)
            try connection.query("""
                UPDATE cards SET valid_from = ?, valid_until = ? WHERE label = ? AND user_id = (SELECT id FROM users WHERE name = ?)
                """, [from.map { .integer($0) } ?? .null, until.map { .integer($0) } ?? .null, .text(label), .text(user)])
            try appendAudit(event: "card-validity", user: user, detail: "card \(label): \(described)" + Self.by(actor))
            return toHub
        }
    }

    /// Deletes a card; true when the removal goes up to the fleet's hub (a card the hub has: gone
    /// from every door at the next sync).
    @discardableResult
    public func deleteCard(user: String, label: String, by actor: String? = nil) throws -> Bool {
        try transaction {
            guard try cardRow(user: user, label: label) != nil else { throw StoreError.unknownCard(user: user, label: label) }
            let toHub = try noteCardEditForHub(user: user, label: label, edit: .removed)
            try connection.query("""
                DELETE FROM cards WHERE label = ? AND user_id = (SELECT id FROM users WHERE name = ?)
                """, [.text(label), .text(user)])
            try appendAudit(event: "card-deleted", user: user, detail: "card \(label)" + Self.by(actor))
            return toHub
        }
    }

    /// The user's own verify mode (a `VerifyMode` raw value), or nil for the door's.
    public func verifyMode(of user: String) throws -> String? {
        try locked {
            _ = try requireUser(user)
            return try connection.scalar("SELECT verify_mode FROM users WHERE name = ?", [.text(user)]).string
        }
    }

    /// Sets the user's own verify mode; nil goes back to the door's. The caller checks the name
    /// (the table's CHECK refuses any other).
    public func setVerifyMode(_ mode: String?, for user: String, by actor: String? = nil) throws {
        try transaction {
            _ = try requireUser(user)
            try connection.query("UPDATE users SET verify_mode = ? WHERE name = ?", [mode.sql, .text(user)])
            try appendAudit(event: "verify-mode", user: user, detail: (mode ?? "the door's") + Self.by(actor))
        }
    }

    static let panelCardData = Array("panel-card".utf8)

    /// The card number sent to an access panel for `user` after a grant (Wiegand out), as
    /// `CardNumber.typed` spells it; nil when none is set.
    public func panelCard(of user: String) throws -> CardNumber? {
        let box = try locked {
            _ = try requireUser(user)
            return try connection.scalar("SELECT panel_card FROM users WHERE name = ?", [.text(user)]).bytes
        }
        guard let box else { return nil }
        guard let opened = Crypto.open(box, associatedData: Self.panelCardData, key: key) else {
            throw StoreError.undecryptable(what: "\(user)'s panel card")
        }
        return try? CardNumber(parsing: String(decoding: opened, as: UTF8.self))
    }

    /// Sets (nil: removes) the card number sent to the panel for `user`; a Wiegand card only.
    public func setPanelCard(_ number: CardNumber?, for user: String, by actor: String? = nil) throws {
        let sealed = number.map { Crypto.seal(Array($0.typed.utf8), associatedData: Self.panelCardData, key: key) }
        try transaction {
            _ = try requireUser(user)
            try connection.query("UPDATE users SET panel_card = ? WHERE name = ?", [sealed.map { .blob($0) } ?? .null, .text(user)])
            try appendAudit(event: number == nil ? "panel-card-cleared" : "panel-card-set", user: user, detail: "Wiegand out" + Self.by(actor))
        }
    }

    /// The cards kept under any of `hashes` (a number's under each key the store knows).
    private func cardRows(anyOf hashes: [[UInt8]]) throws -> [Card] {
        guard !hashes.isEmpty else { return [] }
        return try connection.query("""
            SELECT \(Self.cardColumns) FROM cards JOIN users ON users.id = cards.user_id
            WHERE cards.number_hash IN (\(hashes.map { _ in "?" }.joined(separator: ", "))) ORDER BY cards.id
            """, hashes.map { .blob($0) }).map(Self.card(from:))
    }

    func cardRow(user: String, label: String) throws -> Card? {
        try connection.query("""
            SELECT \(Self.cardColumns) FROM cards JOIN users ON users.id = cards.user_id WHERE users.name = ? AND cards.label = ?
            """, [.text(user), .text(label)]).first.map(Self.card(from:))
    }

    private static func by(_ actor: String?) -> String { actor.map { " by \($0)" } ?? "" }
}

extension TemplateStore {
    /// The first of `card`, `card-2`, `card-3`… that the user has no card labelled with: what a
    /// card added without a label is called (the CLI and the console alike).
    public func freeCardLabel(for user: String) throws -> CardLabel {
        let taken = Set(try cards(of: user).map(\.label))
        var n = 1
        while true {
            let text = n == 1 ? "card" : "card-\(n)"
            if !taken.contains(text) { return try CardLabel(validating: text) }
            n += 1
        }
    }
}
