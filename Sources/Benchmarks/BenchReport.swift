import JSONValue

/// Text and JSON for each part of `fpmod bench`. Numbers are milliseconds with two decimals.
public enum BenchReport {
    public static func ms(_ nanoseconds: Int64) -> String { DurationText.fixed(Double(nanoseconds) / 1e6, digits: 2) }
    public static func percent(_ share: Double) -> String { DurationText.fixed(share * 100, digits: 1) + " %" }

    /// Time beyond the limit; a stage that came in below it reads "0.42 under", not "-0.42 over".
    public static func over(_ nanoseconds: Int64) -> String { nanoseconds < 0 ? ms(-nanoseconds) + " under" : ms(nanoseconds) }

    /// Per stage: measured percentiles, the limit, the host's overhead beyond it, measured/limit.
    public static func stageTable(_ summaries: [StageSummary]) -> TextTable {
        var table = TextTable(["stage (ms)", "p50", "p95", "p99", "max", "limit p50", "over p50", "over p99", "host code p99", "measured/limit"])
        for summary in summaries {
            let measured = summary.measured
            table.add([summary.stage.rawValue, ms(measured.p50), ms(measured.p95), ms(measured.p99), ms(measured.max),
                       summary.limit.map { ms($0.p50) } ?? "unknown",
                       summary.overhead.map { over($0.p50) } ?? "–", summary.overhead.map { over($0.p99) } ?? "–",
                       summary.hostCode.map { ms($0.p99) } ?? "–",
                       summary.ratio.map { DurationText.fixed($0, digits: 3) } ?? "–"])
        }
        return table
    }

    public static func roundTripTable(_ results: [(name: String, samples: [Int64])]) -> TextTable {
        // Round trips are tens of microseconds: milliseconds with two digits would hide them.
        func µs(_ nanoseconds: Int64) -> String { "\((nanoseconds + 500) / 1000)" }
        var table = TextTable(["command (µs)", "n", "p50", "p95", "p99", "max"])
        for (name, samples) in results {
            guard let distribution = Distribution(samples) else { continue }
            table.add([name, "\(distribution.count)", µs(distribution.p50), µs(distribution.p95), µs(distribution.p99), µs(distribution.max)])
        }
        return table
    }

    public static func transferTable(_ summaries: [TransferBench.Summary]) -> TextTable {
        var table = TextTable(["transfer", "baud", "packet", "bytes", "p50 ms", "limit ms", "KiB/s", "limit KiB/s", "of limit"])
        for summary in summaries {
            let limit = summary.limitThroughput
            table.add([summary.kind.rawValue, "\(summary.baudRate)", "\(summary.packetSize)", "\(summary.payloadBytes)",
                       ms(summary.measured.p50),
                       limit.map { ms(Int64(Double(summary.payloadBytes) / $0 * 1e9)) } ?? "unknown",
                       DurationText.fixed(summary.throughput / 1024, digits: 2),
                       limit.map { DurationText.fixed($0 / 1024, digits: 2) } ?? "unknown",
                       summary.shareOfLimit.map(percent) ?? "–"])
        }
        return table
    }

    public static func json(_ results: [(name: String, samples: [Int64])]) -> JSONValue {
        .array(results.compactMap { result in
            Distribution(result.samples).map { .object(["command": .string(result.name), "round_trip": $0.json]) }
        })
    }

    public static func json(_ summary: TransferBench.Summary) -> JSONValue {
        .object(["transfer": .string(summary.kind.rawValue), "baud": .int(Int64(summary.baudRate)),
                 "packet_size": .int(Int64(summary.packetSize)), "payload_bytes": .int(Int64(summary.payloadBytes)),
                 "measured": summary.measured.json,
                 "bytes_per_second": .double(summary.throughput.rounded()),
                 "limit_bytes_per_second": summary.limitThroughput.map { .double($0.rounded()) } ?? .null,
                 "share_of_limit": summary.shareOfLimit.map { .double(($0 * 1000).rounded() / 1000) } ?? .null])
    }
}
