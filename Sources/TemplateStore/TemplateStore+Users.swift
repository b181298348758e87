import Foundation

extension TemplateStore {
    private static let userColumns = "id, name, display_name, role, fingerprint_unlock, pin_hash IS NOT NULL, created_at, verify_mode"

    private static func user(from row: [SQLValue]) -> User {
        User(id: row[0].int64 ?? 0, name: row[1].string ?? "", displayName: row[2].string ?? "",
             role: Role(rawValue: row[3].string ?? "") ?? .user, fingerprintUnlock: row[4].int64 == 1,
             hasPIN: row[5].int64 == 1, createdAt: Date(storeValue: row[6]), verifyMode: row[7].string)
    }

    /// Adds a user; the display name defaults to the name. Name and display name were checked
    /// where they came in (`UserName`, `DisplayName`).
    @discardableResult
    public func addUser(name: UserName, displayName: DisplayName? = nil, role: Role = .user,
                        fingerprintUnlock: Bool = true, createdAt: Date = Date()) throws -> User {
        try transaction {
            if try user(named: name.text) != nil { throw StoreError.duplicateUser(name.text) }
            try connection.query("""
                INSERT INTO users (name, display_name, role, fingerprint_unlock, created_at) VALUES (?, ?, ?, ?, ?)
                """, [.text(name.text), .text((displayName ?? DisplayName(name)).text), .text(role.rawValue),
                      .integer(fingerprintUnlock ? 1 : 0), createdAt.storeValue])
            return try requireUser(name.text)
        }
    }

    /// The user with this name, or nil.
    public func user(named name: String) throws -> User? {
        try locked {
            try connection.query("SELECT \(Self.userColumns) FROM users WHERE name = ?", [.text(name)])
                .first.map(Self.user(from:))
        }
    }

    /// Every user, by name.
    public func users() throws -> [User] {
        try locked { try connection.query("SELECT \(Self.userColumns) FROM users ORDER BY name").map(Self.user(from:)) }
    }

    func requireUser(_ name: String) throws -> User {
        guard let user = try user(named: name) else { throw StoreError.unknownUser(name) }
        return user
    }

    public func renameUser(_ name: String, to newUserName: UserName) throws {
        let newName = newUserName.text
        try transaction {
            _ = try requireUser(name)
            if newName != name, try user(named: newName) != nil { throw StoreError.duplicateUser(newName) }
            // A display name that was only the old name (the default) follows the rename; a full
            // name given with --display-name stays.
            try connection.query("""
                UPDATE users SET name = ?, display_name = CASE WHEN display_name = ? THEN ? ELSE display_name END
                WHERE name = ?
                """, [.text(newName), .text(name), .text(newName), .text(name)])
        }
    }

    public func setDisplayName(_ displayName: DisplayName, for name: String) throws {
        try updateUser(name, "display_name = ?", [.text(displayName.text)])
    }

    /// Deletes the user and, by cascade, their finger rows. The caller removes the slots from the
    /// module first (through delete intents); this only touches the store.
    public func deleteUser(_ name: String) throws {
        try updateUser(name, nil, [])
    }

    public func setRole(_ role: Role, for name: String) throws {
        try updateUser(name, "role = ?", [.text(role.rawValue)])
    }

    public func setFingerprintUnlock(_ enabled: Bool, for name: String) throws {
        try updateUser(name, "fingerprint_unlock = ?", [.integer(enabled ? 1 : 0)])
    }

    /// Stores a memory-hard hash of the PIN (`crypto_pwhash_str`); nil removes the PIN.
    public func setPIN(_ pin: String?, for name: String) throws {
        let hash = try pin.map(Crypto.hashPIN)
        try updateUser(name, "pin_hash = ?", [hash.sql])
    }

    /// True when the user has a PIN and `pin` matches it.
    public func verifyPIN(_ pin: String, for name: String) throws -> Bool {
        let hash = try locked {
            _ = try requireUser(name)
            return try connection.scalar("SELECT pin_hash FROM users WHERE name = ?", [.text(name)]).string
        }
        guard let hash else { return false }
        return Crypto.verifyPIN(pin, hash: hash)
    }

    /// One UPDATE (or the DELETE when `assignment` is nil) of a named user that must exist.
    private func updateUser(_ name: String, _ assignment: String?, _ values: [SQLValue]) throws {
        try locked {
            if let assignment {
                try connection.query("UPDATE users SET \(assignment) WHERE name = ?", values + [.text(name)])
            } else {
                try connection.query("DELETE FROM users WHERE name = ?", [.text(name)])
            }
            if connection.changes == 0 { throw StoreError.unknownUser(name) }
        }
    }
}
