import Foundation

/// The SQLite store of users, fingers, encrypted templates, the paired module's identity,
/// pending module operations and the audit log. It never talks to the module itself.
///
/// One instance owns one connection; every call takes a recursive lock, so the instance may be
/// shared between threads and `transaction` may call any other method of the store.
public final class TemplateStore: @unchecked Sendable {
    public let databasePath: String
    public let keyPath: String

    let connection: SQLiteConnection
    /// The 32-byte XChaCha20-Poly1305 key from the key file.
    let key: [UInt8]
    private let lock = NSRecursiveLock()
    private var transactionDepth = 0

    /// The default database and key paths for this process (see `StorePaths`).
    public static func defaultPaths() -> (database: String, key: String) { StorePaths.defaults() }

    /// Opens or creates the store: directories 0700, database 0600, WAL, foreign keys, migrations,
    /// then the key file (created with 32 random bytes only while the store holds nothing encrypted).
    /// With `create: false` a missing database is `StoreError.noStore` and nothing is created, so
    /// a command pointed at the wrong path says so instead of answering from an empty new store.
    /// An existing key file is checked first (size, and that only its owner can read it), so a
    /// refused key leaves no new database behind.
    public init(databasePath: String, keyPath: String, create: Bool = true) throws {
        try Crypto.ready()
        self.databasePath = databasePath
        self.keyPath = keyPath
        if !create, !PrivateFiles.exists(databasePath) { throw StoreError.noStore(databasePath: databasePath) }
        // A store this process cannot write is refused here, saying so, rather than by the
        // first write with an SQLite code; the commands that only read open it `readingOnly`.
        if PrivateFiles.exists(databasePath), let readOnly = StoreAccess.readOnly(databasePath: databasePath) {
            throw StoreError.readOnly(path: databasePath, detail: readOnly.detail, fileSystem: readOnly.fileSystem)
        }
        try KeyFileCheck.check(keyPath)
        try PrivateFiles.makeDirectories(PrivateFiles.parent(of: databasePath))
        if !PrivateFiles.exists(databasePath) { try PrivateFiles.createFile(databasePath) }
        connection = try SQLiteConnection(path: databasePath)
        connection.setBusyTimeout(milliseconds: 5000)
        // The first read of the header is where a foreign or corrupt file shows itself.
        _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
        try connection.query("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;")
        try Self.migrate(connection)
        key = try Self.loadOrCreateKey(connection: connection, keyPath: keyPath, databasePath: databasePath)
    }

    /// Opens an existing store for the commands that only read it (list, log, info, doctor),
    /// with a connection that never writes (`SQLITE_OPEN_READONLY`), so a backup copy on a
    /// read-only mount or a store whose permissions forbid writing can still be read. Nothing is
    /// created: no database, no key (a missing key is only an error when something encrypted is
    /// there to read). When the store cannot be written and its WAL holds nothing, the file is
    /// read as it is (`immutable`), since SQLite could not create its shared-memory file there.
    /// A store of an older format is upgraded first when it can be written, else refused.
    public init(readingOnly databasePath: String, keyPath: String) throws {
        try Crypto.ready()
        self.databasePath = databasePath
        self.keyPath = keyPath
        guard PrivateFiles.exists(databasePath) else { throw StoreError.noStore(databasePath: databasePath) }
        try KeyFileCheck.check(keyPath)
        let readOnly = StoreAccess.readOnly(databasePath: databasePath)
        connection = try SQLiteConnection(readingOnly: databasePath,
                                          immutable: readOnly != nil && !StoreAccess.hasWALContent(databasePath: databasePath))
        connection.setBusyTimeout(milliseconds: 5000)
        let version = try connection.scalar("PRAGMA user_version").int ?? 0
        if version > Schema.currentVersion {
            throw StoreError.newerSchema(path: databasePath, found: version, supported: Schema.currentVersion)
        }
        if version < Schema.currentVersion {
            if let readOnly {
                throw StoreError.readOnly(path: databasePath, detail: readOnly.detail + "; it was written by an older fpmod, "
                                          + "and its format is upgraded by the first command that can write it", fileSystem: readOnly.fileSystem)
            }
            let writer = try SQLiteConnection(path: databasePath)
            writer.setBusyTimeout(milliseconds: 5000)
            try writer.query("PRAGMA journal_mode = WAL")
            try Self.migrate(writer)
        }
        key = try Self.loadKeyForReading(connection: connection, keyPath: keyPath, databasePath: databasePath)
    }

