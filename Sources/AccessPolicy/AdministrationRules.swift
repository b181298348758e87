extension Step {
    /// Every start: come back locked, forget transient timers, and require the PIN once if
    /// configured. The door contact's first report after this is taken as a state, not an edge.
    mutating func handleStarted() {
        state.lock = .locked
        if !effects.contains(.lock) {
            emit(.lock)
        }
        emit(.led(state.pinOnly == nil ? .idle : .lockout))
        endGrace()
        state.pendingFactor = nil
        state.door = DoorState()
        state.moduleConnected = true
        if config.pinRequiredAfterRestart {
            state.pinRequired.insert(.restart)
        }
        event("started")
        audit("started", "service started; locked")
        if let reason = state.pinOnly {
            event("pin-only", ["reason": reason.description])
        }
    }

    /// The first digest ever seen is just recorded; a different one later means fingers were
    /// added or removed, so a PIN is required once.
    mutating func handleEnrolledSet(_ digest: String) {
        guard digest != state.enrolledDigest else { return }
        let isFirst = state.enrolledDigest == nil
        state.enrolledDigest = digest
        guard !isFirst else { return }
        event("enrolled-set-changed")
        audit("enrolled-set-changed", "the set of enrolled fingers changed")
        guard config.pinRequiredAfterEnrolledSetChange else { return }
        state.pinRequired.insert(.enrolledSetChanged)
        endGrace()
        event("pin-required", ["reason": PinRequiredReason.enrolledSetChanged.rawValue])
    }

    /// The hub changed the enrolled set: recorded (and audited) as the set this door now has,
    /// with no PIN asked for it. A PIN already required for an earlier change stays required.
    mutating func handleEnrolledSetFromHub(_ digest: String) {
        guard digest != state.enrolledDigest else { return }
        state.enrolledDigest = digest
        event("enrolled-set-changed", ["source": "hub"])
        audit("enrolled-set-changed", "the set of enrolled fingers changed by the fleet hub (authorised there; no PIN asked)")
    }

    /// Changing a user's flag needs a fresh verification of that user or of an admin.
    mutating func handleToggle(user: String, enable: Bool, verifiedBy: VerifiedIdentity?) {
        guard let verifier = verifiedBy, verifier.isAdmin || verifier.user == user,
              isFresh(verifier.verifiedAt) else {
            deny(.verificationRequired, user: user)
            return
        }
        emit(.setFingerprintUnlock(user: user, enabled: enable))
        event("fingerprint-unlock-changed", ["user": user, "enabled": String(enable)])
        audit("fingerprint-unlock-changed", user: user,
              "fingerprint unlock \(enable ? "enabled" : "disabled") by \(verifier.user)\(verifier.isAdmin ? " (admin)" : "")")
    }

    /// Measured on the monotonic clock: a verification from an earlier boot or from the
    /// future is not fresh.
    private func isFresh(_ verifiedAt: PolicyTime) -> Bool {
        if let boot = now.bootID, let then = verifiedAt.bootID, boot != then { return false }
        let age = now.monotonic - verifiedAt.monotonic
        return age >= 0 && age <= config.verificationValiditySeconds
    }

    /// The admin clear: both lockouts and PIN-only mode. "PIN required" reasons stay: they
    /// ask for a PIN at the door, which a socket command is not.
    mutating func handleAdminClear(by who: String) {
        clearFingerprintLockout(cause: "admin")
        let pinCounter = state.pinFailures
        state.pinFailures.reset()
        if pinCounter.permanent || pinCounter.remaining(at: clock) != nil {
            event("lockout-cleared", ["credential": "pin"])
        }
        let cardCounter = state.cardCounter
        state.cardCounter = FailureCounter()
        if cardCounter.permanent || cardCounter.remaining(at: clock) != nil {
            event("lockout-cleared", ["credential": "card"])
        }
        clearPinOnly(by: "admin clear", user: nil)
        emit(.led(state.pinOnly == nil ? .idle : .lockout))
        event("admin-clear")
        audit("admin-clear", "lockouts cleared by \(who)")
    }

    /// Fail closed: an unknown saved state may have held a lockout, so ask for a PIN.
    mutating func handleSavedStateUnreadable(_ problem: String) {
        state.pinRequired.insert(.savedStateUnreadable)
        endGrace()
        event("pin-required", ["reason": PinRequiredReason.savedStateUnreadable.rawValue])
        audit("policy-state-unreadable", "saved lock state unreadable (\(problem)); started with a PIN required")
    }

    /// A store failure between the module's match and the user: refused, and said so.
    mutating func handleMatchUnresolved(slot: Int, problem: String) {
        deny(.storeFailed("slot \(slot): \(problem)"))
    }
}
