import CSQLite

/// One value bound to or read from an SQLite statement.
enum SQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    var int64: Int64? { if case .integer(let v) = self { return v }; return nil }
    var int: Int? { int64.map { Int($0) } }
    var double: Double? {
        switch self {
        case .real(let v): return v
        case .integer(let v): return Double(v)
        default: return nil
        }
    }
    var string: String? { if case .text(let v) = self { return v }; return nil }
    var bytes: [UInt8]? {
        switch self {
        case .blob(let v): return v
        case .text(let v): return Array(v.utf8)
        default: return nil
        }
    }
}

extension Optional where Wrapped == String {
    var sql: SQLValue { map(SQLValue.text) ?? .null }
}
extension Optional where Wrapped == Int {
    var sql: SQLValue { map { SQLValue.integer(Int64($0)) } ?? .null }
}

/// SQLite's SQLITE_TRANSIENT: the macro is a cast Swift cannot import.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A thin owner of one `sqlite3*` handle. Not thread-safe on its own: `TemplateStore` locks around it.
final class SQLiteConnection {
    let path: String
    private let handle: OpaquePointer

    /// `sqlite3_open_v2` on an existing or new file, with extended result codes.
    init(path: String) throws {
        self.path = path
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw StoreError.fileSystem(path: path, detail: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
    }

    /// A connection that never writes (`SQLITE_OPEN_READONLY`). `immutable`: the file is read
    /// as it is, with no shared-memory or WAL file created or read — for a store nobody can
    /// write (a read-only folder or mount), where SQLite could not create them anyway.
    init(readingOnly path: String, immutable: Bool) throws {
        self.path = path
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-~".unicodeScalars)
        let encoded = path.unicodeScalars.map { scalar -> String in
            if allowed.contains(scalar) { return String(scalar) }
            return String(scalar).utf8.map { "%" + String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
        }.joined()
        let uri = "file:" + encoded + "?mode=ro" + (immutable ? "&immutable=1" : "")
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw StoreError.fileSystem(path: path, detail: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    func setBusyTimeout(milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

    /// Runs one or more statements that return no rows (`sqlite3_exec`).
    func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errorMessage)
            throw error(rc, message)
        }
    }

    /// Prepares, binds and steps one statement; returns every row.
    @discardableResult
    func query(_ sql: String, _ arguments: [SQLValue] = []) throws -> [[SQLValue]] {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else {
            throw error(prepared, String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        for (offset, value) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .integer(let v): rc = sqlite3_bind_int64(statement, index, v)
            case .real(let v): rc = sqlite3_bind_double(statement, index, v)
            case .text(let v): rc = sqlite3_bind_text(statement, index, v, -1, transient)
            case .blob(let v):
                rc = v.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
            }
            guard rc == SQLITE_OK else { throw error(rc, String(cString: sqlite3_errmsg(handle))) }
        }
        var rows: [[SQLValue]] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw error(rc, String(cString: sqlite3_errmsg(handle))) }
            rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
        }
        return rows
    }

    /// The first column of the first row, or `.null` when there is no row.
    func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws -> SQLValue {
        try query(sql, arguments).first?.first ?? .null
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    var changes: Int { Int(sqlite3_changes(handle)) }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(statement, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let raw = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: raw, count: count)))
        default: return .null
        }
    }

    /// Maps a result code to the store's error vocabulary.
    private func error(_ rc: Int32, _ message: String) -> StoreError {
        switch rc & 0xFF {
        case SQLITE_NOTADB, SQLITE_CORRUPT: return .notADatabase(path: path, detail: message)
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy(path: path)
        case SQLITE_READONLY: return .readOnly(path: path, detail: "it was opened for reading only", fileSystem: false)
        case SQLITE_FULL: return .diskFull(path: path)
        // A full tmpfs often surfaces as an I/O error on the WAL write rather than SQLITE_FULL;
        // the errno SQLite saw tells the two apart (28 is ENOSPC on Linux).
        case SQLITE_IOERR where sqlite3_system_errno(handle) == 28: return .diskFull(path: path)
        default: return .sqlite(code: rc, message: message, path: path)
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
