import AccessPolicy
import Foundation
import JSONValue
import TemplateStore

/// One entry of the change log: a thing's whole state at its latest change, or its tombstone.
public struct HubChange: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case user, finger, card, schedule, holiday
        case doorMode = "door-mode"
    }

    public var revision: Int64
    public var kind: Kind
    public var key: String
    /// nil: deleted (a tombstone).
    public var state: JSONValue?

    public var isTombstone: Bool { state == nil }

    public init(revision: Int64, kind: Kind, key: String, state: JSONValue?) {
        self.revision = revision
        self.kind = kind
        self.key = key
        self.state = state
    }
}

/// A user as the hub keeps one (a door's store has the same fields).
public struct HubUser: Sendable, Equatable {
    public enum Role: String, Sendable { case admin, user }

    public var name: String
    public var displayName: String
    public var role: Role
    /// False: this user's fingers open no door (a PIN or card still may), as `fpmod disable`.
    public var fingerprintUnlock: Bool
    /// The door's memory-hard hash (`crypto_pwhash_str`), never the PIN.
    public var pinHash: String?
    public var verifyMode: String?
    public var schedule: String?
    public var validFrom: Int64?
    public var validUntil: Int64?
    public var usesLeft: Int?

    public init(name: String, displayName: String? = nil, role: Role = .user, fingerprintUnlock: Bool = true, pinHash: String? = nil,
                verifyMode: String? = nil, schedule: String? = nil, validFrom: Int64? = nil, validUntil: Int64? = nil, usesLeft: Int? = nil) {
        self.name = name
        self.displayName = displayName ?? name
        self.role = role
        self.fingerprintUnlock = fingerprintUnlock
        self.pinHash = pinHash
        self.verifyMode = verifyMode
        self.schedule = schedule
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.usesLeft = usesLeft
    }

    /// `body`'s name check (the door store's own: `UserName`, `RuleName`, `DisplayName`), its
    /// refusal as the hub's.
    static func checked(_ body: () throws(NameError) -> Void) throws(HubStoreError) {
        do { try body() } catch { throw .invalid(error.description) }
    }

    /// Every field checked before anything is written.
    func check() throws(HubStoreError) {
        // The door's own rules, so a user the hub takes is one every door can store.
        try Self.checked { () throws(NameError) in
            _ = try UserName(validating: name)
            _ = try DisplayName(validating: displayName)
            if let schedule { _ = try RuleName(validating: schedule) }
        }
        if let pinHash, !pinHash.hasPrefix("$argon2") { throw .invalid("a PIN reaches the hub only as its Argon2 hash") }
        if let verifyMode, VerifyMode(rawValue: verifyMode) == nil {
            throw .invalid("a verify mode is one of \(VerifyMode.allCases.map(\.rawValue).joined(separator: ", ")), not \(verifyMode.debugDescription)")
        }
        if let usesLeft, usesLeft < 0 { throw .invalid("uses left is 0 or more") }
        if let validFrom, let validUntil, validUntil <= validFrom { throw .invalid("the validity ends before it starts") }
    }

    /// The state a door applies (the change log's payload).
    var state: JSONValue {
        .object([
            "name": .string(name), "displayName": .string(displayName), "role": .string(role.rawValue),
            "fingerprintUnlock": .bool(fingerprintUnlock),
            "pinHash": pinHash.map(JSONValue.string) ?? .null, "verifyMode": verifyMode.map(JSONValue.string) ?? .null,
            "schedule": schedule.map(JSONValue.string) ?? .null, "validFrom": validFrom.map(JSONValue.int) ?? .null,
            "validUntil": validUntil.map(JSONValue.int) ?? .null, "usesLeft": usesLeft.map { JSONValue.int(Int64($0)) } ?? .null,
        ])
    }
}

/// One of a door's events as it uploads them: its own sequence number and its place in the
/// door's hash chain (the audit chain's hashes, 32 bytes).
public struct DoorEvent: Sendable, Equatable {
    public var sequence: Int64
    /// Seconds since 1970 on the door's clock.
    public var time: Double
    public var event: String
    public var user: String?
    public var detail: String?
    public var previousHash: [UInt8]
    public var hash: [UInt8]

    public init(sequence: Int64, time: Double, event: String, user: String? = nil, detail: String? = nil,
                previousHash: [UInt8], hash: [UInt8]) {
        self.sequence = sequence
        self.time = time
        self.event = event
        self.user = user
        self.detail = detail
        self.previousHash = previousHash
        self.hash = hash
    }
}

