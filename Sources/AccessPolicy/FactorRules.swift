/// Verify modes: which credentials open the door alone, and combinations of two factors of one
/// user. Under the default `finger-or-pin`, with nothing waiting, credentials take today's paths
/// (`handleMatch`, `handleNoMatch`, `handlePin`) unchanged.
///
/// A combination's first factor is never judged aloud: a known card, an unknown one, a matched
/// finger and an unmatched one all get the same "factor-needed" answer, so the first factor
/// cannot be probed on its own. The second decides the attempt; each wrong factor is counted
/// toward its own lockout, the refusal does not say which.
extension Step {
    /// A credential as the factor rules see it.
    struct Presented {
        let factor: CredentialFactor
        let user: String?
        /// Right and usable: a matched finger whose owner may use it, a correct PIN, a known card
        /// that is switched on.
        let valid: Bool
        /// Counted toward its lockout when wrong (a switched-off credential is refused, not counted).
        let countsIfWrong: Bool
        let userMode: VerifyMode?
        let label: String
        var isAdmin = false
    }

    /// Whether a credential goes through these rules rather than today's finger-or-PIN handlers.
    func usesFactorRules(userMode: VerifyMode?) -> Bool {
        state.pendingFactor != nil || (userMode ?? config.verifyMode) != .fingerOrPin
    }

    mutating func presentFinger(_ match: FingerMatch?, userMode: VerifyMode?) {
        if let match, match.isDuress { emit(.duressAlarm(user: match.user)) }
        if let block = fingerprintBlock {
            state.pendingFactor = nil
            deny(block, user: match?.user)
            return
        }
        let label = match.map { "slot \($0.slot), score \($0.score)" } ?? "no match"
        let presented = Presented(factor: .finger, user: match?.user, valid: match?.userEnabled ?? false,
                                  countsIfWrong: match == nil, userMode: userMode, label: label,
                                  isAdmin: match?.isAdmin ?? false)
        guard let mode = combine(presented) else { return }
        guard mode.opensAlone(.finger) else {
            deny(.factorNotAccepted(.finger, mode: mode), user: match?.user)
            return
        }
        if let match {
            // The duress alarm went out above; handleMatch would raise it again.
            handleMatch(FingerMatch(user: match.user, slot: match.slot, score: match.score, isAdmin: match.isAdmin,
                                    isDuress: false, userEnabled: match.userEnabled))
        } else {
            handleNoMatch()
        }
    }

    mutating func presentPin(user: String?, correct: Bool, isAdmin: Bool, userMode: VerifyMode?) {
        if let refusal = pinEntryRefusal {
            state.pendingFactor = nil
            deny(refusal, user: user)
            return
        }
        let presented = Presented(factor: .pin, user: user, valid: correct && user != nil, countsIfWrong: !correct,
                                  userMode: userMode, label: "PIN", isAdmin: correct && isAdmin)
        guard let mode = combine(presented) else { return }
        handlePin(user: user, correct: correct, isAdmin: isAdmin, purpose: .unlock,
                  notOpeningIn: mode.opensAlone(.pin) ? nil : mode)
    }

    mutating func presentCard(_ card: CardPresentation) {
        if let block = cardBlock {
            state.pendingFactor = nil
            deny(block, user: card.user)
            return
        }
        let outOfValidity = cardValidityDenial(card)
        let presented = Presented(factor: .card, user: card.user, valid: card.user != nil && card.enabled && outOfValidity == nil,
                                  countsIfWrong: card.user == nil, userMode: card.userVerifyMode, label: card.label,
                                  isAdmin: card.isAdmin ?? false)
        guard let mode = combine(presented) else { return }
        guard mode.opensAlone(.card) else {
            deny(.factorNotAccepted(.card, mode: mode), user: card.user)
            return
        }
        guard let user = card.user else {
            let outcome = countFailure(of: .card)
            deny(.unknownCard)
            announceLockout(of: .card, outcome)
            return
        }
        guard card.enabled else {
            deny(.cardDisabled, user: user)
            return
        }
        if let outOfValidity {
            deny(.accessRule(outOfValidity), user: user)
            return
        }
        state.cardCounter = FailureCounter()
        if refusedAtGrant(user, isAdmin: card.isAdmin ?? false) { return }
        emit(.led(.match))
        emit(.buzzer(.accept))
        event("card-ok", ["user": user])
        audit("card-ok", user: user, card.label)
        unlock(.card, user: user)
    }

    /// The card's own validity at this moment (a visitor's badge until Sunday); nil: valid.
    func cardValidityDenial(_ card: CardPresentation) -> AccessDenial? {
        let now = Int64(self.now.wall.rounded(.down))
        if let from = card.validFrom, now < from { return .credentialNotYetValid(from: from) }
        if let until = card.validUntil, now >= until { return .credentialExpired(at: until) }
        return nil
    }

    /// Why no card may open right now, whoever's it is.
    var cardBlock: DenyReason? {
        if let reason = state.pinOnly { return .pinOnlyMode(reason) }
        let counter = state.cardCounter
        if counter.permanent { return .cardPermanentlyLockedOut }
        if let remaining = counter.remaining(at: clock) { return .cardLockedOut(remaining: remaining) }
        return nil
    }

