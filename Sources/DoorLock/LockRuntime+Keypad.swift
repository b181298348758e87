import AccessPolicy
import Keypad
import Posix

/// The keypad's PIN at the door: an entry is offered to the policy (a PIN lockout refuses it
/// before any check, so the keypad is no oracle either), checked off the loop like `pin PIN`
/// on the control socket, and decided by the policy, which counts wrong PINs, sets the LEDs and
/// buzzer, and opens the relay. The `keypad` event says accepted, wrong, or locked out for N s:
/// never which digits, never how close.
extension LockRuntime {
    func startKeypad() {
        guard let section = config.keypad else { return }
        let settings: KeypadEntry.Settings
        do { settings = try section.entrySettings } catch {
            return log("keypad: not used: \(error)")
        }
        let port = KeypadPort(spec: section.device, settings: settings)
        keypad = port
        report(port.connect())
    }

    func handleKeypad() {
        guard let keypad else { return }
        report(keypad.service())
    }

    private func report(_ happenings: [KeypadPort.Happening]) {
        for happening in happenings {
            switch happening {
            case .note(let line):
                if !line.isEmpty { log(line) }
            case .refused:
                // No PIN is that short or that long: said at once, and not counted as a guess.
                keypadFeedback("wrong", reason: nil)
                showLED(.deny, revert: true)
                sound(.deny)
            case .entry(var secret, let submittedAt):
                offerKeypadPIN(secret.reveal(), submittedAt: submittedAt)
                secret.wipe()
            }
        }
    }

    /// `submittedAt`: when the entry was submitted (CLOCK_MONOTONIC seconds: the submit key's
    /// kernel time), so the `keypad` event can say how long the decision took from there.
    func offerKeypadPIN(_ pin: String, submittedAt: Double) {
        let user = pendingFactorUser
        if let refusal = decide(.pinOffered(user: user, purpose: .unlock)).denial {
            return keypadFeedback(for: refusal, submittedAt: submittedAt)
        }
        let id = nextRequestID
        guard pinChecker.submit(.init(requestID: id, action: .unlock, user: user, pin: pin)) else {
            return keypadFeedback("busy", reason: nil)
        }
        nextRequestID += 1
        keypadChecks[id] = submittedAt
    }

    /// The policy decided on a keypad entry (its events, LEDs and audit rows are out already).
    func finishKeypadEntry(_ effects: [PolicyEffect], submittedAt: Double) {
        if let denial = effects.denial { return keypadFeedback(for: denial, submittedAt: submittedAt) }
        if let next = effects.nextFactor { return keypadFeedback("next", reason: nil, next: next, submittedAt: submittedAt) }
        keypadFeedback("accepted", reason: nil, submittedAt: submittedAt)
    }

    private func keypadFeedback(for denial: DenyReason, submittedAt: Double) {
        switch denial {
        case .pinLockedOut(let remaining):
            keypadFeedback("locked-out", reason: nil, seconds: remaining, submittedAt: submittedAt)
        case .wrongPinLockoutStarted(let seconds):
            keypadFeedback("locked-out", reason: nil, seconds: seconds, submittedAt: submittedAt)
        case .pinPermanentlyLockedOut, .wrongPinPermanentLockoutStarted:
            keypadFeedback("locked-out", reason: nil, submittedAt: submittedAt)
        default:
            keypadFeedback("wrong", reason: nil, submittedAt: submittedAt)
        }
    }

    /// The `keypad` event: `result` accepted, wrong, locked-out (with `seconds` when it ends),
    /// busy or failed; after a decision on an entry, `decisionMs` from its submit key.
    func keypadFeedback(_ result: String, reason: String?, seconds: Double? = nil, next: String? = nil, submittedAt: Double? = nil) {
        var fields = ["result": result]
        if let submittedAt { fields["decisionMs"] = DurationFields.milliseconds(since: submittedAt) }
        if let next { fields["next"] = next }
        if let seconds { fields["seconds"] = String(Int(seconds.rounded(.up))) }
        if let reason { fields["reason"] = reason }
        emit(LockEvent(name: "keypad", fields: fields))
    }
}

/// Event fields for durations.
enum DurationFields {
    /// Milliseconds from `start` (CLOCK_MONOTONIC seconds) to now, to a tenth.
    static func milliseconds(since start: Double) -> String {
        let elapsed = max(0, Monotonic.seconds() - start) * 1000
        return String((elapsed * 10).rounded() / 10)
    }
}
