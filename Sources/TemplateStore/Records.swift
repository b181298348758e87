import Foundation

/// What a user may do: admins may enroll, delete and change others.
public enum Role: String, Sendable, Codable, CaseIterable {
    case admin, user
}

/// A person known to the lock.
public struct User: Equatable, Sendable {
    public var id: Int64
    public var name: String
    public var displayName: String
    public var role: Role
    /// Whether a fingerprint alone may unlock for this user (the phone's "fingerprint unlock" switch).
    public var fingerprintUnlock: Bool
    public var hasPIN: Bool
    public var createdAt: Date
    /// The user's own verify mode (an `AccessPolicy.VerifyMode` raw value); nil: the door's.
    public var verifyMode: String? = nil
}

/// One enrolled finger: which user, which module slot, and the digest of its template.
/// The template itself stays encrypted until `TemplateStore.template(atSlot:)` asks for it.
public struct Finger: Equatable, Sendable {
    public var id: Int64
    public var user: String
    public var label: String
    public var slot: Int
    /// SHA-256 (hex) of the plaintext template.
    public var templateDigest: String
    public var quality: Int
    public var enrolledAt: Date
    /// A duress finger opens like any other and raises a silent duress alarm.
    public var isDuress: Bool = false
}

/// The paired module: what it is and how to talk to it.
public struct ModuleIdentity: Equatable, Sendable {
    public var family: String
    public var address: UInt32
    /// VfyPwd password; stored encrypted.
    public var password: UInt32
    public var capacity: Int
    /// Product information as the module reported it (JSON text).
    public var productInfo: String?
    /// Digest of the module's slot table at the last sync.
    public var slotTableDigest: String?
    public var pairedAt: Date

    public init(family: String, address: UInt32, password: UInt32, capacity: Int,
                productInfo: String? = nil, slotTableDigest: String? = nil, pairedAt: Date = Date()) {
        self.family = family
        self.address = address
        self.password = password
        self.capacity = capacity
        self.productInfo = productInfo
        self.slotTableDigest = slotTableDigest
        self.pairedAt = pairedAt
    }
}

/// One row of the append-only audit log.
public struct AuditEntry: Equatable, Sendable {
    public var id: Int64
    public var time: Date
    public var event: String
    public var user: String?
    public var slot: Int?
    public var score: Int?
    /// Per-stage latency as JSON, e.g. `{"capture_ms":210,"search_ms":48}`.
    public var latencyJSON: String?
    public var detail: String?

    public init(id: Int64, time: Date, event: String, user: String? = nil, slot: Int? = nil, score: Int? = nil,
                latencyJSON: String? = nil, detail: String? = nil) {
        self.id = id
        self.time = time
        self.event = event
        self.user = user
        self.slot = slot
        self.score = score
        self.latencyJSON = latencyJSON
        self.detail = detail
    }
}

/// An operation on the module that was announced before the module was touched.
public struct Intent: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable { case enroll, delete, wipe, restore, move }
    public enum State: String, Sendable {
        case pending
        case moduleWritten = "module-written"
        /// A move only: the store's slot mapping already names the target slot.
        case storeCommitted = "store-committed"
    }

    public var id: Int64
    public var kind: Kind
    public var user: String?
    public var label: String?
    public var slot: Int?
    /// A move's destination (`slot` is where the template was).
    public var targetSlot: Int?
    /// The plaintext template for an enroll, when it was uploaded before the intent was written.
    public var template: [UInt8]?
    public var quality: Int?
    public var state: State
    public var createdAt: Date

    public init(id: Int64, kind: Kind, user: String? = nil, label: String? = nil, slot: Int? = nil,
                template: [UInt8]? = nil, quality: Int? = nil, state: State = .pending, createdAt: Date = Date(),
                targetSlot: Int? = nil) {
        self.id = id
        self.targetSlot = targetSlot
        self.kind = kind
        self.user = user
        self.label = label
        self.slot = slot
        self.template = template
        self.quality = quality
        self.state = state
        self.createdAt = createdAt
    }
}
