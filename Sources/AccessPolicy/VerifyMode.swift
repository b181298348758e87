/// One kind of credential a person presents at the door.
public enum CredentialFactor: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    case finger, pin, card

    public var description: String {
        switch self {
        case .finger: "finger"
        case .pin: "PIN"
        case .card: "card"
        }
    }
}

/// Which credentials open the door, alone or together: per door (`PolicyConfig.verifyMode`) and
/// per user (the store's override, carried on each event). The combinations take their two
/// factors in either order, within `PolicyConfig.factorWindowSeconds`, from the same user.
public enum VerifyMode: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    case finger
    case pin
    case card
    /// Today's default: a finger or a PIN, each alone.
    case fingerOrPin = "finger-or-pin"
    /// The card says who; the finger proves it (the runtime verifies 1:1 against that user).
    case cardAndFinger = "card-and-finger"
    case fingerAndPin = "finger-and-pin"
    case cardAndPin = "card-and-pin"

    /// The factors of a combination; nil for a mode whose factors each open alone.
    public var pair: (CredentialFactor, CredentialFactor)? {
        switch self {
        case .cardAndFinger: (.card, .finger)
        case .fingerAndPin: (.finger, .pin)
        case .cardAndPin: (.card, .pin)
        case .finger, .pin, .card, .fingerOrPin: nil
        }
    }

    public var isCombination: Bool { pair != nil }

    /// Whether `factor` opens the door by itself in this mode.
    public func opensAlone(_ factor: CredentialFactor) -> Bool {
        switch self {
        case .finger: factor == .finger
        case .pin: factor == .pin
        case .card: factor == .card
        case .fingerOrPin: factor == .finger || factor == .pin
        case .cardAndFinger, .fingerAndPin, .cardAndPin: false
        }
    }

    /// Whether `factor` is one of the two a combination needs.
    public func combines(_ factor: CredentialFactor) -> Bool {
        guard let (first, second) = pair else { return false }
        return factor == first || factor == second
    }

    /// The other factor of a combination.
    func partner(of factor: CredentialFactor) -> CredentialFactor? {
        guard let (first, second) = pair else { return nil }
        if factor == first { return second }
        if factor == second { return first }
        return nil
    }

    /// What opens the door, for a person at it.
    public var instructions: String {
        switch self {
        case .finger: "touch the sensor"
        case .pin: "enter the PIN"
        case .card: "present your card"
        case .fingerOrPin: "touch the sensor or enter the PIN"
        case .cardAndFinger: "present your card and touch the sensor"
        case .fingerAndPin: "touch the sensor and enter your PIN"
        case .cardAndPin: "present your card and enter your PIN"
        }
    }

    public var description: String { rawValue }

    var unlockReason: UnlockReason {
        switch self {
        case .finger, .fingerOrPin: .fingerprint
        case .pin: .pin
        case .card: .card
        case .cardAndFinger: .cardAndFinger
        case .fingerAndPin: .fingerAndPin
        case .cardAndPin: .cardAndPin
        }
    }
}

/// The first factor of a combination, waiting for its partner. Whether it was right is kept here
/// and told to nobody until the second factor decides the attempt.
public struct PendingFactor: Codable, Equatable, Sendable {
    public internal(set) var factor: CredentialFactor
    /// The user it names (a known card, a matched finger, a PIN's owner); nil when unknown.
    public internal(set) var user: String?
    var valid: Bool
    /// A wrong first factor counts toward its own lockout once the attempt is decided.
    var countsIfWrong: Bool
    public internal(set) var mode: VerifyMode
    /// Policy clock when the wait ends.
    var until: Double
    /// Which credential, for the audit log (a slot, a card's label; never a secret).
    var label: String
    /// It named an admin (optional so a state saved before lockdown reads as is).
    var isAdmin: Bool?
}

/// A card read at the door, looked up in the store by the runtime (the number is never here).
public struct CardPresentation: Codable, Equatable, Sendable {
    /// The card's owner; nil for a card the store does not know.
    public var user: String?
    /// The card and its owner may open (neither disabled).
    public var enabled: Bool
    /// The owner's own verify mode, when one is set.
    public var userVerifyMode: VerifyMode?
    /// For the audit log: the credential's label, e.g. "Wiegand 26-bit card #3"; never the number.
    public var label: String
    /// The owner is an admin (lockdown lets only admins in); nil: not an admin.
    public var isAdmin: Bool?
    /// The card's own validity, UTC seconds (`validUntil` exclusive); nil: no bound.
    public var validFrom: Int64?
    public var validUntil: Int64?

    public init(user: String?, enabled: Bool, userVerifyMode: VerifyMode? = nil, label: String, isAdmin: Bool = false,
                validFrom: Int64? = nil, validUntil: Int64? = nil) {
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.user = user
        self.enabled = enabled
        self.userVerifyMode = userVerifyMode
        self.label = label
        self.isAdmin = isAdmin ? true : nil
    }
}
