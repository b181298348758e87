import Foundation
import TemplateStore

/// The audit events of the console. Rows name the account (the audit's `user` column) and
/// never hold a password, token or code.
public enum ConsoleAuditEvent: String, CaseIterable, Sendable {
    case setupCodeIssued = "console-setup-code"
    case setup = "console-setup"
    case login = "console-login"
    case loginFailed = "console-login-failed"
    case logout = "console-logout"
    case logoutEverywhere = "console-logout-everywhere"
    case accountAdded = "console-account-added"
    case accountDeleted = "console-account-deleted"
    case passwordChanged = "console-password-changed"
    case tokenCreated = "console-token-created"
    case tokenRevoked = "console-token-revoked"
}

/// Writes the console's audit rows through the store's audit log.
public struct ConsoleAudit: Sendable {
    let store: TemplateStore
    let clock: WallClock

    public init(store: TemplateStore, clock: @escaping WallClock = systemWallClock) {
        self.store = store
        self.clock = clock
    }

    @discardableResult
    public func record(_ event: ConsoleAuditEvent, account: String?, detail: String? = nil) throws -> Int64 {
        try store.appendAudit(event: event.rawValue, user: account, detail: detail, time: Date(timeIntervalSince1970: clock()))
    }
}
