import Foundation
import Posix
import PrintableText

/// A point of the chain someone saw: the service writes it to the journal.
public struct AuditChainHead: Equatable, Sendable, CustomStringConvertible {
    public var id: Int64
    public var hash: [UInt8]

    public init(id: Int64, hash: [UInt8]) {
        self.id = id
        self.hash = hash
    }

    /// `1234:3f0a…` (64 hex digits), as `fpmod log verify --head` takes it.
    public init?(text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let id = Int64(parts[0]), id > 0, parts[1].count == 64 else { return nil }
        var bytes: [UInt8] = []
        var index = parts[1].startIndex
        while index < parts[1].endIndex {
            let next = parts[1].index(index, offsetBy: 2)
            guard let byte = UInt8(parts[1][index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(id: id, hash: bytes)
    }

    public var description: String { "\(id):\(Crypto.hex(hash))" }
}

/// What `verifyAuditChain` found.
public struct AuditChainReport: Sendable {
    /// Rows walked, and of them the rows written before the chain (covered by its start).
    public var rows: Int
    public var legacyRows: Int
    /// The newest chained row.
    public var head: AuditChainHead?
    /// False when the store key was not at hand (a read-only open without the key file): the
    /// hashes were checked, the MACs could not be.
    public var macsChecked: Bool
    public var problem: AuditChain.Problem?
    /// The first problem in words, naming the record, its time and its event.
    public var sentence: String?

    public var isIntact: Bool { problem == nil }
}

extension TemplateStore {
    /// The newest chained row's id and hash (nil while no row is chained).
    public func auditChainHead() throws -> AuditChainHead? {
        try locked {
            guard let row = try connection.query("SELECT id, hash FROM audit WHERE hash IS NOT NULL ORDER BY id DESC LIMIT 1").first,
                  let id = row[0].int64, let hash = row[1].bytes else { return nil }
            return AuditChainHead(id: id, hash: hash)
        }
    }

    /// Walks the whole audit log: each chained row must follow the one before it, give its own
    /// hash and carry the MAC of the store key; rows before the chain are covered by the first
    /// chained row; a `knownHead` (from the journal) must still be there, unchanged.
    public func verifyAuditChain(knownHead: AuditChainHead? = nil) throws -> AuditChainReport {
        let macsChecked = PrivateFiles.exists(keyPath)
        let macKey = AuditChain.macKey(storeKey: key)
        return try locked {
            let rows = try connection.query("SELECT \(Self.auditChainColumns) FROM audit ORDER BY id")
            var report = AuditChainReport(rows: rows.count, legacyRows: 0, head: nil, macsChecked: macsChecked)
            var expected = AuditChain.genesis
            var previousID: Int64?
            var chained = false
            func fail(_ problem: AuditChain.Problem, _ row: [SQLValue]?, _ words: String) -> AuditChainReport {
                var failed = report
                failed.problem = problem
                let what = row.map { row in
                    let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: row[1].double ?? 0))
                    return "record \(row[0].int64 ?? 0) (\(time), \(Printable.escaped(row[2].string ?? "")))"
                } ?? ""
                failed.sentence = words.replacingOccurrences(of: "RECORD", with: what)
                return failed
            }
            for (index, row) in rows.enumerated() {
                let record = Self.auditRecord(row)
                guard let previous = row[8].bytes, let hash = row[9].bytes else {
                    if chained || row[8] != .null || row[9] != .null || row[10] != .null {
                        return fail(.inserted(id: record.id), row, "RECORD has no place in the chain: it was inserted after the chain began, or its chain fields were cleared.")
                    }
                    report.legacyRows += 1
                    expected = AuditChain.hash(previous: expected, record)
                    previousID = record.id
                    continue
                }
                chained = true
                let macValid = !macsChecked || row[10].bytes == AuditChain.mac(hash: hash, macKey: macKey)
                if previous != expected {
                    let next = index + 1 < rows.count ? rows[index + 1] : nil
                    if macsChecked, !macValid, let next, next[8].bytes == expected {
                        return fail(.inserted(id: record.id), row, "RECORD was inserted: the record after it follows the one before it, and its MAC is not the store key's.")
                    }
                    return fail(.removedBefore(id: record.id, previousID: previousID), row, previousID.map {
                        "RECORD does not follow record \($0): it was inserted, or records between them were removed (or older records changed)."
                    } ?? "RECORD does not start the chain: the records before it were removed.")
                }
                if AuditChain.hash(previous: previous, record) != hash {
                    return fail(.changed(id: record.id), row, "RECORD was changed after it was written: its fields no longer give its hash.")
                }
                if !macValid {
                    return fail(.forged(id: record.id), row, "RECORD was rewritten without the store key: its hashes are consistent but its MAC is not the key's.")
                }
                expected = hash
                previousID = record.id
                report.head = AuditChainHead(id: record.id, hash: hash)
            }
            if let knownHead {
                let kept = rows.first { $0[0].int64 == knownHead.id }
                if kept == nil || kept?[9].bytes != knownHead.hash {
                    return fail(.truncated(headID: knownHead.id, newestID: rows.last?[0].int64), nil,
                                "Record \(knownHead.id), the chain's head when it was written to the journal, is "
                                + (kept == nil ? "gone: the log was truncated (its newest record is now \(rows.last?[0].int64.map(String.init) ?? "none"))." : "not the same record any more."))
                }
            }
            return report
        }
    }
}
