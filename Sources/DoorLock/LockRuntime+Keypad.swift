import AccessPolicy
import Keypad

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
            case .entry(var secret):
                offerKeypadPIN(secret.reveal())
                secret.wipe()
            }
        }
    }

    func offerKeypadPIN(_ pin: String) {
        let user = pendingFactorUser
        if let refusal = decide(.pinOffered(user: user, purpose: .unlock)).denial {
            return keypadFeedback(for: refusal)
        }
        let id = nextRequestID
        guard pinChecker.submit(.init(requestID: id, action: .unlock, user: user, pin: pin)) else {
            return keypadFeedback("busy", reason: nil)
        }
        nextRequestID += 1
        keypadChecks.insert(id)
    }

    /// The policy decided on a keypad entry (its events, LEDs and audit rows are out already).
    func finishKeypadEntry(_ effects: [PolicyEffect]) {
        if let denial = effects.denial { return keypadFeedback(for: denial) }
        if let next = effects.nextFactor { return keypadFeedback("next", reason: nil, next: next) }
        keypadFeedback("accepted", reason: nil)
    }

    private func keypadFeedback(for denial: DenyReason) {
        switch denial {
        case .pinLockedOut(let remaining):
            keypadFeedback("locked-out", reason: nil, seconds: remaining)
        case .wrongPinLockoutStarted(let seconds):
            keypadFeedback("locked-out", reason: nil, seconds: seconds)
        case .pinPermanentlyLockedOut, .wrongPinPermanentLockoutStarted:
            keypadFeedback("locked-out", reason: nil)
        default:
            keypadFeedback("wrong", reason: nil)
        }
    }

    /// The `keypad` event: `result` accepted, wrong, locked-out (with `seconds` when it ends),
    /// busy or failed.
    func keypadFeedback(_ result: String, reason: String?, seconds: Double? = nil, next: String? = nil) {
        var fields = ["result": result]
        if let next { fields["next"] = next }
        if let seconds { fields["seconds"] = String(Int(seconds.rounded(.up))) }
        if let reason { fields["reason"] = reason }
        emit(LockEvent(name: "keypad", fields: fields))
    }
}
