import Foundation
import TemplateStore

/// The one-time code that creates the console's first admin: printed on the lock by `fpmod
/// console setup-code`, typed into the setup page, so whoever sets the console up has been at
/// the lock's shell.
///
/// Sixteen characters of Crockford's base32 alphabet (no I, L, O or U) in four groups,
/// `7K3M-Q9TD-…`: 80 random bits, read aloud and typed without confusion. Kept as a SHA-256
/// hash for 24 hours; a new code replaces the old.
public struct SetupCode: Sendable {
    public static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    public static let defaultValidity: Double = 24 * 3600

    let store: TemplateStore
    let clock: WallClock
    let validity: Double

    public init(store: TemplateStore, clock: @escaping WallClock = systemWallClock, validity: Double = SetupCode.defaultValidity) {
        self.store = store
        self.clock = clock
        self.validity = validity
    }

    /// Whether the console still needs its first account.
    public func needed() throws -> Bool { try store.consoleAccountCount() == 0 }

    /// A fresh code, stored hashed, replacing any earlier one; shown once to the caller.
    public func issue() throws -> String {
        try Secrets.ready()
        // 256 is a multiple of 32, so masking keeps every character equally likely.
        let characters = Secrets.random(16).map { Self.alphabet[Int($0 & 31)] }
        let code = stride(from: 0, to: 16, by: 4).map { String(characters[$0..<$0 + 4]) }.joined(separator: "-")
        let now = clock()
        try store.putConsoleSetupCode(hash: Secrets.hash(Self.normalised(code)), createdAt: Date(timeIntervalSince1970: now),
                                      expiresAt: Date(timeIntervalSince1970: now + validity))
        try ConsoleAudit(store: store, clock: clock).record(.setupCodeIssued, account: nil)
        return code
    }

    /// Creates the first admin when no account exists and `code` is the unexpired code,
    /// consuming it in the same transaction as the account is added: of two requests racing
    /// with the code, one gets the account and the other `alreadySetUp`. A wrong code leaves
    /// the code as it is. Throws `ConsoleAuthError`, or `StoreError` when the store fails.
    @discardableResult
    public func redeem(code: String, name: String, password: String) throws -> ConsoleAccount {
        let account: ConsoleName
        do throws(NameError) { account = try ConsoleName(validating: name) } catch { throw ConsoleAuthError.invalidName(error) }
        do throws(PasswordError) { try Passwords.check(password, account: name) } catch { throw ConsoleAuthError.weakPassword(error) }
        guard try needed() else { throw ConsoleAuthError.alreadySetUp }
        guard let stored = try store.consoleSetupCode() else { throw ConsoleAuthError.noSetupCode }
        let hash = Secrets.hash(Self.normalised(code))
        guard Secrets.equal(hash, stored.hash) else { throw ConsoleAuthError.wrongSetupCode }
        guard clock() < stored.expiresAt.timeIntervalSince1970 else { throw ConsoleAuthError.setupCodeExpired }
        // Argon2 before the write lock, so a racing request waits for the INSERT only.
        let passwordHash = try Passwords.hash(password)
        let now = Date(timeIntervalSince1970: clock())
        try store.transaction {
            guard try needed() else { throw ConsoleAuthError.alreadySetUp }
            guard try store.consumeConsoleSetupCode(hash: hash, at: now) else { throw ConsoleAuthError.noSetupCode }
            try store.addConsoleAccount(name: account, role: .admin, passwordHash: passwordHash, at: now)
            try ConsoleAudit(store: store, clock: clock).record(.setup, account: account.text, detail: "first admin")
        }
        return ConsoleAccount(name: account.text, role: .admin, createdAt: now)
    }

    /// As typed: case, spaces and dashes do not matter, and O, I and L read as 0, 1 and 1
    /// (Crockford's rule), so a code read aloud or copied by hand still works.
    static func normalised(_ code: String) -> String {
        String(code.uppercased().compactMap { character -> Character? in
            switch character {
            case "-", " ", "\t": nil
            case "O": "0"
            case "I", "L": "1"
            default: character
            }
        })
    }
}