    /// Runs `body` in one transaction (a savepoint when nested): all of it is committed, or none.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let depth = transactionDepth
        try connection.execute(depth == 0 ? "BEGIN IMMEDIATE" : "SAVEPOINT level\(depth)")
        transactionDepth += 1
        do {
            let result = try body()
            transactionDepth -= 1
            try connection.execute(depth == 0 ? "COMMIT" : "RELEASE level\(depth)")
            return result
        } catch {
            transactionDepth = depth
            try? connection.execute(depth == 0 ? "ROLLBACK" : "ROLLBACK TO level\(depth); RELEASE level\(depth)")
            throw error
        }
    }

    /// Serialises access to the connection for single statements.
    @discardableResult
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The schema version the open database has (`PRAGMA user_version`).
    public func schemaVersion() throws -> Int {
        try locked { try connection.scalar("PRAGMA user_version").int ?? 0 }
    }

    // MARK: - Opening

    static func migrate(_ connection: SQLiteConnection) throws {
        let found = try connection.scalar("PRAGMA user_version").int ?? 0
        guard found <= Schema.currentVersion else {
            throw StoreError.newerSchema(path: connection.path, found: found, supported: Schema.currentVersion)
        }
        for version in found..<Schema.currentVersion {
            // Each step and its version bump commit together.
            try connection.execute("BEGIN IMMEDIATE")
            do {
                try connection.execute(Schema.migrations[version])
                try connection.execute("PRAGMA user_version = \(version + 1)")
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    private static let keyCheckName = "key-check"
    private static let keyCheckPlaintext = Array("fpmod store key check".utf8)

    static func loadOrCreateKey(connection: SQLiteConnection, keyPath: String, databasePath: String) throws -> [UInt8] {
        let storedCheck = try connection.scalar("SELECT value FROM store_meta WHERE key = ?", [.text(keyCheckName)]).bytes
        var key: [UInt8]
        if let existing = try PrivateFiles.read(keyPath) {
            guard existing.count == Crypto.keyBytes else {
                throw StoreError.badKeyFile(keyPath: keyPath, detail: "\(existing.count) bytes instead of \(Crypto.keyBytes)")
            }
            key = existing
        } else {
            if try holdsEncryptedData(connection) {
                throw StoreError.missingKey(keyPath: keyPath, databasePath: databasePath)
            }
            try PrivateFiles.makeDirectories(PrivateFiles.parent(of: keyPath))
            key = Crypto.randomBytes(Crypto.keyBytes)
            if try !PrivateFiles.createExclusively(keyPath, bytes: key) {
                // Another process created it between our read and our link: use theirs.
                guard let theirs = try PrivateFiles.read(keyPath), theirs.count == Crypto.keyBytes else {
                    throw StoreError.badKeyFile(keyPath: keyPath, detail: "created concurrently with a wrong size")
                }
                key = theirs
            }
            if storedCheck != nil, try !holdsEncryptedData(connection) {
                // Nothing is encrypted under the lost key: the new key takes over.
                try writeKeyCheck(connection, key: key)
                return key
            }
        }
        if let storedCheck {
            guard Crypto.open(storedCheck, associatedData: Array("store:\(keyCheckName)".utf8), key: key) == keyCheckPlaintext else {
                throw StoreError.wrongKey(keyPath: keyPath, databasePath: databasePath)
            }
        } else {
            try writeKeyCheck(connection, key: key)
        }
        return key
    }

    /// The key for a read-only store: read and checked, never created.
    static func loadKeyForReading(connection: SQLiteConnection, keyPath: String, databasePath: String) throws -> [UInt8] {
        guard let existing = try PrivateFiles.read(keyPath) else {
            if try holdsEncryptedData(connection) { throw StoreError.missingKey(keyPath: keyPath, databasePath: databasePath) }
            // Nothing encrypted to read: names and the audit log need no key.
            return Crypto.randomBytes(Crypto.keyBytes)
        }
        guard existing.count == Crypto.keyBytes else {
            throw StoreError.badKeyFile(keyPath: keyPath, detail: "\(existing.count) bytes instead of \(Crypto.keyBytes)")
        }
        if let storedCheck = try connection.scalar("SELECT value FROM store_meta WHERE key = ?", [.text(keyCheckName)]).bytes,
           Crypto.open(storedCheck, associatedData: Array("store:\(keyCheckName)".utf8), key: existing) != keyCheckPlaintext {
            throw StoreError.wrongKey(keyPath: keyPath, databasePath: databasePath)
        }
        return existing
    }

    private static func writeKeyCheck(_ connection: SQLiteConnection, key: [UInt8]) throws {
        let check = Crypto.seal(keyCheckPlaintext, associatedData: Array("store:\(keyCheckName)".utf8), key: key)
        try connection.query("INSERT OR REPLACE INTO store_meta (key, value) VALUES (?, ?)", [.text(keyCheckName), .blob(check)])
    }

    /// Whether anything is sealed under the store key: then a lost key file is an error, never
    /// a reason to make a new key (which would leave every finger, card and panel card unreadable).
    static func holdsEncryptedData(_ connection: SQLiteConnection) throws -> Bool {
        let secrets = backedUpSecretNames.map { "'\($0)'" }.joined(separator: ", ")
        let count = try connection.scalar("""
            SELECT (SELECT count(*) FROM fingers) + (SELECT count(*) FROM module_identity)
                 + (SELECT count(*) FROM intents WHERE template IS NOT NULL)
                 + (SELECT count(*) FROM store_meta WHERE key IN (\(secrets)))
            """).int ?? 0
        if count > 0 { return true }
        // Panel cards came with schema 5; a store opened before its migration has none.
        let hasPanelCards = try connection.scalar("SELECT count(*) FROM pragma_table_info('users') WHERE name = 'panel_card'").int ?? 0
        guard hasPanelCards > 0 else { return false }
        return (try connection.scalar("SELECT count(*) FROM users WHERE panel_card IS NOT NULL").int ?? 0) > 0
    }

    // MARK: - Encryption of single values

    /// Encrypts a value bound to its purpose (e.g. "finger:7"), so it cannot be moved to another row.
    func seal(_ plaintext: [UInt8], purpose: String) -> [UInt8] {
        Crypto.seal(plaintext, associatedData: Array(purpose.utf8), key: key)
    }

    func open(_ box: [UInt8], purpose: String) throws -> [UInt8] {
        guard let plaintext = Crypto.open(box, associatedData: Array(purpose.utf8), key: key) else {
            throw StoreError.undecryptable(what: "the stored \(purpose.replacingOccurrences(of: ":", with: " "))")
        }
        return plaintext
    }
}

/// Dates are stored as Unix seconds (REAL) so `since:` queries compare numbers.
extension Date {
    var storeValue: SQLValue { .real(timeIntervalSince1970) }
    init(storeValue: SQLValue) { self.init(timeIntervalSince1970: storeValue.double ?? 0) }
}

extension TemplateStore {
    /// True when the database at `databasePath` holds nothing worth keeping: no user, finger,
    /// paired module, pending operation or console account (an audit trail alone does not count). A file that is
    /// not a store yet (no tables) holds nothing either. Lets a command that created a store and
    /// then failed remove it again without ever deleting anything of value.
    public static func holdsNothing(databasePath: String) -> Bool {
        guard let connection = try? SQLiteConnection(path: databasePath) else { return false }
        guard let tables = try? connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'users'").int else { return false }
        if tables == 0 { return true }
        let count = try? connection.scalar("""
            SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM fingers)
                 + (SELECT count(*) FROM module_identity) + (SELECT count(*) FROM intents)
            """).int
        // The console's accounts (migration 8; a file not yet migrated has none) are worth keeping too.
        let hasConsole = (try? connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'console_accounts'").int) == 1
        let accounts = hasConsole ? (try? connection.scalar("SELECT count(*) FROM console_accounts").int) : 0
        return count == 0 && accounts == 0
    }
}
