/// How repeated failures of one credential (fingerprint or PIN) are rate-limited.
///
/// Android's framework numbers are the defaults: every `failuresPerTimedLockout`-th
/// consecutive failure starts a timed lockout; reaching `failuresForPermanentLockout`
/// disables the credential until it is cleared.
public struct LockoutThresholds: Codable, Equatable, Sendable {
    /// A timed lockout starts at every multiple of this count (5 → at 5, 10, 15 …).
    public var failuresPerTimedLockout: Int
    /// Length of each timed lockout, in seconds.
    public var timedLockoutSeconds: Double
    /// At this count the credential is disabled until cleared (no timed lockout then).
    public var failuresForPermanentLockout: Int

    public init(failuresPerTimedLockout: Int = 5, timedLockoutSeconds: Double = 30,
                failuresForPermanentLockout: Int = 20) {
        self.failuresPerTimedLockout = failuresPerTimedLockout
        self.timedLockoutSeconds = timedLockoutSeconds
        self.failuresForPermanentLockout = failuresForPermanentLockout
    }

    private enum CodingKeys: String, CodingKey {
        case failuresPerTimedLockout, timedLockoutSeconds, failuresForPermanentLockout
    }

    /// Missing keys take their defaults, so a config file only states what it overrides.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = LockoutThresholds()
        failuresPerTimedLockout = try c.decodeIfPresent(Int.self, forKey: .failuresPerTimedLockout)
            ?? d.failuresPerTimedLockout
        timedLockoutSeconds = try c.decodeIfPresent(Double.self, forKey: .timedLockoutSeconds)
            ?? d.timedLockoutSeconds
        failuresForPermanentLockout = try c.decodeIfPresent(Int.self, forKey: .failuresForPermanentLockout)
            ?? d.failuresForPermanentLockout
    }
}
