import Foundation
import TemplateStore

/// An admin's changes to the console's accounts, each audited under the admin's name.
public struct Accounts: Sendable {
    let store: TemplateStore
    let clock: WallClock

    public init(store: TemplateStore, clock: @escaping WallClock = systemWallClock) {
        self.store = store
        self.clock = clock
    }

    var audit: ConsoleAudit { ConsoleAudit(store: store, clock: clock) }

    public func list() throws -> [ConsoleAccount] { try store.consoleAccounts() }

    @discardableResult
    public func add(name: String, role: ConsoleRole, password: String, by admin: String) throws -> ConsoleAccount {
        let account: ConsoleName
        do throws(NameError) { account = try ConsoleName(validating: name) } catch { throw ConsoleAuthError.invalidName(error) }
        do throws(PasswordError) { try Passwords.check(password, account: name) } catch { throw ConsoleAuthError.weakPassword(error) }
        let hash = try Passwords.hash(password)
        let now = Date(timeIntervalSince1970: clock())
        try store.transaction {
            try store.addConsoleAccount(name: account, role: role, passwordHash: hash, at: now)
            try audit.record(.accountAdded, account: admin, detail: "account \(name) (\(role.rawValue))")
        }
        return ConsoleAccount(name: name, role: role, createdAt: now)
    }

    /// Deletes the account and its sessions; never the last admin.
    public func delete(name: String, by admin: String) throws {
        try store.transaction {
            let accounts = try store.consoleAccounts()
            if accounts.first(where: { $0.name == name })?.role == .admin, accounts.filter({ $0.role == .admin }).count == 1 {
                throw ConsoleAuthError.lastAdmin(name)
            }
            try store.deleteConsoleAccount(name: name)
            try audit.record(.accountDeleted, account: admin, detail: "account \(name)")
        }
    }

    /// Sets a new password and ends every session of the account: whoever knew the old one is out.
    public func setPassword(of name: String, to password: String, by admin: String) throws {
        do throws(PasswordError) { try Passwords.check(password, account: name) } catch { throw ConsoleAuthError.weakPassword(error) }
        let hash = try Passwords.hash(password)
        try store.transaction {
            try store.setConsolePassword(of: name, passwordHash: hash)
            try store.deleteConsoleSessions(account: name)
            try store.setConsoleLoginFailures(.init(), of: name)
            try audit.record(.passwordChanged, account: admin, detail: "account \(name)")
        }
    }
}
