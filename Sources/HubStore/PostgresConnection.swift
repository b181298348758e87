import CLibpq
import Glibc

/// A thin owner of one libpq connection (`PGconn*`). Not thread-safe on its own: `HubStore`
/// holds it in a mutex.
///
/// Every statement goes through `PQexecParams` with its values as parameters in text form,
/// never spliced into the SQL; only the schema's fixed scripts go through `PQexec`.
final class PostgresConnection {
    private let handle: OpaquePointer

    /// `PQconnectdbParams`. `conninfo` is anything libpq takes as a connection string
    /// (`host=/run/postgresql dbname=fpmod` or `postgresql://…`); `connectTimeout` applies
    /// unless the string sets its own.
    init(conninfo: String, connectTimeout seconds: Int = 10) throws(HubStoreError) {
        // dbname last, expanded (expand_dbname = 1): what the string sets wins over our defaults.
        let keys = ["connect_timeout", "application_name", "dbname"]
        let values = [String(seconds), "fpmod-hub", conninfo]
        let connection = Self.withCStrings(keys) { keyPointers in
            Self.withCStrings(values) { valuePointers in PQconnectdbParams(keyPointers, valuePointers, 1) }
        }
        guard let connection else { throw .connect(message: "out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.message(connection)
            PQfinish(connection)
            throw .connect(message: message)
        }
        // libpq prints the server's notices (`relation … already exists, skipping`) on stderr
        // unless told otherwise: a front end's output is its own, so they are dropped.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    deinit { PQfinish(handle) }

    /// One statement with its parameters (nil is SQL NULL); the rows, every value as text
    /// (nil for NULL). A broken connection is reset once first (`PQreset`).
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws(HubStoreError) -> [[String?]] {
        try reconnectIfBroken()
        let outsideTransaction = PQtransactionStatus(handle) == PQTRANS_IDLE
        func run() throws(HubStoreError) -> [[String?]] {
            let result = Self.withOptionalCStrings(parameters) { values in
                PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
            }
            return try rows(of: result, call: "PQexecParams")
        }
        do {
            return try run()
        } catch .statement(_, nil, _) where outsideTransaction {
            // No SQLSTATE: the connection failed, not the statement. After a server restart
            // libpq may still call the old connection good, and learns otherwise only here. Outside
            // a transaction the statement is a BEGIN, a read or an idempotent update (the hub's
            // writes all run in transactions), so it is sent once more on a fresh connection.
            PQreset(handle)
            guard PQstatus(handle) == CONNECTION_OK else { throw .connectionLost(message: Self.message(handle)) }
            return try run()
        }
    }

    /// The connection's socket, to poll for a notification (`PQsocket`); -1 when it is broken.
    var socket: Int32 { PQsocket(handle) }

    /// Reads what the server sent (`PQconsumeInput`) and returns the payloads of the
    /// notifications that arrived (`PQnotifies`), in order. Throws when the connection broke.
    func notifications() throws(HubStoreError) -> [String] {
        guard PQconsumeInput(handle) == 1 else { throw .connectionLost(message: Self.message(handle)) }
        var payloads: [String] = []
        while let notification = PQnotifies(handle) {
            payloads.append(notification.pointee.extra.map { String(cString: $0) } ?? "")
            PQfreemem(notification)
        }
        return payloads
    }

    /// A fixed script of several statements (the schema's migrations): `PQexec`, no parameters.
    func executeScript(_ sql: String) throws(HubStoreError) {
        try reconnectIfBroken()
        _ = try rows(of: PQexec(handle, sql), call: "PQexec")
    }

    /// BEGIN … COMMIT around `body`, ROLLBACK when it throws.
    func transaction<T>(_ body: () throws(HubStoreError) -> T) throws(HubStoreError) -> T {
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    private func reconnectIfBroken() throws(HubStoreError) {
        guard PQstatus(handle) == CONNECTION_BAD else { return }
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else { throw .connectionLost(message: Self.message(handle)) }
    }

    /// The rows of a finished command, or its error (SQLSTATE and message); frees `result`.
    private func rows(of result: OpaquePointer?, call: String) throws(HubStoreError) -> [[String?]] {
        guard let result else { throw .statement(call: call, sqlState: nil, message: Self.message(handle)) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            // PG_DIAG_SQLSTATE is the character 'C' (a macro Swift does not import as a number).
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines
            throw .statement(call: call, sqlState: sqlState, message: message.isEmpty ? Self.message(handle) : message)
        }
        let rowCount = PQntuples(result), columnCount = PQnfields(result)
        var rows: [[String?]] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            rows.append((0..<columnCount).map { column in
                PQgetisnull(result, row, column) != 0 ? nil : String(cString: PQgetvalue(result, row, column))
            })
        }
        return rows
    }

    private static func message(_ connection: OpaquePointer) -> String {
        String(cString: PQerrorMessage(connection)).trimmingTrailingNewlines
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        withOptionalCStrings(strings.map { Optional($0) }) { pointers in
            // A NULL-terminated array, as PQconnectdbParams reads it.
            (pointers + [nil]).withUnsafeBufferPointer { body($0.baseAddress!) }
        }
    }

    /// `body` gets one C string per value (NULL for nil), alive until it returns.
    private static func withOptionalCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { $0.map { strdup($0)! } }
        defer { for copy in copies { free(copy) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = Substring(self)
        while text.last == "\n" || text.last == "\r" { text = text.dropLast() }
        return String(text)
    }
}

/// bytea in PostgreSQL's text form (`\x` and hex digits), both ways.
enum ByteaText {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        out.reserveCapacity(2 + 2 * bytes.count)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
