import AccessPolicy
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
