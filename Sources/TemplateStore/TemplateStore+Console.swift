import AccessPolicy
import Foundation

/// A web console account as listed (its password hash stays in the store).
public struct ConsoleAccount: Equatable, Sendable {
    public var name: String
    public var role: ConsoleRole
    public var createdAt: Date

    public init(name: String, role: ConsoleRole, createdAt: Date) {
        self.name = name
        self.role = role
        self.createdAt = createdAt
    }
}

/// A console session row: the token itself is never stored, only its hash, which finds it.
public struct StoredConsoleSession: Equatable, Sendable {
    public var account: String
    public var role: ConsoleRole
    public var csrf: String
    public var createdAt: Date
    public var lastSeen: Date

    public init(account: String, role: ConsoleRole, csrf: String, createdAt: Date, lastSeen: Date) {
        self.account = account
        self.role = role
        self.csrf = csrf
        self.createdAt = createdAt
        self.lastSeen = lastSeen
    }
}

/// An API token as listed and as found by its hash.
public struct StoredConsoleToken: Equatable, Sendable {
    public var name: String
    public var role: ConsoleRole
    public var createdBy: String
    public var createdAt: Date
    public var lastUsed: Date?

    public init(name: String, role: ConsoleRole, createdBy: String, createdAt: Date, lastUsed: Date? = nil) {
        self.name = name
        self.role = role
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.lastUsed = lastUsed
    }
}

/// The one pending setup code, by its hash.
public struct StoredSetupCode: Equatable, Sendable {
    public var hash: [UInt8]
    public var createdAt: Date
    public var expiresAt: Date

