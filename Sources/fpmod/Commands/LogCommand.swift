import ArgumentParsing
import Foundation
import PrintableText

/// `fpmod log [--limit N]`: the audit log, oldest first.
enum LogCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let limit = try invocation.parsed.int("limit", range: 1...100_000) ?? 50
        let entries = try invocation.openStoreForReading().auditEntries(limit: limit)
        let formatter = ISO8601DateFormatter()
        // Each field escaped on its own: a name or detail with a line break stays on its entry's line.
        let lines = entries.map { entry in
            [formatter.string(from: entry.time), entry.event, entry.user, entry.slot.map { "slot \($0)" },
             entry.score.map { "score \($0)" }, entry.latencyJSON, entry.detail].compactMap { $0.map { Printable.escaped($0) } }
                .joined(separator: "  ")
        }
        invocation.emit(lines.isEmpty ? "The audit log is empty." : lines.joined(separator: "\n"),
                        json: ["entries": .array(entries.map { entry in
                            var object: [String: JSONValue] = ["id": .int(entry.id), "time": .string(formatter.string(from: entry.time)),
                                                               "event": .string(entry.event)]
                            if let user = entry.user { object["user"] = .string(user) }
                            if let slot = entry.slot { object["slot"] = .int(Int64(slot)) }
                            if let score = entry.score { object["score"] = .int(Int64(score)) }
                            if let latency = entry.latencyJSON { object["latency"] = .string(latency) }
                            if let detail = entry.detail { object["detail"] = .string(detail) }
                            return .object(object)
                        })])
        return .ok
    }
}
