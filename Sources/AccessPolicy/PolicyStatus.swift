/// A read-only summary of the policy for status commands and dashboards.
public struct PolicyStatus: Equatable, Sendable {
    public var isUnlocked: Bool
    public var fingerprintLockout: LockoutStatus
    public var pinLockout: LockoutStatus
    public var consecutiveFingerprintFailures: Int
    public var consecutivePinFailures: Int
    /// Why the next fingerprint would need a PIN first, in a fixed order.
    public var pinRequired: [PinRequiredReason]
    public var pinOnly: PinOnlyReason?
    /// nil until the door contact reported after a start.
    public var doorOpen: Bool?
    public var moduleConnected: Bool
    public var tamperSwitchActive: Bool
    public var doorMode: DoorMode = .normal
    /// Passage (or first-person-in after the first person) holds the door open.
    public var passageHolding: Bool = false
}

public enum LockoutStatus: Equatable, Sendable {
    case none
    case timed(remaining: Double)
    case permanent
}

extension PolicyState {
    /// The state as it stands at `now` (timers that ran out count as ended), without
    /// changing anything.
    public func status(at now: PolicyTime, config: PolicyConfig) -> PolicyStatus {
        var step = Step(config: config, now: now, state: self)
        step.advanceClock(acrossRestart: false)
        step.expireDeadlines()
        let s = step.state
        return PolicyStatus(
            isUnlocked: s.lock.isUnlocked,
            fingerprintLockout: Self.lockout(s.fingerprintFailures, at: s.clock),
            pinLockout: Self.lockout(s.pinFailures, at: s.clock),
            consecutiveFingerprintFailures: s.fingerprintFailures.consecutive,
            consecutivePinFailures: s.pinFailures.consecutive,
            pinRequired: step.pinRequirements,
            pinOnly: s.pinOnly,
            doorOpen: s.door.isOpen,
            moduleConnected: s.moduleConnected,
            tamperSwitchActive: s.tamperSwitchActive,
            doorMode: s.doorMode,
            passageHolding: s.passageHolding)
    }

    private static func lockout(_ counter: FailureCounter, at clock: Double) -> LockoutStatus {
        if counter.permanent { return .permanent }
        if let remaining = counter.remaining(at: clock) { return .timed(remaining: remaining) }
        return .none
    }
}
