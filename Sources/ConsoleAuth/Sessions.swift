import AccessPolicy
import Foundation
import TemplateStore

/// Logins and the sessions they start, over the store, with an injected wall clock.
public struct Sessions: Sendable {
    let store: TemplateStore
    let clock: WallClock
    public let limits: SessionLimits

    public init(store: TemplateStore, clock: @escaping WallClock = systemWallClock, limits: SessionLimits = SessionLimits()) {
        self.store = store
        self.clock = clock
        self.limits = limits
        // The stand-in hash is made here, not at the first unknown name, whose answer would
        // otherwise take twice as long as a wrong password's.
        _ = Passwords.standIn
    }

    var audit: ConsoleAudit { ConsoleAudit(store: store, clock: clock) }

    /// Checks a name and password; a session, or why not. `address` (the client's) goes into
    /// the audit row. Throws only when the store fails.
    public func login(name: String, password: String, from address: String) throws -> Result<NewSession, LoginFailure> {
        try Secrets.ready()
        // A name that cannot be an account is no account: the same answer, the same Argon2
        // time, and nothing stored for it.
        guard let account = try? ConsoleName(validating: name) else {
            _ = Passwords.verify(password, hash: Passwords.standIn)
            return .failure(.wrongCredentials)
        }
        if let refusal = lockout(try store.consoleLoginFailures(of: account.text)) { return .failure(refusal) }
        let credentials = try store.consoleCredentials(of: account.text)
        let verified = Passwords.verify(password, hash: credentials?.passwordHash ?? Passwords.standIn)
        guard let credentials, verified else { return .failure(try countFailure(of: account.text, from: address)) }
        try store.setConsoleLoginFailures(FailureCounter(), of: account.text)
        let session = try start(account: account.text, role: credentials.role)
        try audit.record(.login, account: account.text, detail: "from \(address)")
        return .success(session)
    }

    /// A session for an account that has just proved itself another way (the setup page).
    public func start(account: String) throws -> NewSession {
        guard let role = try store.consoleCredentials(of: account)?.role else { throw StoreError.unknownConsoleAccount(account) }
        return try start(account: account, role: role)
    }

    func start(account: String, role: ConsoleRole) throws -> NewSession {
        try Secrets.ready()
        let token = Secrets.token(), csrf = Secrets.token(), now = clock()
        try store.insertConsoleSession(tokenHash: Secrets.hash(token), account: account, csrf: csrf, at: Date(timeIntervalSince1970: now))
        return NewSession(token: token, csrf: csrf, account: account, role: role, expiresAt: now + limits.absoluteSeconds)
    }

    /// The session of a cookie's token, its last use moved to now; nil when there is none or it
    /// has ended (idle too long, or older than the absolute limit), which removes it.
    public func authenticate(cookieToken: String) throws -> ActiveSession? {
        try authenticate(cookieToken: cookieToken, touching: true)
    }

    /// Whether the cookie's session still holds, without counting this as a use: what an open
    /// event stream asks now and then, so a tab left open neither outlives a logout nor keeps its
    /// session from going idle.
    public func isActive(cookieToken: String) throws -> Bool {
        try authenticate(cookieToken: cookieToken, touching: false) != nil
    }

    private func authenticate(cookieToken: String, touching: Bool) throws -> ActiveSession? {
        guard !cookieToken.isEmpty, cookieToken.utf8.count <= 256 else { return nil }
        try Secrets.ready()
        let hash = Secrets.hash(cookieToken), now = clock()
        guard let session = try store.consoleSession(tokenHash: hash) else { return nil }
        let created = session.createdAt.timeIntervalSince1970
        guard now - session.lastSeen.timeIntervalSince1970 < limits.idleSeconds, now - created < limits.absoluteSeconds else {
            try store.deleteConsoleSession(tokenHash: hash)
            return nil
        }
        if touching { try store.touchConsoleSession(tokenHash: hash, at: Date(timeIntervalSince1970: now)) }
        return ActiveSession(account: session.account, role: session.role, csrf: session.csrf, idleSeconds: limits.idleSeconds,
                             expiresAt: created + limits.absoluteSeconds)
    }

    /// Ends the cookie's session (nothing when there is none).
    public func logout(token: String) throws {
        try Secrets.ready()
        let hash = Secrets.hash(token)
        guard let session = try store.consoleSession(tokenHash: hash) else { return }
        try store.deleteConsoleSession(tokenHash: hash)
        try audit.record(.logout, account: session.account)
    }

    /// Ends every session of the account; returns how many there were.
    @discardableResult
    public func logoutEverywhere(account: String) throws -> Int {
        let ended = try store.deleteConsoleSessions(account: account)
        try audit.record(.logoutEverywhere, account: account, detail: "\(ended) sessions ended")
        return ended
    }

    /// Removes ended sessions and old failure counters (the service calls it now and then);
    /// returns how many sessions were removed.
    @discardableResult
    public func expireOld() throws -> Int {
        let now = clock()
        try store.forgetConsoleLoginFailures(before: Date(timeIntervalSince1970: now - 24 * 3600))
        return try store.deleteExpiredConsoleSessions(idleBefore: Date(timeIntervalSince1970: now - limits.idleSeconds),
                                                      createdBefore: Date(timeIntervalSince1970: now - limits.absoluteSeconds))
    }

    // MARK: Failures

    private func lockout(_ counter: FailureCounter) -> LoginFailure? {
        if counter.permanent { return .disabled }
        return counter.remaining(at: clock()).map { .lockedOut(retryInSeconds: Int($0.rounded(.up))) }
    }

    /// Counts a failure in one transaction (two logins failing at once both count) and
    /// answers with the lockout it starts, if any.
    private func countFailure(of name: String, from address: String) throws -> LoginFailure {
        try store.transaction {
            var counter = try store.consoleLoginFailures(of: name)
            let now = clock()
            let outcome = counter.recordFailure(at: now, thresholds: limits.loginLockout)
            try store.setConsoleLoginFailures(counter, of: name, at: Date(timeIntervalSince1970: now))
            try audit.record(.loginFailed, account: name, detail: "from \(address), \(counter.consecutive) in a row")
            switch outcome {
            case .counted: return .wrongCredentials
            case .timedLockout(let seconds): return .lockedOut(retryInSeconds: Int(seconds.rounded(.up)))
            case .permanentLockout: return .disabled
            }
        }
    }
}
