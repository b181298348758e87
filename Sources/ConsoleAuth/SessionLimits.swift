import AccessPolicy

/// How long a console session lasts, and how login failures are rate-limited.
public struct SessionLimits: Equatable, Sendable {
    /// A session unused this long ends (30 minutes).
    public var idleSeconds: Double
    /// A session ends this long after login however much it is used (12 hours).
    public var absoluteSeconds: Double
    /// The policy's own counter rules, per name typed at the login form.
    public var loginLockout: LockoutThresholds

    /// Every 5th consecutive failure of a name locks it for 30 seconds (the policy's timed
    /// lockout), and never for good: a permanent lockout would let anyone who knows an admin's
    /// name lock them out of the console. Five guesses per 30 s against Argon2id and a
    /// 10-character minimum is slow enough.
    public static let defaultLoginLockout = LockoutThresholds(failuresPerTimedLockout: 5, timedLockoutSeconds: 30,
                                                              failuresForPermanentLockout: Int.max)

    public init(idleSeconds: Double = 30 * 60, absoluteSeconds: Double = 12 * 3600,
                loginLockout: LockoutThresholds = SessionLimits.defaultLoginLockout) {
        self.idleSeconds = idleSeconds
        self.absoluteSeconds = absoluteSeconds
        self.loginLockout = loginLockout
    }
}
