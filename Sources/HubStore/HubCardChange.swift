import JSONValue
import TemplateStore

/// A door's change to a card the hub has, as it travels (`POST /v1/cards/update`,
/// `/v1/cards/remove`): which card (user, label, and its number's hash, so a card the hub has
/// given that label since is left alone) and only what the door changed, so what the hub changed
/// meanwhile stays.
public struct HubCardChange: Sendable, Equatable {
    public var user: String
    public var label: String
    public var numberHash: [UInt8]
    /// Switched on or off at the door; nil: left as the hub has it.
    public var enabled: Bool?
    /// The card's own validity set at the door (UTC seconds, `until` exclusive; nil inside: no
    /// bound); nil: left as the hub has it.
    public var validity: CardValidity?

    public init(user: String, label: String, numberHash: [UInt8], enabled: Bool? = nil, validity: CardValidity? = nil) {
        self.user = user
        self.label = label
        self.numberHash = numberHash
        self.enabled = enabled
        self.validity = validity
    }

    func check() throws(HubStoreError) {
        try HubCard.check(user: user, label: label, numberHash: numberHash, validFrom: validity?.from, validUntil: validity?.until)
    }

    public var json: JSONValue {
        var members: [String: JSONValue] = ["user": .string(user), "label": .string(label), "hash": .string(HexText.text(numberHash))]
        if let enabled { members["enabled"] = .bool(enabled) }
        if let validity {
            members["validity"] = .object(["from": validity.from.map { .int($0) } ?? .null, "until": validity.until.map { .int($0) } ?? .null])
        }
        return .object(members)
    }

    /// `json` read back; nil when a member is missing or not of its type.
    public init?(json: JSONValue) {
        guard let user = json["user"]?.stringValue, let label = json["label"]?.stringValue,
              let hash = json["hash"]?.stringValue.flatMap(HexText.bytes) else { return nil }
        var enabled: Bool?
        if let member = json["enabled"] {
            guard let value = member.boolValue else { return nil }
            enabled = value
        }
        var validity: CardValidity?
        if let member = json["validity"] {
            guard let from = HubCard.bound(member["from"]), let until = HubCard.bound(member["until"]) else { return nil }
            validity = CardValidity(from: from, until: until)
        }
        self.init(user: user, label: label, numberHash: hash, enabled: enabled, validity: validity)
    }
}
