/// Something the runtime must do, in the order given. Effects are values; `decide` does no I/O.
///
/// Actuator contract: `.unlock` energises the strike, `.lock` releases it. In door mode
/// `.relayPulse` follows every `.unlock` as a hardware cap: the runtime should release the
/// strike after that many seconds even if the `.tick` that brings `.lock` comes late.
public enum PolicyEffect: Codable, Equatable, Sendable {
    /// Unlock; `until` is when the policy will lock again (nil = until `.lock`).
    case unlock(UnlockReason, user: String?, until: PolicyTime?)
    case relayPulse(seconds: Double)
    case lock
    /// Tell the person at the door why not (display, log); the LED/buzzer come separately.
    case deny(DenyReason)
    case led(LedPattern)
    case buzzer(BuzzerPattern)
    /// A row for the audit log.
    case audit(event: String, user: String?, detail: String)
    /// A public event for the socket/MQTT, fprintd-like names (`match`, `no-match`, `lockout` …).
    case event(name: String, fields: [String: String])
    case alarm(AlarmKind)
    case alarmCleared(AlarmKind)
    /// Silent: only to the dedicated duress sink, never to public events, LED or buzzer.
    case duressAlarm(user: String)
    /// Store the user's fingerprint-unlock flag.
    case setFingerprintUnlock(user: String, enabled: Bool)
    /// The durable part of the state changed: save it now.
    case persist
    /// Take one of `user`'s limited uses from the store, atomically, before any later effect of
    /// this decision; when none is left there (another door took it), skip this decision's
    /// remaining effects and send `.useRefused(user:)`.
    case consumeUse(user: String)
}

public enum UnlockReason: String, Codable, Sendable {
    case fingerprint
    case pin
    /// Reuse of a recent match within the grace window.
    case grace
    case exitButton
    /// A code from Home Assistant (`RequestSource.remote`).
    case remote
    case card
    /// Two factors of one user, within the verify mode's window.
    case cardAndFinger = "card-and-finger"
    case fingerAndPin = "finger-and-pin"
    case cardAndPin = "card-and-pin"
    /// Held open by passage or first-person-in mode: no `.relayPulse`, the runtime holds the
    /// relay until `.lock`.
    case passage

    /// Opened by a user's own credential (not the exit button or a reuse of one).
    var isByCredential: Bool {
        switch self {
        case .fingerprint, .pin, .remote, .card, .cardAndFinger, .fingerAndPin, .cardAndPin, .grace: true
        case .exitButton, .passage: false
        }
    }
}

public enum LedPattern: String, Codable, Sendable {
    case idle, match, deny, lockout
}

public enum BuzzerPattern: String, Codable, Sendable {
    case accept, deny, retry, lockout
}

public enum AlarmKind: String, Codable, Sendable {
    case forcedOpen, heldOpen, tamper, moduleTamper
}
