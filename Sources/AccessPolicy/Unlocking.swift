extension Step {
    /// Releases the strike: a pulse in door mode, until idle in kiosk mode. An unlock while
    /// unlocked extends it.
    mutating func unlock(_ reason: UnlockReason, user: String?) {
        // First of the grant's effects: the runtime takes the use from the store, or withdraws
        // the grant (`.useRefused`) before the relay moves.
        // While passage holds the door nobody uses anything to walk through it.
        if let user, state.lock != .passage, grantConsumesUse(user, reason) { emit(.consumeUse(user: user)) }
        let atReader = reason.isByCredential && reason != .remote
        if let user, reason.isByCredential {
            admitFirstPerson(user)
            if atReader { recordPassback(user) }
        }
        if state.lock != .passage && passageDue { holdForPassage() }
        var fields = ["reason": reason.rawValue]
        if let user { fields["user"] = user }
        if atReader, user != nil { fields["side"] = side.rawValue }
        if state.lock == .passage {
            // Already held open: the grant is recorded, the relay stays as it is.
            emit(.unlock(reason, user: user, until: nil))
        } else {
            let length = config.mode == .door ? config.relayPulseSeconds : config.idleTimeoutSeconds
            let until = clock + length
            state.lock = .unlocked(until: until, reason: reason, user: user)
            state.door.forcedOpenExemptUntil = until + config.forcedOpenExemptSeconds
            emit(.unlock(reason, user: user, until: time(at: until)))
            if config.mode == .door {
                emit(.relayPulse(seconds: config.relayPulseSeconds))
            }
        }
        event("unlocked", fields)
        // One row kind answers "who came in": after `.consumeUse`, so a withdrawn grant has none.
        if let user, reason.isByCredential {
            audit("granted", user: user, atReader ? "\(reason.rawValue) at the \(side.rawValue) reader" : "\(reason.rawValue), not at a reader")
        }
    }

    /// Locks now if unlocked; opening the door shortly after is still not "forced".
    /// Passage is not ended here: only the mode or its schedule ends it (`settlePassage`).
    mutating func relock(cause: String) {
        guard case .unlocked = state.lock else { return }
        state.lock = .locked
        state.door.forcedOpenExemptUntil = clock + config.forcedOpenExemptSeconds
        state.door.openedWhileUnlocked = false
        emit(.lock)
        emit(.led(.idle))
        event("locked", ["cause": cause])
    }

    /// A refusal with its feedback: LED, buzzer, public event and audit row. A remote one says
    /// so in the event (`source`) and the audit row (which connection it came on).
    mutating func deny(_ reason: DenyReason, user: String? = nil, source: RequestSource = .local) {
        emit(.deny(reason))
        emit(.led(isLockout(reason) ? .lockout : .deny))
        emit(.buzzer(.deny))
        var fields = reason.eventFields
        if let user { fields["user"] = user }
        var detail = reason.description
        if case .remote(let client) = source {
            fields["source"] = "remote"
            detail += " (remote, over MQTT client \(client))"
        }
        event(reason.eventName, fields)
        audit(reason.eventName, user: user, detail)
    }

    private func isLockout(_ reason: DenyReason) -> Bool {
        switch reason {
        case .lockedOut, .permanentlyLockedOut, .pinLockedOut, .pinPermanentlyLockedOut,
             .wrongPinLockoutStarted, .wrongPinPermanentLockoutStarted, .cardLockedOut, .cardPermanentlyLockedOut: true
        default: false
        }
    }
}
