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
        try HubUser.checked { () throws(NameError) in
            _ = try UserName(validating: user)
            _ = try CardLabel(validating: label)
        }
        guard Self.travelling.contains(kind) else {
            throw .invalid("a \(kind.rawValue) card is keyed to the door that enrolled it and cannot travel; add it at that door")
        }
        guard numberHash.count == 32 else { throw .invalid("a card's hash is 32 bytes") }
        if let validFrom, let validUntil, validUntil <= validFrom { throw .invalid("a card's validity ends before it starts") }
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
        func bound(_ name: String) -> Int64?? {
            guard let member = json[name] else { return .none }
            if member == .null { return .some(nil) }
            guard let value = member.intValue else { return .none }
            return .some(Int64(value))
        }
        guard let from = bound("validFrom"), let until = bound("validUntil") else { return nil }
        self.init(user: user, label: label, kind: kind, numberHash: hash, enabled: enabled, validFrom: from, validUntil: until)
    }
}