    public init(hash: [UInt8], createdAt: Date, expiresAt: Date) {
        self.hash = hash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

// The console's tables (migration 8). The store only keeps rows: hashing, clocks and the rules
// (who may log in, when a session ends) are ConsoleAuth's.
extension TemplateStore {
    // MARK: Accounts

    public func addConsoleAccount(name: ConsoleName, role: ConsoleRole, passwordHash: String, at time: Date = Date()) throws {
        try locked {
            try connection.query("INSERT INTO console_accounts (name, role, password_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                                 [.text(name.text), .text(role.rawValue), .text(passwordHash), time.storeValue])
            if connection.changes == 0 { throw StoreError.duplicateConsoleAccount(name.text) }
        }
    }

    /// Deletes the account and, by the foreign key, every session of it.
    public func deleteConsoleAccount(name: String) throws {
        try locked {
            try connection.query("DELETE FROM console_accounts WHERE name = ?", [.text(name)])
            if connection.changes == 0 { throw StoreError.unknownConsoleAccount(name) }
        }
    }

    public func consoleAccounts() throws -> [ConsoleAccount] {
        try locked {
            try connection.query("SELECT name, role, created_at FROM console_accounts ORDER BY name").map {
                ConsoleAccount(name: $0[0].string ?? "", role: ConsoleRole(rawValue: $0[1].string ?? "") ?? .viewer,
                               createdAt: Date(storeValue: $0[2]))
            }
        }
    }

    public func consoleAccountCount() throws -> Int {
        try locked { try connection.scalar("SELECT count(*) FROM console_accounts").int ?? 0 }
    }

    /// The account's role and password hash, for a login; nil when there is no such account.
    public func consoleCredentials(of name: String) throws -> (role: ConsoleRole, passwordHash: String)? {
        try locked {
            guard let row = try connection.query("SELECT role, password_hash FROM console_accounts WHERE name = ?", [.text(name)]).first,
                  let role = row[0].string.flatMap(ConsoleRole.init(rawValue:)), let hash = row[1].string else { return nil }
            return (role, hash)
        }
    }

    public func setConsolePassword(of name: String, passwordHash: String) throws {
        try locked {
            try connection.query("UPDATE console_accounts SET password_hash = ? WHERE name = ?", [.text(passwordHash), .text(name)])
            if connection.changes == 0 { throw StoreError.unknownConsoleAccount(name) }
        }
    }

    // MARK: Login failures

    /// The failure counter of a name as typed at the login form (an account or not).
    public func consoleLoginFailures(of name: String) throws -> FailureCounter {
        try locked {
            guard let row = try connection.query("SELECT consecutive, locked_until, permanent FROM console_login_failures WHERE name = ?",
                                                 [.text(name)]).first else { return FailureCounter() }
            return FailureCounter(consecutive: row[0].int ?? 0, lockedUntil: row[1].double, permanent: row[2].int64 == 1)
        }
    }

    /// Saves a counter; a reset one (no failures) removes the row.
    public func setConsoleLoginFailures(_ counter: FailureCounter, of name: String, at time: Date = Date()) throws {
        try locked {
            if counter == FailureCounter() {
                try connection.query("DELETE FROM console_login_failures WHERE name = ?", [.text(name)])
                return
            }
            try connection.query("""
                INSERT OR REPLACE INTO console_login_failures (name, consecutive, locked_until, permanent, last_failure)
                VALUES (?, ?, ?, ?, ?)
                """, [.text(name), .integer(Int64(counter.consecutive)), counter.lockedUntil.map { .real($0) } ?? .null,
                      .integer(counter.permanent ? 1 : 0), time.storeValue])
        }
    }

    /// Forgets the counters of names whose last failure is older than `time` and that are not
    /// locked for good, so names made up by a guesser do not pile up.
    @discardableResult
    public func forgetConsoleLoginFailures(before time: Date) throws -> Int {
        try locked {
            try connection.query("DELETE FROM console_login_failures WHERE last_failure < ? AND permanent = 0 AND (locked_until IS NULL OR locked_until < ?)",
                                 [time.storeValue, time.storeValue])
            return connection.changes
        }
    }

    // MARK: Sessions

    public func insertConsoleSession(tokenHash: [UInt8], account: String, csrf: String, at time: Date = Date()) throws {
        try locked {
            try connection.query("INSERT INTO console_sessions (token_hash, account, csrf, created_at, last_seen) VALUES (?, ?, ?, ?, ?)",
                                 [.blob(tokenHash), .text(account), .text(csrf), time.storeValue, time.storeValue])
        }
    }

    public func consoleSession(tokenHash: [UInt8]) throws -> StoredConsoleSession? {
        try locked {
            guard let row = try connection.query("""
                SELECT s.account, a.role, s.csrf, s.created_at, s.last_seen
                FROM console_sessions s JOIN console_accounts a ON a.name = s.account WHERE s.token_hash = ?
                """, [.blob(tokenHash)]).first, let role = row[1].string.flatMap(ConsoleRole.init(rawValue:)) else { return nil }
            return StoredConsoleSession(account: row[0].string ?? "", role: role, csrf: row[2].string ?? "",
                                        createdAt: Date(storeValue: row[3]), lastSeen: Date(storeValue: row[4]))
        }
    }

    public func touchConsoleSession(tokenHash: [UInt8], at time: Date = Date()) throws {
        try locked { try connection.query("UPDATE console_sessions SET last_seen = ? WHERE token_hash = ?", [time.storeValue, .blob(tokenHash)]) }
    }

    /// True when there was such a session.
    @discardableResult
    public func deleteConsoleSession(tokenHash: [UInt8]) throws -> Bool {
        try locked {
            try connection.query("DELETE FROM console_sessions WHERE token_hash = ?", [.blob(tokenHash)])
            return connection.changes > 0
        }
    }

    /// Ends every session of the account; returns how many there were.
    @discardableResult
    public func deleteConsoleSessions(account: String) throws -> Int {
        try locked {
            try connection.query("DELETE FROM console_sessions WHERE account = ?", [.text(account)])
            return connection.changes
        }
    }

    /// Removes the sessions last seen before `idleBefore` or created before `createdBefore`.
    @discardableResult
    public func deleteExpiredConsoleSessions(idleBefore: Date, createdBefore: Date) throws -> Int {
        try locked {
            try connection.query("DELETE FROM console_sessions WHERE last_seen < ? OR created_at < ?",
                                 [idleBefore.storeValue, createdBefore.storeValue])
            return connection.changes
        }
    }

    // MARK: API tokens

    public func addConsoleToken(name: ConsoleName, tokenHash: [UInt8], role: ConsoleRole, createdBy: String,
                                at time: Date = Date()) throws {
        try locked {
            try connection.query("""
                INSERT INTO console_tokens (name, token_hash, role, created_by, created_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (name) DO NOTHING
                """, [.text(name.text), .blob(tokenHash), .text(role.rawValue), .text(createdBy), time.storeValue])
            if connection.changes == 0 { throw StoreError.duplicateConsoleToken(name.text) }
        }
    }

    /// The token whose hash this is, its use recorded at `time`.
    public func useConsoleToken(tokenHash: [UInt8], at time: Date = Date()) throws -> StoredConsoleToken? {
        try locked {
            try connection.query("UPDATE console_tokens SET last_used = ? WHERE token_hash = ?", [time.storeValue, .blob(tokenHash)])
            return try connection.query("SELECT name, role, created_by, created_at, last_used FROM console_tokens WHERE token_hash = ?",
                                        [.blob(tokenHash)]).first.flatMap(Self.token)
        }
    }

    public func revokeConsoleToken(name: String) throws {
        try locked {
            try connection.query("DELETE FROM console_tokens WHERE name = ?", [.text(name)])
            if connection.changes == 0 { throw StoreError.unknownConsoleToken(name) }
        }
    }

    public func consoleTokens() throws -> [StoredConsoleToken] {
        try locked {
            try connection.query("SELECT name, role, created_by, created_at, last_used FROM console_tokens ORDER BY name").compactMap(Self.token)
        }
    }

    private static func token(_ row: [SQLValue]) -> StoredConsoleToken? {
        guard let role = row[1].string.flatMap(ConsoleRole.init(rawValue:)) else { return nil }
        return StoredConsoleToken(name: row[0].string ?? "", role: role, createdBy: row[2].string ?? "",
                                  createdAt: Date(storeValue: row[3]), lastUsed: row[4] == .null ? nil : Date(storeValue: row[4]))
    }

    // MARK: The setup code

    /// Stores the one setup code, replacing any earlier one.
    public func putConsoleSetupCode(hash: [UInt8], createdAt: Date, expiresAt: Date) throws {
        try locked {
            try connection.query("INSERT OR REPLACE INTO console_setup (id, code_hash, created_at, expires_at) VALUES (1, ?, ?, ?)",
                                 [.blob(hash), createdAt.storeValue, expiresAt.storeValue])
        }
    }

    public func consoleSetupCode() throws -> StoredSetupCode? {
        try locked {
            guard let row = try connection.query("SELECT code_hash, created_at, expires_at FROM console_setup WHERE id = 1").first else { return nil }
            return StoredSetupCode(hash: row[0].bytes ?? [], createdAt: Date(storeValue: row[1]), expiresAt: Date(storeValue: row[2]))
        }
    }

    /// Takes the setup code whose hash this is, if it is still there and unexpired at `time`, in
    /// one DELETE: of two requests racing with the same code (two connections, two processes)
    /// exactly one gets true.
    public func consumeConsoleSetupCode(hash: [UInt8], at time: Date = Date()) throws -> Bool {
        try locked {
            try connection.query("DELETE FROM console_setup WHERE id = 1 AND code_hash = ? AND expires_at > ?", [.blob(hash), time.storeValue])
            return connection.changes == 1
        }
    }
}