    /// Takes `presented` as the second factor of the waiting combination (deciding it) or as the
    /// first of a new one (waiting for its partner). Returns the mode in force when it did
    /// neither: the caller opens with the credential alone, or refuses it.
    private mutating func combine(_ presented: Presented) -> VerifyMode? {
        if let pending = state.pendingFactor {
            state.pendingFactor = nil
            if pending.factor != presented.factor, pending.mode.combines(presented.factor) {
                decideCombination(pending, presented)
                return nil
            }
            audit("factor-replaced", user: pending.user,
                  "a \(pending.factor) (\(pending.label)) was waiting; a \(presented.factor) came instead, so the attempt starts over")
        }
        let mode = presented.userMode ?? config.verifyMode
        guard let partner = mode.partner(of: presented.factor) else { return mode }
        state.pendingFactor = PendingFactor(factor: presented.factor, user: presented.user, valid: presented.valid,
                                            countsIfWrong: presented.countsIfWrong, mode: mode,
                                            until: clock + config.factorWindowSeconds, label: presented.label,
                                            isAdmin: presented.isAdmin ? true : nil)
        let seconds = String(wholeSecondsUp(config.factorWindowSeconds))
        emit(.buzzer(.retry))
        event("factor-needed", ["next": partner.rawValue, "mode": mode.rawValue, "seconds": seconds])
        audit("factor-pending", user: presented.user,
              "\(presented.factor) presented (\(presented.label)); waiting \(seconds) s for the \(partner) (\(mode))")
        return nil
    }

    private mutating func decideCombination(_ first: PendingFactor, _ second: Presented) {
        let mode = first.mode
        if first.valid, second.valid, let user = second.user, first.user == user {
            if mode.combines(.finger), !mode.combines(.pin), let reason = pinRequirement {
                deny(.pinRequired(reason), user: user)
                return
            }
            resetCounter(of: first.factor)
            resetCounter(of: second.factor)
            if mode.combines(.pin) {
                state.pinRequired = []
                state.lastPinAt = clock
            }
            // Both factors name one user: either one saying admin is that user being an admin.
            if refusedAtGrant(user, isAdmin: first.isAdmin == true || second.isAdmin) { return }
            emit(.led(.match))
            emit(.buzzer(.accept))
            event("verified", ["user": user, "factors": "\(first.factor.rawValue)+\(second.factor.rawValue)"])
            audit("verified", user: user, "\(first.factor) (\(first.label)) and \(second.factor) (\(second.label)) of one user (\(mode))")
            unlock(mode.unlockReason, user: user)
            return
        }
        var counted: [(CredentialFactor, FailureOutcome)] = []
        if !first.valid, first.countsIfWrong { counted.append((first.factor, countFailure(of: first.factor))) }
        if !second.valid, second.countsIfWrong { counted.append((second.factor, countFailure(of: second.factor))) }
        if first.valid, second.valid {
            // Two people's credentials: the second is the one offered for the first's owner.
            counted.append((second.factor, countFailure(of: second.factor)))
        }
        let wrong = counted.map { $0.0.description }.joined(separator: " and ")
        emit(.deny(.credentialsNotAccepted))
        emit(.led(.deny))
        emit(.buzzer(.deny))
        event(DenyReason.credentialsNotAccepted.eventName)
        audit(DenyReason.credentialsNotAccepted.eventName, user: first.user ?? second.user,
              "\(first.factor) (\(first.label)) then \(second.factor) (\(second.label)): " +
              (wrong.isEmpty ? "a switched-off credential" : "wrong \(wrong), counted"))
        for (factor, outcome) in counted { announceLockout(of: factor, outcome) }
    }

    private mutating func countFailure(of factor: CredentialFactor) -> FailureOutcome {
        switch factor {
        case .finger:
            return state.fingerprintFailures.recordFailure(at: clock, thresholds: config.fingerprintLockout)
        case .pin:
            return state.pinFailures.recordFailure(at: clock, thresholds: config.pinLockout)
        case .card:
            var counter = state.cardCounter
            let outcome = counter.recordFailure(at: clock, thresholds: config.cardLockout)
            state.cardCounter = counter
            return outcome
        }
    }

    private mutating func resetCounter(of factor: CredentialFactor) {
        switch factor {
        case .finger: state.fingerprintFailures.reset()
        case .pin: state.pinFailures.reset()
        case .card: state.cardCounter = FailureCounter()
        }
    }

    private mutating func announceLockout(of factor: CredentialFactor, _ outcome: FailureOutcome) {
        switch factor {
        case .finger: announceFingerprintLockout(outcome)
        case .pin: announcePinLockout(outcome)
        case .card: announceCardLockout(outcome)
        }
    }

    private mutating func announceCardLockout(_ outcome: FailureOutcome) {
        announceLockout(outcome, failures: state.cardCounter.consecutive, eventPrefix: "card-lockout",
                        what: "unknown or wrong cards", locked: "cards", clearedBy: "an admin clears it")
    }

    /// A waiting first factor whose partner did not come in time: dropped, not counted (nothing
    /// was told about it, so nothing was learnt).
    mutating func expirePendingFactor() {
        guard let pending = state.pendingFactor, clock >= pending.until else { return }
        state.pendingFactor = nil
        emit(.led(.idle))
        event("factor-timeout", ["mode": pending.mode.rawValue])
        audit("factor-timeout", user: pending.user, "a \(pending.factor) (\(pending.label)) waited \(String(wholeSecondsUp(config.factorWindowSeconds))) s for its partner in vain")
    }
}
