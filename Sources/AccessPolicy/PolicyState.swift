/// Everything the policy remembers. Codable so the runtime can persist it as JSON.
///
/// Times inside are on the policy's own clock (`clock`, seconds): it only moves forward, by
/// monotonic time within a boot and not at all across a reboot (see `PolicyClock.swift`). Use
/// `nextDeadline(_:)` and `status(at:config:)` rather than reading those numbers directly.
public struct PolicyState: Codable, Equatable, Sendable {
    /// Bumped when the JSON shape changes incompatibly.
    public internal(set) var schemaVersion: Int = 1
    /// Policy clock at the last observation.
    public internal(set) var clock: Double = 0
    /// The runtime's time at the last observation (nil before the first event).
    public internal(set) var lastObserved: PolicyTime?
    /// Where this run's monotonic clock was anchored to the policy clock.
    public internal(set) var clockOrigin: ClockOrigin?

    public internal(set) var lock: LockState = .locked
    public internal(set) var fingerprintFailures = FailureCounter()
    public internal(set) var pinFailures = FailureCounter()
    /// Reasons a PIN is needed before a fingerprint unlocks again.
    public internal(set) var pinRequired: Set<PinRequiredReason> = []
    /// Policy clock of the last correct PIN.
    public internal(set) var lastPinAt: Double?
    /// The store's enrolled-set digest last seen.
    public internal(set) var enrolledDigest: String?
    /// Policy clock until which `.unlockRequested` reuses the last match, and its user.
    public internal(set) var graceUntil: Double?
    public internal(set) var graceUser: String?
    /// Set by tamper; cleared only by an admin.
    public internal(set) var pinOnly: PinOnlyReason?
    public internal(set) var tamperSwitchActive: Bool = false
    public internal(set) var moduleConnected: Bool = true
    public internal(set) var door = DoorState()
    /// The first factor of a combination waiting for its partner (not saved: a restart drops it).
    public internal(set) var pendingFactor: PendingFactor?
    /// Wrong and unknown cards; nil until the first (so a state saved before cards reads as is).
    public internal(set) var cardFailures: FailureCounter?
    /// The door's mode; nil while normal (read `doorMode`).
    public internal(set) var storedDoorMode: DoorMode?
    /// First-person-in: the UTC start of the passage window the first person opened (so a
    /// restart inside that window holds the door again, and the next window waits again).
    public internal(set) var firstPersonWindow: Int64?
    /// Who was the first person in of that window.
    public internal(set) var firstPersonUser: String?
    /// Anti-passback: the side each user was last granted at (nil while empty).
    public internal(set) var passback: [String: PassbackRecord]?
    /// Two-person rule: the first authorised user, waiting for a second (not saved).
    public internal(set) var twoPersonWaiting: TwoPersonWaiting?

    /// A fresh state: locked, no failures, nothing known yet.
    public init() {}

    /// The part worth saving: what `.started` resets (lock, grace, door) is left out, and
    /// the clock moves on every event, so a change here alone is no reason to write.
    var durable: PolicyState {
        var copy = self
        copy.clock = 0
        copy.lastObserved = nil
        copy.clockOrigin = nil
        copy.lock = .locked
        copy.graceUntil = nil
        copy.graceUser = nil
        copy.door = DoorState()
        copy.pendingFactor = nil
        copy.twoPersonWaiting = nil
        return copy
    }
}

extension PolicyState {
    /// The card counter, absent meaning none yet; stored as nil while it is at rest.
    var cardCounter: FailureCounter {
        get { cardFailures ?? FailureCounter() }
        set { cardFailures = newValue == FailureCounter() ? nil : newValue }
    }
}

/// A policy-clock reading and the monotonic reading it corresponds to.
public struct ClockOrigin: Codable, Equatable, Sendable {
    public internal(set) var clock: Double
    public internal(set) var monotonic: Double
    /// The wall clock's offset against the monotonic clock when this boot was first observed
    /// (kept across restarts within the boot): the wall clock disagrees with the policy clock
    /// while its offset differs from this. nil in states saved before it was recorded.
    public internal(set) var wallOffset: Double?
}

/// Whether the strike is released, and until when (policy clock).
public enum LockState: Codable, Equatable, Sendable {
    case locked
    case unlocked(until: Double, reason: UnlockReason, user: String?)
    /// Held unlocked by passage (no relay pulse) until the mode or its window ends.
    case passage

    var isUnlocked: Bool { self != .locked }
}

/// Consecutive failures of one credential and the lockout they caused.
public struct FailureCounter: Codable, Equatable, Sendable {
    public internal(set) var consecutive: Int = 0
    /// Policy clock when the current timed lockout ends.
    public internal(set) var lockedUntil: Double?
    public internal(set) var permanent: Bool = false

    public init() {}

    /// A counter as it was saved (the console keeps its login counters in the store).
    public init(consecutive: Int, lockedUntil: Double?, permanent: Bool) {
        self.consecutive = consecutive
        self.lockedUntil = lockedUntil
        self.permanent = permanent
    }
}

/// The door contact as last reported, and its alarm timers (policy clock).
public struct DoorState: Codable, Equatable, Sendable {
    /// nil until the contact is reported after a start: the first report is a state, not an edge.
    public internal(set) var isOpen: Bool?
    public internal(set) var heldOpenDeadline: Double?
    public internal(set) var heldOpenAlarmed: Bool = false
    /// Opened while unlocked, so closing it may re-lock at once.
    public internal(set) var openedWhileUnlocked: Bool = false
    /// Opening before this is not forced (just after an unlock or exit request).
    public internal(set) var forcedOpenExemptUntil: Double?

    public init() {}
}
