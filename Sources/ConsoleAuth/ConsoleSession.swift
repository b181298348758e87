import TemplateStore

/// A session just started: the token goes into the cookie (and nowhere else), the CSRF token
/// into the page.
public struct NewSession: Equatable, Sendable {
    public var token: String
    public var csrf: String
    public var account: String
    public var role: ConsoleRole
    /// Unix seconds the session ends at the latest (login + the absolute limit).
    public var expiresAt: Double
}

/// The session a request's cookie belongs to.
public struct ActiveSession: Equatable, Sendable {
    public var account: String
    public var role: ConsoleRole
    public var csrf: String
    /// The idle limit: the session ends this long after its last request.
    public var idleSeconds: Double
    /// Unix seconds the session ends at the latest.
    public var expiresAt: Double

    public init(account: String, role: ConsoleRole, csrf: String, idleSeconds: Double, expiresAt: Double) {
        self.account = account
        self.role = role
        self.csrf = csrf
        self.idleSeconds = idleSeconds
        self.expiresAt = expiresAt
    }
}

/// Why a login is refused. The same `wrongCredentials` for an unknown name and a wrong
/// password, and lockouts for names that are no account too, so the answer never tells
/// which names exist.
public enum LoginFailure: Error, Equatable, Sendable, CustomStringConvertible {
    case wrongCredentials
    /// HTTP 429 with `retryInSeconds`.
    case lockedOut(retryInSeconds: Int)
    /// Locked for good (only with thresholds that allow it; the default never does).
    case disabled

    public var description: String {
        switch self {
        case .wrongCredentials: "wrong name or password; check both and try again"
        case .lockedOut(let seconds): "too many failed logins for this name; try again in \(seconds) s"
        case .disabled: "too many failed logins for this name; an admin has to set a new password for the account"
        }
    }

    public var status: Int {
        switch self {
        case .wrongCredentials: 401
        case .lockedOut: 429
        case .disabled: 403
        }
    }
}
