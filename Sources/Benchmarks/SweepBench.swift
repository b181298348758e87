import JSONValue
import FingerprintProtocol
import ModuleSimulator

/// `--sweep`: identify time against the number of enrolled templates (occupied range vs whole
/// library), against the baud rate, and transfer throughput against packet size and baud.
/// Each point starts its own simulator, so points never influence each other.
public struct SweepBench {
    public let settings: BenchSettings
    public let progress: (String) -> Void
    /// Identify cycles per point: enough for a stable median, few enough to keep the sweep short.
    public static let cyclesPerPoint = 5

    public func run(into output: inout BenchOutput) throws {
        try templates(into: &output)
        try baudRates(into: &output)
        try packetSizes(into: &output)
        try transfers(into: &output)
    }

    private func simulator(templates: Int, baudRate: Int? = nil) throws -> BenchTarget {
        try BenchTarget.simulated(profile: settings.profile, timing: settings.timing,
                                  baudRate: baudRate ?? settings.baudRate, templates: templates)
    }

    private func templates(into output: inout BenchOutput) throws {
        let capacity = settings.profile.capacity
        let counts = Array(Set([10, 100, capacity / 2, capacity].filter { $0 <= capacity })).sorted()
        var table = TextTable(["templates", "search occupied p50", "search whole p50", "search limit", "identify occupied p50", "identify whole p50"])
        var points: [JSONValue] = []
        var searchMedians: [(Int, Int64, Int64)] = []
        for count in counts {
            progress("fpmod bench: sweep, \(count) templates…")
            let target = try simulator(templates: count)
            defer { target.close() }
            let occupied = try IdentifyBench(target: target, range: 0..<count).run(cycles: Self.cyclesPerPoint).summaries
            let whole = try IdentifyBench(target: target, range: 0..<capacity).run(cycles: Self.cyclesPerPoint).summaries
            func p50(_ summaries: [StageSummary], _ stage: Stage) -> Int64 { summaries.first { $0.stage == stage }?.measured.p50 ?? 0 }
            let limit = summaries(occupied, .search)?.limit?.p50
            table.add(["\(count)", BenchReport.ms(p50(occupied, .search)), BenchReport.ms(p50(whole, .search)),
                       limit.map(BenchReport.ms) ?? "unknown",
                       BenchReport.ms(p50(occupied, .total)), BenchReport.ms(p50(whole, .total))])
            searchMedians.append((count, p50(occupied, .search), p50(whole, .search)))
            points.append(.object(["templates": .int(Int64(count)),
                                   "search_occupied_p50_ms": .double(DurationText.milliseconds(p50(occupied, .search))),
                                   "search_whole_p50_ms": .double(DurationText.milliseconds(p50(whole, .search))),
                                   "identify_occupied_p50_ms": .double(DurationText.milliseconds(p50(occupied, .total))),
                                   "identify_whole_p50_ms": .double(DurationText.milliseconds(p50(whole, .total)))]))
        }
        var conclusion: String?
        if let first = searchMedians.first, let last = searchMedians.last, first.0 != last.0 {
            let grows = last.1 > first.1
            let worstWholeToOccupied = searchMedians.map { Double($0.2) / Double(max($0.1, 1)) }.max() ?? 1
            conclusion = "Target: identify time grows with enrolled templates, not capacity — "
                + (grows && worstWholeToOccupied < 1.1 ? "met" : "not met")
                + ": search \(BenchReport.ms(first.1)) ms at \(first.0) → \(BenchReport.ms(last.1)) ms at \(last.0) templates; "
                + "searching the whole \(capacity)-slot library costs at most \(DurationText.fixed(worstWholeToOccupied, digits: 2))× the occupied range."
        }
        output.sweep("Sweep: enrolled templates (\(Self.cyclesPerPoint) cycles each, \(settings.baudRate) baud, ms)", table: table,
                     json: .array(points), conclusion: conclusion)
    }

    private func summaries(_ list: [StageSummary], _ stage: Stage) -> StageSummary? { list.first { $0.stage == stage } }

    private func baudRates(into output: inout BenchOutput) throws {
        let supported = settings.profile.familyProfile.baudMultipliers.map { $0 * 9600 }
        let rates = [9600, 19200, 38400, 57600, 115_200].filter { supported.contains($0) }
        var table = TextTable(["baud", "identify p50", "limit p50", "wire p50", "over p50", "over p99", "host code p99"])
        var points: [JSONValue] = []
        for rate in rates {
            progress("fpmod bench: sweep, \(rate) baud…")
            let target = try simulator(templates: 10, baudRate: rate)
            defer { target.close() }
            let result = try IdentifyBench(target: target, range: 0..<10).run(cycles: Self.cyclesPerPoint)
            guard let total = summaries(result.summaries, .total) else { continue }
            let wire = (result.samples[.total] ?? []).isEmpty ? Int64(0) : wireOfCycle(result, target: target)
            table.add(["\(rate)", BenchReport.ms(total.measured.p50), total.limit.map { BenchReport.ms($0.p50) } ?? "–",
                       BenchReport.ms(wire),
                       total.overhead.map { BenchReport.ms($0.p50) } ?? "–", total.overhead.map { BenchReport.ms($0.p99) } ?? "–",
                       total.hostCode.map { BenchReport.ms($0.p99) } ?? "–"])
            points.append(.object(["baud": .int(Int64(rate)), "identify": total.json]))
        }
        output.sweep("Sweep: baud rate (10 templates, \(Self.cyclesPerPoint) cycles each, ms)", table: table, json: .array(points),
                     conclusion: "Only the wire share of the limit changes with the baud rate; the module's time does not.")
    }

    /// The wire part of one cycle's limit: limit minus the module's own time.
    private func wireOfCycle(_ result: IdentifyBench.Result, target: BenchTarget) -> Int64 {
        guard let limit = result.summaries.first(where: { $0.stage == .total })?.limit?.p50 else { return 0 }
        let module = [Stage.capture, .extract, .search].compactMap { target.limits.moduleTime($0, templatesSearched: 10) }.reduce(0, +)
        return limit - module
    }

    private func packetSizes(into output: inout BenchOutput) throws {
        progress("fpmod bench: sweep, packet sizes…")
        let target = try simulator(templates: 10)
        defer { target.close() }
        var summaries: [TransferBench.Summary] = []
        for size in PacketSize.allCases {
            try target.module.setPacketSize(size)
            summaries.append(try TransferBench(target: target).run(.upChar, count: 3))
        }
        try target.module.setPacketSize(.bytes128)
        output.transfers(summaries, title: "Sweep: packet size (UpChar, 3 each)")
    }

    private func transfers(into output: inout BenchOutput) throws {
        var summaries: [TransferBench.Summary] = []
        for rate in Array(Set([settings.baudRate, 115_200])).sorted() {
            progress("fpmod bench: transfers at \(rate) baud…")
            let target = try simulator(templates: 10, baudRate: rate)
            defer { target.close() }
            summaries.append(try TransferBench(target: target).run(.upChar, count: 3))
            summaries.append(try TransferBench(target: target).run(.upImage, count: 1))
        }
        output.transfers(summaries, title: "Transfers (UpChar ×3, UpImage ×1 per baud)")
        output.note("DownChar is not measured on the simulator: a pseudo-terminal takes the host's bytes at once, so there is no wire to compare with.")
    }
}
