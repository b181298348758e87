import Foundation
import JSONValue

/// The soak's table and its verdict: no wrong decision, every decision in the audit log, and no
/// growth past the bounds below within one run of the service.
public struct SoakReport {
    /// Resident memory a run of the service may gain between its first and last sample.
    public static let rssGrowthBoundKiB = 8 * 1024
    /// Open file descriptors and threads a run may gain (a request in flight at the sample).
    public static let descriptorGrowthBound = 2
    public static let threadGrowthBound = 2
    /// The write-ahead log's size at any sample (SQLite checkpoints at 1,000 pages of 4 KiB).
    public static let walBoundBytes = 8 * 1024 * 1024

    public var table: TextTable
    public var problems: [String]
    public var notes: [String]
    public var json: JSONValue

    public var passed: Bool { problems.isEmpty }

    /// `announced`: events the service sent, by name; `audited`: audit rows written in the same
    /// time, by event.
    public init(ledger: SoakLedger, duration: Double, announced: [String: Int], audited: [String: Int],
                serviceRuns: Int, seed: UInt64) {
        var table = TextTable(["until", "decisions", "wrong", "missed", "p50", "p99", "RSS", "fds", "threads", "WAL", "audit rows", "faults"])
        var rows: [JSONValue] = []
        var problems: [String] = []
        var notes: [String] = []
        let stretches = ledger.closed
        for stretch in stretches {
            let latency = Distribution(stretch.latencies)
            let sample = stretch.sample
            table.add([Self.clock(stretch.endSeconds), String(stretch.decisions), String(stretch.wrong), String(stretch.missed),
                       latency.map { DurationText.format($0.p50) } ?? "–", latency.map { DurationText.format($0.p99) } ?? "–",
                       sample.map { String(format: "%.1f MiB", Double($0.rssKiB) / 1024) } ?? "–",
                       sample.map { String($0.descriptors) } ?? "–", sample.map { String($0.threads) } ?? "–",
                       sample.map { String(format: "%.0f KiB", Double($0.walBytes) / 1024) } ?? "–",
                       sample.map { String($0.auditRows) } ?? "–", String(stretch.faults)])
            var row: [String: JSONValue] = ["until_s": .double(stretch.endSeconds), "decisions": JSONValue(stretch.decisions),
                                            "wrong": JSONValue(stretch.wrong), "missed": JSONValue(stretch.missed),
                                            "queries": JSONValue(stretch.queries), "failed_queries": JSONValue(stretch.failedQueries),
                                            "enrolled": JSONValue(stretch.enrolled), "deleted": JSONValue(stretch.deleted),
                                            "faults": JSONValue(stretch.faults)]
            if let latency {
                row["p50_ms"] = .double(DurationText.milliseconds(latency.p50))
                row["p99_ms"] = .double(DurationText.milliseconds(latency.p99))
            }
            if let sample {
                row["rss_kib"] = JSONValue(sample.rssKiB)
                row["fds"] = JSONValue(sample.descriptors)
                row["threads"] = JSONValue(sample.threads)
                row["wal_bytes"] = JSONValue(sample.walBytes)
                row["audit_rows"] = .int(sample.auditRows)
                row["service_run"] = JSONValue(sample.serviceRun)
            }
            rows.append(.object(row))
        }
        let all = stretches.flatMap(\.latencies)
        let decisions = stretches.reduce(0) { $0 + $1.decisions }
        let wrong = stretches.reduce(0) { $0 + $1.wrong }
        let missed = stretches.reduce(0) { $0 + $1.missed }
        let latency = Distribution(all)
        let perHour = duration > 0 ? Double(decisions) * 3600 / duration : 0
        table.add(["all", String(decisions), String(wrong), String(missed), latency.map { DurationText.format($0.p50) } ?? "–",
                   latency.map { DurationText.format($0.p99) } ?? "–", "", "", "", "", "", String(stretches.reduce(0) { $0 + $1.faults })])

        if wrong > 0 {
            problems.append("\(wrong) wrong decision\(wrong == 1 ? "" : "s"): " + ledger.wrongDecisions.prefix(5).joined(separator: "; "))
        }
        if decisions == 0 { problems.append("the door decided nothing") }
        // Growth within each run of the service (a restart starts from scratch).
        let samples = stretches.compactMap(\.sample)
        var growth: [JSONValue] = []
        for run in Set(samples.map(\.serviceRun)).sorted() {
            let ofRun = samples.filter { $0.serviceRun == run }
            guard let first = ofRun.first, let last = ofRun.last else { continue }
            let rss = last.rssKiB - first.rssKiB, fds = last.descriptors - first.descriptors, threads = last.threads - first.threads
            growth.append(["service_run": JSONValue(run), "samples": JSONValue(ofRun.count), "rss_kib": JSONValue(rss),
                           "fds": JSONValue(fds), "threads": JSONValue(threads)])
            notes.append("Run \(run) of the service (\(ofRun.count) samples): RSS \(Self.signed(Double(rss) / 1024, "MiB")), "
                         + "fds \(Self.signed(Double(fds), "")), threads \(Self.signed(Double(threads), "")) from its first sample to its last.")
            if ofRun.count >= 2 {
                if rss > Self.rssGrowthBoundKiB { problems.append("run \(run) of the service grew by \(rss / 1024) MiB of RSS (bound \(Self.rssGrowthBoundKiB / 1024) MiB)") }
                if fds > Self.descriptorGrowthBound { problems.append("run \(run) of the service holds \(fds) more file descriptors than at its first sample (bound \(Self.descriptorGrowthBound))") }
                if threads > Self.threadGrowthBound { problems.append("run \(run) of the service has \(threads) more threads than at its first sample (bound \(Self.threadGrowthBound))") }
            }
        }
        if let wal = samples.map(\.walBytes).max(), wal > Self.walBoundBytes {
            problems.append("the write-ahead log reached \(wal / 1024) KiB (bound \(Self.walBoundBytes / 1024) KiB)")
        }
        // Every decision the service announced has its audit row, and no row is extra.
        var mismatches: [String] = []
        var auditJSON: [String: JSONValue] = [:]
        for name in Set(announced.keys).union(audited.keys).filter(SoakEventTap.decisionNames.contains).sorted() {
            let row = SoakReport.auditName(of: name)
            let events = announced[name] ?? 0, records = audited[row] ?? 0
            auditJSON[name] = ["events": JSONValue(events), "audit_rows": JSONValue(records)]
            if events != records { mismatches.append("\(name): \(events) events, \(records) audit rows (\(row))") }
        }
        if !mismatches.isEmpty { problems.append("decisions and audit rows differ: " + mismatches.joined(separator: "; ")) }
        notes.insert("\(decisions) decisions in \(Self.clock(duration)) (\(Int(perHour.rounded())) an hour), \(wrong) wrong, \(missed) missed; "
                     + "\(serviceRuns) runs of the service; seed \(seed).", at: 0)
        let enrolled = stretches.reduce(0) { $0 + $1.enrolled }, deleted = stretches.reduce(0) { $0 + $1.deleted }
        let failedAdministration = stretches.reduce(0) { $0 + $1.failedAdministration }
        let queries = stretches.reduce(0) { $0 + $1.queries }, failedQueries = stretches.reduce(0) { $0 + $1.failedQueries }
        notes.append("Administration through the service: \(enrolled) enrolled, \(deleted) deleted, \(failedAdministration) not confirmed; "
                     + "\(queries) status and log queries, \(failedQueries) unanswered.")
        notes.append("Faults: " + ledger.faultsByKind.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }.joined(separator: ", ") + ".")
        if !ledger.skippedFaults.isEmpty {
            notes.append("Not injected: " + ledger.skippedFaults.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }.joined(separator: ", ")
                         + " (no sqlite3 shell, or the store stayed busy for 2 s).")
        }
        notes.append("Audit rows and events: " + (mismatches.isEmpty ? "equal for every kind of decision (" + auditJSON.keys.sorted().joined(separator: ", ") + ")." : "differ (see problems)."))
        self.table = table
        self.problems = problems
        self.notes = notes
        json = .object(["seed": .int(Int64(bitPattern: seed)), "duration_s": .double(duration), "decisions": JSONValue(decisions),
                        "wrong": JSONValue(wrong), "missed": JSONValue(missed), "decisions_per_hour": .double(perHour),
                        "p50_ms": latency.map { .double(DurationText.milliseconds($0.p50)) } ?? .null,
                        "p99_ms": latency.map { .double(DurationText.milliseconds($0.p99)) } ?? .null,
                        "stretches": .array(rows), "growth": .array(growth), "audit": .object(auditJSON),
                        "faults": .object(ledger.faultsByKind.mapValues { JSONValue($0) }),
                        "problems": .array(problems.map { .string($0) }), "passed": .bool(problems.isEmpty)])
    }

    /// The audit row a decision event is recorded as: an opening is `granted`, a refusal keeps its name.
    static func auditName(of event: String) -> String { event == "unlocked" ? "granted" : event }

    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 3600 ? String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
                             : String(format: "%d:%02d", whole / 60, whole % 60)
    }

    static func signed(_ value: Double, _ unit: String) -> String {
        let text = unit.isEmpty ? String(Int(value)) : String(format: "%.1f", value)
        return (value > 0 ? "+" : "") + text + (unit.isEmpty ? "" : " " + unit)
    }
}
