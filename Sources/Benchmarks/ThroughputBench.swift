import JSONValue
import Administration
import FingerprintModule
import FingerprintProtocol
import ModuleSimulator
import Posix

/// Restore and sync of a full library, against the wire: templates per second measured, and
/// what the bytes and the module's own time allow. Two limits, because a pseudo-terminal takes
/// the host's bytes at once: `limit` counts what the simulator paces (its replies and uploads)
/// plus its module time — the one the measurement can reach; `UART limit` counts every byte
/// both ways, as a real serial line at that baud would.
public struct ThroughputBench {
    public let profile: SimulatorProfile
    public let timing: TimingMode
    public let templates: Int
    public let progress: (String) -> Void

    public struct Row {
        public var operation: String
        public var baudRate: Int
        public var templates: Int
        public var measured: Int64
        public var limit: Int64?
        public var uartLimit: Int64?

        public func perSecond(_ nanoseconds: Int64?) -> Double? {
            guard let nanoseconds, nanoseconds > 0 else { return nil }
            return Double(templates) / (Double(nanoseconds) / 1e9)
        }
        public var shareOfLimit: Double? { limit.map { Double($0) / Double(max(measured, 1)) } }
    }

    public func run(baudRates: [Int]) throws -> [Row] {
        var rows: [Row] = []
        for rate in baudRates {
            progress("fpmod bench: restore and sync of \(templates) templates at \(rate) baud…")
            let library = try BenchLibrary(profile: profile, timing: timing, baudRate: rate, fingers: templates,
                                           searchModel: .bestMatch, seed: "throughput")
            defer { library.close() }
            rows.append(try measure("restore", library: library) {
                try library.administrator.restore(library.contents, replacing: true)
            })
            // Sync from an empty module: every template written once (DownChar + Store).
            try library.module.emptyLibrary()
            rows.append(try measure("sync", library: library) { try library.administrator.sync() })
        }
        return rows
    }

    private func measure(_ operation: String, library: BenchLibrary, _ body: () throws -> Void) throws -> Row {
        let module = library.module
        let log = ExchangeLog(reservingCapacity: 16 * library.fingers)
        let previous = module.exchangeObserver
        module.exchangeObserver = log.record
        defer { module.exchangeObserver = previous }
        let start = Monotonic.nanoseconds()
        try body()
        let measured = Int64(Monotonic.nanoseconds() - start)
        let (limit, uart) = limits(log.records, target: library.target)
        return Row(operation: operation, baudRate: module.transport.baudRate, templates: library.fingers,
                   measured: measured, limit: limit, uartLimit: uart)
    }

    /// Module time of every acknowledged command, plus the wire time of the paced bytes (limit)
    /// or of all bytes (UART limit).
    private func limits(_ records: [ExchangeRecord], target: BenchTarget) -> (Int64?, Int64?) {
        guard let timing = target.limits.timing else { return (nil, nil) }
        var module: Int64 = 0
        var received = 0, sent = 0
        for record in records {
            received += record.bytesReceived
            sent += record.bytesSent
            if record.code != nil {
                module += timing.moduleDuration(for: Command(record.instruction), state: TimingState()).nanoseconds
            }
        }
        let baud = records.first?.baudRate ?? target.module.transport.baudRate
        let paced = target.limits.wire(sent: sent, received: received, baudRate: baud)
        let all = Int64(WireTime.nanoseconds(bytes: sent + received, baudRate: baud))
        return (module + paced, module + all)
    }

    public static func table(_ rows: [Row]) -> TextTable {
        var table = TextTable(["operation", "baud", "templates", "seconds", "templates/s", "limit/s", "of limit", "UART limit/s"])
        for row in rows {
            table.add([row.operation, "\(row.baudRate)", "\(row.templates)", DurationText.fixed(Double(row.measured) / 1e9, digits: 1),
                       row.perSecond(row.measured).map { DurationText.fixed($0, digits: 2) } ?? "–",
                       row.perSecond(row.limit).map { DurationText.fixed($0, digits: 2) } ?? "–",
                       row.shareOfLimit.map(BenchReport.percent) ?? "–",
                       row.perSecond(row.uartLimit).map { DurationText.fixed($0, digits: 2) } ?? "–"])
        }
        return table
    }

    public static func json(_ rows: [Row]) -> JSONValue {
        .array(rows.map { row in
            .object(["operation": .string(row.operation), "baud": .int(Int64(row.baudRate)), "templates": .int(Int64(row.templates)),
                     "seconds": .double((Double(row.measured) / 1e7).rounded() / 100),
                     "templates_per_second": row.perSecond(row.measured).map { .double(($0 * 100).rounded() / 100) } ?? .null,
                     "limit_templates_per_second": row.perSecond(row.limit).map { .double(($0 * 100).rounded() / 100) } ?? .null,
                     "share_of_limit": row.shareOfLimit.map { .double(($0 * 1000).rounded() / 1000) } ?? .null,
                     "uart_limit_templates_per_second": row.perSecond(row.uartLimit).map { .double(($0 * 100).rounded() / 100) } ?? .null])
        })
    }
}
