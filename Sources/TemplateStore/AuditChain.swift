import CSodium
import Foundation

/// The audit log's hash chain, as pure functions: each record's hash covers the hash of the one
/// before and the record's own fields, and a MAC under a key derived from the store key (which
/// lives apart from the database) covers the hash, so someone with `sqlite3` and the database
/// alone can neither change, remove nor insert a record without the chain saying where.
public enum AuditChain {
    /// The record before the first: 32 zero bytes.
    static let genesis = [UInt8](repeating: 0, count: 32)

    /// One record's fields as the chain sees them.
    struct Record {
        var id: Int64
        var time: Double
        var event: String
        var user: String?
        var slot: Int64?
        var score: Int64?
        var latencyJSON: String?
        var detail: String?
    }

    /// An unambiguous encoding: integers as 8 bytes big-endian, the time as its IEEE bits, each
    /// text with a presence byte and a 4-byte length.
    static func canonical(_ record: Record) -> [UInt8] {
        var bytes: [UInt8] = Array("fpmod-audit-1".utf8)
        func integer(_ value: UInt64) { for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
        func text(_ value: String?) {
            guard let value else { return bytes.append(0) }
            bytes.append(1)
            let utf8 = Array(value.utf8)
            integer(UInt64(utf8.count))
            bytes += utf8
        }
        func number(_ value: Int64?) {
            guard let value else { return bytes.append(0) }
            bytes.append(1)
            integer(UInt64(bitPattern: value))
        }
        integer(UInt64(bitPattern: record.id))
        integer(record.time.bitPattern)
        text(record.event)
        text(record.user)
        number(record.slot)
        number(record.score)
        text(record.latencyJSON)
        text(record.detail)
        return bytes
    }

    /// SHA-256 of the previous hash and the record.
    static func hash(previous: [UInt8], _ record: Record) -> [UInt8] {
        Crypto.sha256(previous + canonical(record))
    }

    /// The MAC key: BLAKE2b keyed with the store key, over a fixed label (never stored).
    static func macKey(storeKey: [UInt8]) -> [UInt8] {
        blake2b(Array("fpmod audit chain MAC key v1".utf8), key: storeKey)
    }

    /// BLAKE2b-256 of the record's hash under the MAC key.
    static func mac(hash: [UInt8], macKey: [UInt8]) -> [UInt8] { blake2b(hash, key: macKey) }

    static func blake2b(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        _ = crypto_generichash(&out, 32, message, UInt64(message.count), key, key.count)
        return out
    }

    /// What a walk over the log found: the first problem, if any.
    public enum Problem: Equatable, Sendable {
        /// A record's fields no longer give its hash.
        case changed(id: Int64)
        /// A record's hash is consistent but its MAC is not the store key's: it was rewritten
        /// (or made) by someone without the key.
        case forged(id: Int64)
        /// A record does not follow the one before it: records were removed between them, or
        /// this one was inserted.
        case removedBefore(id: Int64, previousID: Int64?)
        /// A record without chain fields after the chain began.
        case inserted(id: Int64)
        /// The head someone saw (in the journal) is gone or different.
        case truncated(headID: Int64, newestID: Int64?)
    }
}
