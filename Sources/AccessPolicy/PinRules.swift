extension Step {
    /// Why no PIN may be checked right now (nil: go ahead). The one gate for every verb that
    /// checks a PIN: `.pinOffered` asks it before the runtime checks, `.pinEntered` again after.
    var pinEntryRefusal: DenyReason? {
        if state.pinFailures.permanent { return .pinPermanentlyLockedOut }
        if let remaining = state.pinFailures.remaining(at: clock) { return .pinLockedOut(remaining: remaining) }
        return nil
    }

    /// `pinEntryRefusal`, and for a remote request first what the network may not do.
    func pinRefusal(purpose: PinPurpose, source: RequestSource) -> DenyReason? {
        if source.isRemote, let refusal = remoteRefusal(purpose: purpose) { return refusal }
        return pinEntryRefusal
    }

    /// PIN entry, rate-limited like fingerprints with its own counter, for every purpose alike.
    /// A correct PIN unlocks, clears fingerprint lockouts and every "PIN required" reason; an
    /// admin's correct PIN also ends PIN-only mode (unless the tamper switch is still open).
    /// A correct PIN of a non-admin for an admin purpose counts as a wrong one. A remote PIN
    /// counts the same, but does less when correct (`handleRemotePin`).
    ///
    /// `notOpeningIn`: the verify mode in force does not open with a PIN alone (`finger`, `card`,
    /// `card-and-finger`): a correct PIN still does all it does above (a PIN is what clears a
    /// fingerprint lockout and "PIN required"), and opens nothing.
    mutating func handlePin(user: String?, correct: Bool, isAdmin: Bool, purpose: PinPurpose,
                            source: RequestSource = .local, notOpeningIn mode: VerifyMode? = nil) {
        if let refusal = pinRefusal(purpose: purpose, source: source) {
            deny(refusal, user: user, source: source)
            return
        }
        guard correct else {
            handleWrongPin(user: user, notAdmin: false, source: source)
            return
        }
        if purpose.needsAdmin && !isAdmin {
            handleWrongPin(user: user, notAdmin: true, source: source)
            return
        }
        if case .remote(let client) = source {
            handleRemotePin(user: user, isAdmin: isAdmin, purpose: purpose, client: client)
            return
        }
        if purpose == .adminClear {
            handleAdminClear(by: "admin \(user ?? "PIN")")
            return
        }
        if purpose == .adminCommand {
            state.pinFailures.reset()
            audit("admin-verified", user: user, "admin PIN accepted for an admin command")
            return
        }
        state.pinFailures.reset()
        clearFingerprintLockout(cause: "correct PIN")
        state.pinRequired = []
        state.lastPinAt = clock
        if isAdmin { clearPinOnly(by: "admin PIN", user: user) }
        if let mode {
            emit(.buzzer(.accept))
            var fields = ["opens": "no", "mode": mode.rawValue]
            if let user { fields["user"] = user }
            event("pin-ok", fields)
            audit("pin-ok", user: user, "\(isAdmin ? "correct admin PIN" : "correct PIN"); a PIN alone does not open this door (\(mode))")
            return
        }
        if refusedAtGrant(user, isAdmin: isAdmin) { return }
        emit(.led(.match))
        emit(.buzzer(.accept))
        event("pin-ok", user.map { ["user": $0] } ?? [:])
        audit("pin-ok", user: user, isAdmin ? "correct admin PIN" : "correct PIN")
        unlock(.pin, user: user)
    }

    /// Counts the failure first, so the refusal can say when this very PIN started a lockout.
    private mutating func handleWrongPin(user: String?, notAdmin: Bool, source: RequestSource) {
        let outcome = state.pinFailures.recordFailure(at: clock, thresholds: config.pinLockout)
        switch outcome {
        case .counted: deny(notAdmin ? .notAnAdmin : .wrongPin, user: user, source: source)
        case .timedLockout(let seconds): deny(.wrongPinLockoutStarted(seconds: seconds), user: user, source: source)
        case .permanentLockout: deny(.wrongPinPermanentLockoutStarted, user: user, source: source)
        }
        announcePinLockout(outcome)
    }

    /// The lockout a counted wrong PIN started, if any: LED, buzzer, event, audit.
    mutating func announcePinLockout(_ outcome: FailureOutcome) {
        announceLockout(outcome, failures: state.pinFailures.consecutive, eventPrefix: "pin-lockout",
                        what: "wrong PINs", locked: "PIN entry", clearedBy: "an admin clears it")
    }

    /// A lockout a counted failure started, told the same way for every credential: LED and
    /// buzzer, the `<prefix>` or `<prefix>-permanent` event, and the audit row.
    mutating func announceLockout(_ outcome: FailureOutcome, failures count: Int, eventPrefix: String,
                                  what: String, locked: String, clearedBy: String) {
        let failures = String(count)
        switch outcome {
        case .counted:
            return
        case .timedLockout(let seconds):
            emit(.led(.lockout))
            emit(.buzzer(.lockout))
            event(eventPrefix, ["failures": failures, "seconds": String(wholeSecondsUp(seconds))])
            audit(eventPrefix, "\(failures) consecutive \(what); \(locked) locked for \(seconds) s")
        case .permanentLockout:
            emit(.led(.lockout))
            emit(.buzzer(.lockout))
            event(eventPrefix + "-permanent", ["failures": failures])
            audit(eventPrefix + "-permanent", "\(failures) consecutive \(what); \(locked) disabled until \(clearedBy)")
        }
    }

    /// An admin's finger (one that may unlock) proves an admin is at the door: it ends a PIN
    /// lockout, so an admin locked out of PIN entry is not stuck. It never ends a fingerprint
    /// lockout or PIN-only mode (see `handleMatch`).
    mutating func clearPinLockout(byAdminFinger user: String) {
        let counter = state.pinFailures
        guard counter.permanent || counter.remaining(at: clock) != nil else { return }
        state.pinFailures.reset()
        event("lockout-cleared", ["credential": "pin"])
        audit("lockout-cleared", user: user, "PIN lockout cleared by an admin finger")
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
