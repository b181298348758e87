import Foundation
import TemplateStore

/// API tokens for scripts (`Authorization: Bearer fpm_…`): made by an admin, shown once,
/// kept as a SHA-256 hash.
public struct BearerTokens: Sendable {
    /// Marks the text as an fpmod token, so a secret scanner (or a person) recognises a leaked one.
    public static let prefix = "fpm_"

    let store: TemplateStore
    let clock: WallClock

    public init(store: TemplateStore, clock: @escaping WallClock = systemWallClock) {
        self.store = store
        self.clock = clock
    }

    /// A new token for `role`, named for the list (`backup-script`); the text is returned only here.
    public func create(name: String, role: ConsoleRole, by creator: String) throws -> String {
        let tokenName: ConsoleName
        do throws(NameError) { tokenName = try ConsoleName(validating: name) } catch { throw ConsoleAuthError.invalidName(error) }
        try Secrets.ready()
        let token = Self.prefix + Secrets.token()
        try store.transaction {
            try store.addConsoleToken(name: tokenName, tokenHash: Secrets.hash(token), role: role, createdBy: creator,
                                      at: Date(timeIntervalSince1970: clock()))
            try ConsoleAudit(store: store, clock: clock).record(.tokenCreated, account: creator, detail: "token \(name) (\(role.rawValue))")
        }
        return token
    }

    /// The token's name and role, its use recorded; nil for anything that is no live token.
    public func authenticate(bearer token: String) throws -> StoredConsoleToken? {
        guard token.hasPrefix(Self.prefix), token.utf8.count <= 256 else { return nil }
        try Secrets.ready()
        return try store.useConsoleToken(tokenHash: Secrets.hash(token), at: Date(timeIntervalSince1970: clock()))
    }

    public func revoke(name: String, by admin: String) throws {
        try store.transaction {
            try store.revokeConsoleToken(name: name)
            try ConsoleAudit(store: store, clock: clock).record(.tokenRevoked, account: admin, detail: "token \(name)")
        }
    }

    public func list() throws -> [StoredConsoleToken] { try store.consoleTokens() }

    /// The token of an `Authorization` header's value (`Bearer TOKEN`, the scheme in any case).
    public static func token(fromAuthorization header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
