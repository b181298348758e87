import ArgumentParsing
import Foundation
import JSONValue
import PrintableText
import TemplateStore

/// `fpmod log verify [--head ID:HASH]`: walks the audit log's hash chain (`verifyAuditChain`).
/// The head that shows a truncation comes from --head, else from the newest `audit chain head:`
/// line the service wrote to the journal.
enum LogVerifyCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        var head: AuditChainHead?
        var headSource = "none"
        if let text = invocation.parsed.string("head") {
            guard let parsed = AuditChainHead(text: text) else {
                throw CommandFailure(.usage, "--head takes ID:HASH as the service logs it ('audit chain head: 1234:' and 64 hex digits).")
            }
            head = parsed
            headSource = "--head"
        } else if invocation.storePaths.database == StorePaths.system.database, let fromJournal = journalHead() {
            // The journal's heads are the installed service's, so only for its store.
            head = fromJournal
            headSource = "journal"
        }
        let store = try invocation.openStoreForReading()
        let report = try store.verifyAuditChain(knownHead: head)
        var lines: [String] = []
        if let sentence = report.sentence {
            lines.append("The audit log was tampered with: \(sentence)")
            lines.append("Keep this store as evidence (copy it with its -wal file), and compare with a backup or the journal.")
        } else {
            lines.append("The audit log is intact: \(report.rows) records"
                         + (report.legacyRows > 0 ? " (\(report.legacyRows) from before the chain, covered by its start)" : "")
                         + (report.head.map { ", head \($0)" } ?? "") + ".")
        }
        if !report.macsChecked { lines.append("The store key was not readable: hashes checked, MACs not (run as the store's owner to check both).") }
        switch headSource {
        case "none": lines.append("No chain head was given or found in the journal: a cut-off tail cannot show (pass --head ID:HASH from the service's log).")
        default: lines.append("Checked against the head from \(headSource == "journal" ? "the journal" : "--head"): \(head!.id).")
        }
        invocation.emit(lines.joined(separator: "\n"), json: [
            "intact": .bool(report.isIntact), "records": JSONValue(report.rows), "legacyRecords": JSONValue(report.legacyRows),
            "head": report.head.map { .string($0.description) } ?? .null, "macsChecked": .bool(report.macsChecked),
            "headChecked": headSource == "none" ? .null : .string(head!.description), "problem": JSONValue(report.sentence),
        ])
        return report.isIntact ? .ok : .dataError
    }

    /// The newest `audit chain head: ID:HASH` the service wrote to the journal, when journalctl
    /// is there and has one.
    static func journalHead() -> AuditChainHead? {
        let journalctl = "/usr/bin/journalctl"
        guard FileManager.default.isExecutableFile(atPath: journalctl) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: journalctl)
        process.arguments = ["--no-pager", "-o", "cat", "-u", "fpmod", "-g", "audit chain head: ", "-n", "1", "-r"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let range = text.range(of: "audit chain head: ") else { return nil }
        let rest = text[range.upperBound...].prefix { !$0.isWhitespace }
        return AuditChainHead(text: String(rest))
    }
}