/// What an upload did: new events kept, retries recognised, and sequence numbers still missing.
public struct EventUpload: Sendable, Equatable {
    public var inserted = 0
    public var duplicates = 0
    public var gaps: [ClosedRange<Int64>] = []

    public init(inserted: Int = 0, duplicates: Int = 0, gaps: [ClosedRange<Int64>] = []) {
        self.inserted = inserted
        self.duplicates = duplicates
        self.gaps = gaps
    }
}

/// A finger as the hub keeps one: its template sealed under the fleet's template key (the hub
/// stores the box as the door sealed it), for one reader family. `family` is "host" for the
/// host matcher's templates (every image-sensor door takes them) or a module family (taken only
/// by modules of that family and template size).
public struct HubFinger: Sendable, Equatable {
    public var user: String
    public var label: String
    public var family: String
    /// The plain template's bytes (a module's template size; a host template's length).
    public var templateSize: Int
    /// The largest template the hub keeps (256 KiB).
    public static let maximumTemplateSize = 262_144
    public var sealedTemplate: [UInt8]
    public var quality: Int
    public var isDuress: Bool

    /// The family of the host matcher's templates.
    public static let hostFamily = "host"

    public init(user: String, label: String, family: String, templateSize: Int, sealedTemplate: [UInt8], quality: Int, isDuress: Bool = false) {
        self.user = user
        self.label = label
        self.family = family
        self.templateSize = templateSize
        self.sealedTemplate = sealedTemplate
        self.quality = quality
        self.isDuress = isDuress
    }

    /// The change log's key: "family:user:label" (a family and a user name hold no colon; a label may).
    public var changeKey: String { Self.changeKey(user: user, label: label, family: family) }

    public static func changeKey(user: String, label: String, family: String) -> String { "\(family):\(user):\(label)" }

    /// (family, user, label) of a change key, nil when it is not one.
    public static func parts(ofChangeKey key: String) -> (family: String, user: String, label: String)? {
        let parts = key.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts.contains(where: \.isEmpty) else { return nil }
        return (String(parts[0]), String(parts[1]), String(parts[2]))
    }

    func check() throws(HubStoreError) {
        try HubUser.checked { () throws(NameError) in
            _ = try UserName(validating: user)
            _ = try FingerLabel(validating: label)
        }
        guard !family.isEmpty, family.utf8.count <= 32, family.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw .invalid("a reader family is 1 to 32 letters, digits or dashes, not \(family.debugDescription)")
        }
        // A module's template is 0.5–2 KiB; a host template keeps each touch's ridge map (~5 KiB a
        // touch, up to 15 touches: ~80 KiB, template format 4).
        guard (1...HubFinger.maximumTemplateSize).contains(templateSize) else {
            throw .invalid("a template is 1 to \(HubFinger.maximumTemplateSize) bytes, not \(templateSize)")
        }
        // A box is nonce (24) + template + tag (16): anything else is not a sealed template of that size.
        guard sealedTemplate.count == templateSize + 40 else { throw .invalid("the sealed template is not \(templateSize) bytes sealed") }
        guard (0...10_000).contains(quality) else { throw .invalid("a quality is 0 to 10000") }
    }

    /// The finger as it travels: what a door uploads (`POST /v1/fingers`) and the state it
    /// applies from the change log; the template stays sealed, in base64.
    public var json: JSONValue {
        .object(["user": .string(user), "label": .string(label), "family": .string(family), "size": .int(Int64(templateSize)),
                 "quality": .int(Int64(quality)), "duress": .bool(isDuress), "template": .string(Data(sealedTemplate).base64EncodedString())])
    }

    /// `json` read back; nil when a member is missing or not of its type (the checks of the
    /// names and sizes are the reader's: the hub's `check()`, the door's own types).
    public init?(json: JSONValue) {
        guard let user = json["user"]?.stringValue, let label = json["label"]?.stringValue, let family = json["family"]?.stringValue,
              let size = json["size"]?.intValue, let quality = json["quality"]?.intValue, let duress = json["duress"]?.boolValue,
              let sealed = json["template"]?.stringValue.flatMap({ Data(base64Encoded: $0) }) else { return nil }
        self.init(user: user, label: label, family: family, templateSize: size, sealedTemplate: Array(sealed), quality: quality, isDuress: duress)
    }
}
