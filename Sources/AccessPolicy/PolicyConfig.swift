/// Every number and switch of the unlock/lockout policy. Defaults follow field.md §3/§4.
/// Decoding fills missing keys with defaults; call `validate()` before use.
public struct PolicyConfig: Codable, Equatable, Sendable {
    /// What an unlock drives.
    public enum Mode: String, Codable, Sendable {
        /// An electric strike: each unlock is a relay pulse of `relayPulseSeconds`.
        case door
        /// A kiosk/cabinet: stays unlocked until `idleTimeoutSeconds` without activity.
        case kiosk
    }

    /// The largest grace window accepted (iOS `LATouchIDAuthenticationMaximumAllowableReuseDuration`).
    public static let maximumGraceSeconds: Double = 300

    public var mode: Mode = .door
    /// When false, fingerprints never unlock (PIN only), without counting as a tamper.
    public var fingerprintUnlockEnabled: Bool = true
    public var fingerprintLockout = LockoutThresholds()
    public var pinLockout = LockoutThresholds()
    /// Door mode: how long the strike is energised per unlock.
    public var relayPulseSeconds: Double = 3
    /// Kiosk mode: re-lock after this long without `.activity`.
    public var idleTimeoutSeconds: Double = 10
    /// Kiosk mode: re-lock at most this long after `.background`.
    public var backgroundTimeoutSeconds: Double = 10
    /// After a fingerprint unlock, `.unlockRequested` is honoured this long without a new
    /// match. 0 (default) = every unlock needs a fresh match. At most 300.
    public var graceSeconds: Double = 0
    /// Require the PIN once after every `.started`.
    public var pinRequiredAfterRestart: Bool = false
    /// Require the PIN when it was last entered this many hours ago (0 = never).
    public var pinRequiredAfterHoursWithoutPin: Double = 0
    /// Require the PIN once after the enrolled set of fingers changed.
    public var pinRequiredAfterEnrolledSetChange: Bool = true
    /// Raise `.heldOpen` when the door stays open this long.
    public var heldOpenSeconds: Double = 30
    /// After an unlock ends, opening the door within this many seconds is not "forced"
    /// (someone pulling the door as the strike releases); also applies after the exit button.
    public var forcedOpenExemptSeconds: Double = 5
    /// Door mode: when the door closes after being opened during an unlock, lock at once
    /// instead of waiting for the pulse to end (anti-tailgating).
    public var relockOnDoorClose: Bool = true
    /// A `VerifiedIdentity` older than this does not authorise a settings change.
    public var verificationValiditySeconds: Double = 60
    /// Which credentials open the door (a user's own mode, from the store, overrides it).
    public var verifyMode: VerifyMode = .fingerOrPin
    /// A combination's second factor must come this long after the first at most.
    public var factorWindowSeconds: Double = 10
    /// Wrong and unknown cards, counted as fingerprints and PINs are.
    public var cardLockout = LockoutThresholds()
    /// Two-person rule: a credential grant needs two different authorised users within this
    /// many seconds (5 to 600); nil: off.
    public var twoPersonSeconds: Double?
    /// Anti-passback between the entry and the exit reader.
    public var antiPassback: AntiPassbackMode = .off

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case mode, fingerprintUnlockEnabled, fingerprintLockout, pinLockout, relayPulseSeconds
        case idleTimeoutSeconds, backgroundTimeoutSeconds, graceSeconds, pinRequiredAfterRestart
        case pinRequiredAfterHoursWithoutPin, pinRequiredAfterEnrolledSetChange, heldOpenSeconds
        case forcedOpenExemptSeconds, relockOnDoorClose, verificationValiditySeconds
        case verifyMode, factorWindowSeconds, cardLockout, twoPersonSeconds, antiPassback
    }

    /// Missing keys take their defaults, so a config file only states what it overrides.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var d = PolicyConfig()
        func take<T: Decodable>(_ key: CodingKeys, _ value: inout T) throws {
            if let decoded = try c.decodeIfPresent(T.self, forKey: key) { value = decoded }
        }
        try take(.mode, &d.mode)
        try take(.fingerprintUnlockEnabled, &d.fingerprintUnlockEnabled)
        try take(.fingerprintLockout, &d.fingerprintLockout)
        try take(.pinLockout, &d.pinLockout)
        try take(.relayPulseSeconds, &d.relayPulseSeconds)
        try take(.idleTimeoutSeconds, &d.idleTimeoutSeconds)
        try take(.backgroundTimeoutSeconds, &d.backgroundTimeoutSeconds)
        try take(.graceSeconds, &d.graceSeconds)
        try take(.pinRequiredAfterRestart, &d.pinRequiredAfterRestart)
        try take(.pinRequiredAfterHoursWithoutPin, &d.pinRequiredAfterHoursWithoutPin)
        try take(.pinRequiredAfterEnrolledSetChange, &d.pinRequiredAfterEnrolledSetChange)
        try take(.heldOpenSeconds, &d.heldOpenSeconds)
        try take(.forcedOpenExemptSeconds, &d.forcedOpenExemptSeconds)
        try take(.relockOnDoorClose, &d.relockOnDoorClose)
        try take(.verificationValiditySeconds, &d.verificationValiditySeconds)
        try take(.verifyMode, &d.verifyMode)
        try take(.factorWindowSeconds, &d.factorWindowSeconds)
        try take(.cardLockout, &d.cardLockout)
        d.twoPersonSeconds = try c.decodeIfPresent(Double.self, forKey: .twoPersonSeconds)
        try take(.antiPassback, &d.antiPassback)
        self = d
    }
}
