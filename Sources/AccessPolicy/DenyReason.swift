/// Why the policy refused; every failure path has exactly one.
public enum DenyReason: Codable, Equatable, Sendable, CustomStringConvertible {
    case noMatch
    /// Fingerprints are locked for `remaining` seconds after repeated failures.
    case lockedOut(remaining: Double)
    /// Fingerprints are disabled after too many failures until a PIN or an admin clears it.
    case permanentlyLockedOut
    case pinRequired(PinRequiredReason)
    case wrongPin
    /// This wrong PIN started a timed PIN lockout of `seconds`.
    case wrongPinLockoutStarted(seconds: Double)
    /// This wrong PIN disabled PIN entry until an admin clears it.
    case wrongPinPermanentLockoutStarted
    /// A correct PIN, but an admin purpose needs an admin's PIN; counted as a wrong PIN.
    case notAnAdmin
    /// The store failed while the runtime mapped a match to a user.
    case storeFailed(String)
    case pinLockedOut(remaining: Double)
    /// PIN entry is disabled after too many wrong PINs until an admin clears it.
    case pinPermanentlyLockedOut
    case fingerprintDisabledForUser
    case fingerprintDisabledGlobally
    case pinOnlyMode(PinOnlyReason)
    case verificationRequired
    /// `.unlockRequested` outside the grace window.
    case freshMatchRequired
    case moduleUnavailable
    /// A remote (MQTT) request the policy keeps to people at the door right now.
    case remoteNotAllowed(RemoteRefusal)
    /// A card the store does not know (counted toward the card lockout).
    case unknownCard
    /// The card, or its owner, is switched off.
    case cardDisabled
    case cardLockedOut(remaining: Double)
    case cardPermanentlyLockedOut
    /// A combination failed. Which factor was wrong is not told (that would let one be guessed
    /// apart from the other); each wrong one was counted.
    case credentialsNotAccepted
    /// This factor does not open the door in this verify mode (not counted).
    case factorNotAccepted(CredentialFactor, mode: VerifyMode)
    /// The user's schedule, validity or uses keep them out now.
    case accessRule(AccessDenial)
    /// The door is in lockdown: only admins are let in.
    case lockdown
    /// Anti-passback (hard): this user entered at `lastEntry` (UTC seconds) and has not left.
    case passback(lastEntry: Int64)
    /// The fleet's hub has been silent too long, and the door keeps (all but admins, or
    /// everyone) out until it hears from it (config `fleet.whenStale`).
    case hubSilent(minutes: Int, mode: StaleFleetMode)

    public var description: String {
        switch self {
        case .noMatch:
            "fingerprint not recognised; try again or enter the PIN"
        case .lockedOut(let remaining):
            "fingerprint locked after repeated failures; try again in \(Self.seconds(remaining)) s or enter the PIN"
        case .permanentlyLockedOut:
            "fingerprint unlock disabled after too many failures; enter the PIN or ask an admin to clear it"
        case .pinRequired(let reason):
            "PIN required (\(reason.description)); enter the PIN once, then fingerprints work again"
        case .wrongPin:
            "wrong PIN; try again"
        case .wrongPinLockoutStarted(let seconds):
            "wrong PIN; too many wrong PINs, so PIN entry is now locked for \(Self.seconds(seconds)) s"
        case .wrongPinPermanentLockoutStarted:
            "wrong PIN; too many wrong PINs, so PIN entry is now disabled until an admin clears it (an admin finger, or `clear` as root on this machine)"
        case .notAnAdmin:
            "that is not an admin's PIN; admin commands need an admin's name and PIN (counted as a wrong PIN)"
        case .storeFailed(let problem):
            "the template store failed while looking up the finger (\(problem)); refused; check the store and the log"
        case .pinLockedOut(let remaining):
            "PIN entry locked after repeated wrong PINs; try again in \(Self.seconds(remaining)) s"
        case .pinPermanentlyLockedOut:
            "PIN entry disabled after too many wrong PINs; an admin must clear it (an admin finger, or `clear` as root on this machine)"
        case .fingerprintDisabledForUser:
            "fingerprint unlock is switched off for this user; enter the PIN or ask an admin to enable it"
        case .fingerprintDisabledGlobally:
            "fingerprint unlock is switched off in the config; enter the PIN"
        case .pinOnlyMode(let reason):
            "PIN-only mode (\(reason.description)); enter the PIN, and have an admin inspect and clear it"
        case .verificationRequired:
            "this change needs a recent verification of that user or an admin; verify first, then retry"
        case .freshMatchRequired:
            "no recent match; touch the sensor"
        case .moduleUnavailable:
            "fingerprint module not connected; enter the PIN and check the module wiring"
        case .remoteNotAllowed(let refusal):
            "refused from Home Assistant: \(refusal.description)"
        case .unknownCard:
            "card not recognised"
        case .cardDisabled:
            "this card is switched off; ask an admin"
        case .cardLockedOut(let remaining):
            "cards locked after repeated unknown cards; try again in \(Self.seconds(remaining)) s or use another credential"
        case .cardPermanentlyLockedOut:
            "cards disabled after too many unknown cards; an admin must clear it"
        case .credentialsNotAccepted:
            "not accepted; present both credentials again"
        case .factorNotAccepted(let factor, let mode):
            "a \(factor) alone does not open this door (\(mode)): \(mode.instructions)"
        case .accessRule(let denial):
            "not now: \(denial)"
        case .lockdown:
            "not now: the door is in lockdown; only admins are let in"
        case .hubSilent(let minutes, let mode):
            "not now: the door has not heard from its fleet hub for \(minutes) min, so "
                + (mode == .locked ? "no credential opens it" : "only admins are let in") + " until it does (fleet.whenStale)"
        case .passback(let lastEntry):
            "not now: already entered at \(lastEntry) (UTC seconds) without leaving through the exit reader (anti-passback)"
        }
    }

    private static func seconds(_ value: Double) -> String {
        String(wholeSecondsUp(value))
    }
}

/// Why a fingerprint is not enough right now. Cleared by one correct PIN.
public enum PinRequiredReason: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    case enrolledSetChanged
    case restart
    case noPinForTooLong
    case savedStateUnreadable

    public var description: String {
        switch self {
        case .enrolledSetChanged: "the enrolled fingers changed"
        case .restart: "the service restarted"
        case .noPinForTooLong: "the PIN was not used for too long"
        case .savedStateUnreadable: "the saved lock state was unreadable, so any lockout it held is unknown"
        }
    }
}

/// Why fingerprints are refused until an admin clears it.
public enum PinOnlyReason: Codable, Equatable, Sendable, CustomStringConvertible {
    case tamperSwitch
    case moduleTamper(ModuleTamperReason)

    public var description: String {
        switch self {
        case .tamperSwitch: "the enclosure tamper switch opened"
        case .moduleTamper(let reason): "module tamper: \(reason.description)"
        }
    }
}
