extension Step {
    /// Runs every timer that is due, before the event itself is handled, so a late `.tick`
    /// (or an event arriving first) sees the same outcome as a punctual one.
    mutating func expireDeadlines() {
        if case .unlocked(let until, _, _) = state.lock, clock >= until {
            relock(cause: "timeout")
        }
        if let until = state.fingerprintFailures.lockedUntil, clock >= until {
            state.fingerprintFailures.lockedUntil = nil
            event("lockout-ended", ["credential": "fingerprint"])
            audit("lockout-ended", "fingerprint lockout over")
            emit(.led(.idle))
        }
        if let until = state.pinFailures.lockedUntil, clock >= until {
            state.pinFailures.lockedUntil = nil
            event("lockout-ended", ["credential": "pin"])
            audit("lockout-ended", "PIN lockout over")
        }
        if let until = state.cardCounter.lockedUntil, clock >= until {
            state.cardCounter.lockedUntil = nil
            event("lockout-ended", ["credential": "card"])
            audit("lockout-ended", "card lockout over")
        }
        expirePendingFactor()
        expireTwoPerson()
        if let deadline = state.door.heldOpenDeadline, clock >= deadline {
            state.door.heldOpenDeadline = nil
            state.door.heldOpenAlarmed = true
            emit(.alarm(.heldOpen))
            // Whole seconds, as every other event field (a lockout's `seconds`, a deny's `remaining`).
            let seconds = wholeSecondsUp(config.heldOpenSeconds)
            event("door-held-open", ["seconds": String(seconds)])
            audit("door-held-open", "door open for \(seconds) s")
        }
        if let until = state.graceUntil, clock >= until {
            state.graceUntil = nil
            state.graceUser = nil
        }
    }
}
