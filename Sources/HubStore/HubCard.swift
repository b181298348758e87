import JSONValue
import TemplateStore

/// A card as the hub keeps one: its number's keyed hash under the fleet's card key
/// (`FleetTemplateKey.cardHash`), never the number, so neither the database nor a door's store
/// gives it away. Wiegand cards and NFC UIDs travel; a DESFire card is keyed to the store that
/// enrolled it and stays there.
public struct HubCard: Sendable, Equatable {
    public var user: String
    public var label: String
    public var kind: CardNumber.Kind
    public var numberHash: [UInt8]
    public var enabled: Bool
    /// The card's own validity, UTC seconds (`validUntil` exclusive); nil: no bound.
    public var validFrom: Int64?
    public var validUntil: Int64?

    public init(user: String, label: String, kind: CardNumber.Kind, numberHash: [UInt8], enabled: Bool = true,
                validFrom: Int64? = nil, validUntil: Int64? = nil) {
        self.user = user
        self.label = label
        self.kind = kind
        self.numberHash = numberHash
        self.enabled = enabled
        self.validFrom = validFrom
        self.validUntil = validUntil
    }

    /// The kinds of card that travel.
    public static let travelling: Set<CardNumber.Kind> = [.wiegand, .nfcUID]

    /// The change log's key: "user:label" (a user name holds no colon; a label may).
    public var changeKey: String { Self.changeKey(user: user, label: label) }

    public static func changeKey(user: String, label: String) -> String { "\(user):\(label)" }

    /// (user, label) of a change key, nil when it is not one.
    public static func parts(ofChangeKey key: String) -> (user: String, label: String)? {
        let parts = key.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts.contains(where: \.isEmpty) else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    func check() throws(HubStoreError) {
        guard Self.travelling.contains(kind) else {
            throw .invalid("a \(kind.rawValue) card is keyed to the door that enrolled it and cannot travel; add it at that door")
        }
        try Self.check(user: user, label: label, numberHash: numberHash, validFrom: validFrom, validUntil: validUntil)
    }

    /// What a card and a door's change to one both must be: names a door takes, a 32-byte hash,
    /// a validity that ends after it starts.
    static func check(user: String, label: String, numberHash: [UInt8], validFrom: Int64?, validUntil: Int64?) throws(HubStoreError) {
        try HubUser.checked { () throws(NameError) in
            _ = try UserName(validating: user)
            _ = try CardLabel(validating: label)
        }
        guard numberHash.count == 32 else { throw .invalid("a card's hash is 32 bytes") }
        if let validFrom, let validUntil, validUntil <= validFrom { throw .invalid("a card's validity ends before it starts") }
    }

    /// A validity bound as JSON holds it: a number, or null for no bound (`.some(nil)`); `.none`
    /// when it is missing or of another type.
    static func bound(_ member: JSONValue?) -> Int64?? {
        guard let member else { return .none }
        if member == .null { return .some(nil) }
        return member.intValue.map { .some(Int64($0)) } ?? .none
    }

    /// The card as it travels: the state a door applies from the change log.
    public var json: JSONValue {
        let from: JSONValue = validFrom.map { .int($0) } ?? .null
        let until: JSONValue = validUntil.map { .int($0) } ?? .null
        let members: [String: JSONValue] = [
            "user": .string(user), "label": .string(label), "kind": .string(kind.rawValue), "hash": .string(HexText.text(numberHash)),
            "enabled": .bool(enabled), "validFrom": from, "validUntil": until,
        ]
        return .object(members)
    }

    /// `json` read back; nil when a member is missing or not of its type.
    public init?(json: JSONValue) {
        guard let user = json["user"]?.stringValue, let label = json["label"]?.stringValue,
              let kind = json["kind"]?.stringValue.flatMap(CardNumber.Kind.init(rawValue:)),
              let hash = json["hash"]?.stringValue.flatMap(HexText.bytes), let enabled = json["enabled"]?.boolValue else { return nil }
        guard let from = Self.bound(json["validFrom"]), let until = Self.bound(json["validUntil"]) else { return nil }
        self.init(user: user, label: label, kind: kind, numberHash: hash, enabled: enabled, validFrom: from, validUntil: until)
    }
}
