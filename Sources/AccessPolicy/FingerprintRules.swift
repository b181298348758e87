extension Step {
    /// Why no fingerprint may unlock right now, whoever's finger it is.
    var fingerprintBlock: DenyReason? {
        if let reason = state.pinOnly { return .pinOnlyMode(reason) }
        if !config.fingerprintUnlockEnabled { return .fingerprintDisabledGlobally }
        if !state.moduleConnected { return .moduleUnavailable }
        if state.fingerprintFailures.permanent { return .permanentlyLockedOut }
        if let remaining = state.fingerprintFailures.remaining(at: clock) {
            return .lockedOut(remaining: remaining)
        }
        return nil
    }

    /// Every reason a PIN is needed before a fingerprint unlocks, in a fixed order.
    var pinRequirements: [PinRequiredReason] {
        var reasons = state.pinRequired
        let hours = config.pinRequiredAfterHoursWithoutPin
        if hours > 0, state.lastPinAt.map({ clock - $0 >= hours * 3600 }) ?? true {
            reasons.insert(.noPinForTooLong)
        }
        return PinRequiredReason.allCases.filter(reasons.contains)
    }

    /// The reason reported when a finger is refused for want of a PIN.
    var pinRequirement: PinRequiredReason? { pinRequirements.first }

    /// A match unlocks unless blocked. An admin's finger does not clear a fingerprint lockout
    /// or PIN-only mode, because the finger is the very credential under attack (Android: only
    /// the device credential clears a permanent lockout); it does end a PIN lockout, so an
    /// admin locked out of PIN entry can get in again. A duress
    /// finger raises the silent alarm even when refused — its owner is under coercion either way.
    mutating func handleMatch(_ match: FingerMatch) {
        if match.isDuress {
            emit(.duressAlarm(user: match.user))
        }
        if let block = fingerprintBlock {
            deny(block, user: match.user)
            return
        }
        if !match.userEnabled {
            deny(.fingerprintDisabledForUser, user: match.user)
            return
        }
        if match.isAdmin { clearPinLockout(byAdminFinger: match.user) }
        if let reason = pinRequirement {
            deny(.pinRequired(reason), user: match.user)
            return
        }
        if refusedAtGrant(match.user, isAdmin: match.isAdmin) { return }
        state.fingerprintFailures.reset()
        if config.graceSeconds > 0 {
            state.graceUntil = clock + config.graceSeconds
            state.graceUser = match.user
        }
        emit(.led(.match))
        emit(.buzzer(.accept))
        event("match", ["user": match.user, "slot": String(match.slot), "score": String(match.score)])
        audit("match", user: match.user, "slot \(match.slot), score \(match.score)")
        unlock(.fingerprint, user: match.user)
    }

    /// A false trial. Counted only when fingerprints could have unlocked; attempts during a
    /// lockout are refused without counting (as Android, which stops the sensor then).
    mutating func handleNoMatch() {
        if let block = fingerprintBlock {
            deny(block)
            return
        }
        let outcome = state.fingerprintFailures.recordFailure(
            at: clock, thresholds: config.fingerprintLockout)
        deny(.noMatch)
        announceFingerprintLockout(outcome)
    }

    /// The lockout a counted fingerprint failure started, if any: LED, buzzer, event, audit.
    mutating func announceFingerprintLockout(_ outcome: FailureOutcome) {
        if outcome != .counted { endGrace() }
        announceLockout(outcome, failures: state.fingerprintFailures.consecutive, eventPrefix: "lockout",
                        what: "failed matches", locked: "fingerprints", clearedBy: "a PIN or an admin clears it")
    }

    mutating func handleCaptureRejected(_ problem: CaptureProblem) {
        emit(.buzzer(.retry))
        event(problem == .misplaced ? "misplaced" : "retry-scan")
    }

    /// Reuses the last match within the grace window; otherwise a fresh match is needed.
    mutating func handleUnlockRequested() {
        if let block = fingerprintBlock {
            deny(block)
            return
        }
        guard let until = state.graceUntil, clock < until else {
            deny(.freshMatchRequired)
            return
        }
        if let reason = pinRequirement {
            deny(.pinRequired(reason), user: state.graceUser)
            return
        }
        if refusedAtGrant(state.graceUser, isAdmin: false) { return }
        emit(.led(.match))
        emit(.buzzer(.accept))
        audit("grace-unlock", user: state.graceUser, "unlock within the grace window of the last match")
        unlock(.grace, user: state.graceUser)
    }

    mutating func endGrace() {
        state.graceUntil = nil
        state.graceUser = nil
    }
}
