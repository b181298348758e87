/// What one counted failure led to.
public enum FailureOutcome: Equatable, Sendable {
    case counted
    case timedLockout(seconds: Double)
    case permanentLockout
}

extension FailureCounter {
    /// Seconds of timed lockout left at `clock`, or nil when not (or no longer) locked.
    public func remaining(at clock: Double) -> Double? {
        guard let until = lockedUntil, clock < until else { return nil }
        return until - clock
    }

    public mutating func recordFailure(at clock: Double, thresholds: LockoutThresholds) -> FailureOutcome {
        consecutive += 1
        if consecutive >= thresholds.failuresForPermanentLockout {
            permanent = true
            lockedUntil = nil
            return .permanentLockout
        }
        if consecutive % thresholds.failuresPerTimedLockout == 0 {
            lockedUntil = clock + thresholds.timedLockoutSeconds
            return .timedLockout(seconds: thresholds.timedLockoutSeconds)
        }
        return .counted
    }

    public mutating func reset() {
        self = FailureCounter()
    }
}
