extension Step {
    /// PIN entry, rate-limited like fingerprints with its own counter. A correct PIN unlocks,
    /// clears fingerprint lockouts and every "PIN required" reason; an admin's correct PIN
    /// also ends PIN-only mode (unless the tamper switch is still open).
    mutating func handlePin(user: String?, correct: Bool, isAdmin: Bool) {
        if state.pinFailures.permanent {
            deny(.pinPermanentlyLockedOut, user: user)
            return
        }
        if let remaining = state.pinFailures.remaining(at: clock) {
            deny(.pinLockedOut(remaining: remaining), user: user)
            return
        }
        guard correct else {
            handleWrongPin(user: user)
            return
        }
        state.pinFailures.reset()
        clearFingerprintLockout(cause: "correct PIN")
        state.pinRequired = []
        state.lastPinAt = clock
        if isAdmin { clearPinOnly(by: "admin PIN", user: user) }
        emit(.led(.match))
        emit(.buzzer(.accept))
        event("pin-ok", user.map { ["user": $0] } ?? [:])
        audit("pin-ok", user: user, isAdmin ? "correct admin PIN" : "correct PIN")
        unlock(.pin, user: user)
    }

    private mutating func handleWrongPin(user: String?) {
        let outcome = state.pinFailures.recordFailure(at: clock, thresholds: config.pinLockout)
        deny(.wrongPin, user: user)
        let failures = String(state.pinFailures.consecutive)
        switch outcome {
        case .counted:
            break
        case .timedLockout(let seconds):
            emit(.led(.lockout))
            emit(.buzzer(.lockout))
            event("pin-lockout", ["failures": failures, "seconds": String(wholeSecondsUp(seconds))])
            audit("pin-lockout", "\(failures) consecutive wrong PINs; PIN entry locked for \(seconds) s")
        case .permanentLockout:
            emit(.led(.lockout))
            emit(.buzzer(.lockout))
            event("pin-lockout-permanent", ["failures": failures])
            audit("pin-lockout-permanent", "\(failures) consecutive wrong PINs; PIN entry disabled until an admin clears it")
        }
    }

    /// Resets the fingerprint counter, reporting it when a lockout actually ended.
    mutating func clearFingerprintLockout(cause: String) {
        let counter = state.fingerprintFailures
        let wasLocked = counter.permanent || counter.remaining(at: clock) != nil
        state.fingerprintFailures.reset()
        if wasLocked {
            event("lockout-cleared", ["credential": "fingerprint"])
            audit("lockout-cleared", "fingerprint lockout cleared by \(cause)")
        }
    }

    /// Ends PIN-only mode unless the tamper switch is still open (then it stays, as tamper).
    mutating func clearPinOnly(by who: String, user: String?) {
        guard let reason = state.pinOnly else { return }
        if state.tamperSwitchActive {
            state.pinOnly = .tamperSwitch
            audit("pin-only-kept", user: user, "\(who) could not end PIN-only mode: the tamper switch is still open; close the enclosure first")
            return
        }
        state.pinOnly = nil
        event("pin-only-cleared")
        audit("pin-only-cleared", user: user, "\(who) ended PIN-only mode (was: \(reason.description))")
    }
}
