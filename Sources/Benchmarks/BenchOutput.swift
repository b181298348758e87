import JSONValue
import ModuleSimulator

/// Collects each part of a bench run: written as it completes (text, through `write`), or as
/// one JSON object at the end (`finish`, with `json`).
public struct BenchOutput {
    public let json: Bool
    private let write: (String) -> Void
    private var object: [String: JSONValue] = [:]
    private var notes: [String] = []

    /// `write` takes each finished part of the text report, ending in a newline.
    public init(json: Bool, write: @escaping (String) -> Void) {
        self.json = json
        self.write = write
    }

    private func print(_ text: String) {
        if !json { write(text.hasSuffix("\n") ? text : text + "\n") }
    }

    public mutating func note(_ text: String) {
        notes.append(text)
        print(text)
    }

    public mutating func describe(target: BenchTarget, settings: BenchSettings) {
        let module = target.module
        let baud = module.transport.baudRate
        let what: String
        if let simulator = target.simulator {
            what = "\(simulator.configuration.profile.name) simulator in this process, \(settings.timing.rawValue) timing"
                + (settings.timing.pacesWire ? ", replies paced at \(baud) baud" : ", no wire pacing")
        } else {
            what = "module on \(module.transport.description) at \(baud) baud (its own processing time is unknown: limits are wire time only)"
        }
        let templates = module.indexTable?.occupied.count ?? 0
        print("fpmod bench: \(what); \(templates) templates of \(module.capacity ?? 0); packet size \(module.packetSize ?? 0)\n")
        object["target"] = .object([
            "simulated": .bool(target.simulator != nil), "profile": target.simulator.map { .string($0.configuration.profile.name) } ?? .null,
            "timing": target.simulator != nil ? .string(settings.timing.rawValue) : .null,
            "baud": .int(Int64(baud)), "templates": .int(Int64(templates)), "capacity": .int(Int64(module.capacity ?? 0)),
            "packet_size": .int(Int64(module.packetSize ?? 0)),
            "host_to_module_paced": .bool(target.limits.pacesHostToModule),
        ])
    }

    public mutating func identify(_ result: IdentifyBench.Result, range: Range<Int>, searched: Int) {
        let summaries = result.summaries
        print("Identify: \(result.cycles) cycles (GenImg → Img2Tz → Search over slots \(range.lowerBound) to \(range.upperBound - 1), "
            + "\(searched) compared), \(result.misses) without a match")
        print(BenchReport.stageTable(summaries).rendered())
        print("limit = wire time of the bytes (bytes × 10 / baud) + the module's own time; over = measured − limit;\n"
            + "host code = time in fpmod outside the exchange (encode, write, decode, decide); the rest of\n"
            + "'over' is wake-up and scheduling slack: the simulator's thread waking on the command and at the\nreply's due time, and this thread waking on the reply.")
        var verdict: JSONValue = .null
        if let total = summaries.first(where: { $0.stage == .total }), let overhead = total.overhead, let host = total.hostCode {
            // Judged on fpmod's own code, the part fpmod answers for: the rest of "over" is this
            // machine waking threads (the simulator's and this one), which a busy or virtual
            // machine stretches to milliseconds whatever fpmod does.
            let met = host.p99 <= 1_000_000
            print("Target: fpmod's own code at most 1 ms per identify at p99 — \(met ? "met" : "not met"): \(BenchReport.ms(host.p99)) ms. "
                + "In all, an identify took \(BenchReport.ms(overhead.p99)) ms longer than the limit at p99; the rest of that is "
                + "this machine's timer and wake-up slack, not fpmod's code.")
            verdict = .object(["overhead_p99_ms": .double(DurationText.milliseconds(overhead.p99)),
                               "host_code_p99_ms": .double(DurationText.milliseconds(host.p99)), "met": .bool(met)])
        }
        print("")
        object["identify"] = .object([
            "cycles": .int(Int64(result.cycles)), "misses": .int(Int64(result.misses)),
            "search_range": .array([.int(Int64(range.lowerBound)), .int(Int64(range.upperBound))]),
            "templates_searched": .int(Int64(searched)),
            "stages": .array(summaries.map(\.json)), "target_host_overhead": verdict,
        ])
    }

    public mutating func roundTrips(_ results: [(name: String, samples: [Int64])], cpuMicrosecondsPerRoundTrip: Double) {
        print("Per-command round trips (write → decoded reply):")
        print(BenchReport.roundTripTable(results).rendered())
        print("CPU time of this process per round trip (user + system): \(DurationText.fixed(cpuMicrosecondsPerRoundTrip, digits: 1)) µs\n")
        object["round_trips"] = BenchReport.json(results)
        object["cpu_us_per_round_trip"] = .double(cpuMicrosecondsPerRoundTrip)
    }

    public mutating func transfers(_ summaries: [TransferBench.Summary], title: String) {
        print("\(title) (throughput of the payload; limit = wire time of every byte, framing included, + module time):")
        print(BenchReport.transferTable(summaries).rendered())
        let all = summaries.compactMap(\.shareOfLimit)
        if !all.isEmpty {
            let worst = all.min()!
            print("Target: transfers at 95 % of the wire limit or more — \(worst >= 0.95 ? "met" : "not met") (the slowest reached \(BenchReport.percent(worst))).\n")
        }
        var list: [JSONValue] = []
        if case let .array(items)? = object[key(title)] { list = items }
        list += summaries.map(BenchReport.json)
        object[key(title)] = .array(list)
    }

    public mutating func sweep(_ name: String, table: TextTable, json: JSONValue, conclusion: String?) {
        print(name)
        print(table.rendered())
        if let conclusion { print(conclusion + "\n") }
        var sweeps: [String: JSONValue] = [:]
        if case let .object(items)? = object["sweeps"] { sweeps = items }
        sweeps[key(name)] = json
        object["sweeps"] = .object(sweeps)
    }

    public mutating func idle(_ result: IdleBench.Result) {
        print("Idle CPU of `fpmod run --sim --sim-gpio` (utime + stime from /proc over \(result.seconds) s each, per minute):")
        print(result.table.rendered())
        if let conclusion = result.conclusion { print(conclusion + "\n") }
        object["idle"] = result.json
    }

    /// Text for the terminal (nothing with --json).
    public func write(_ text: String) { print(text) }

    /// Puts `json` under `key` for a part that prints its own text (the image-sensor bench).
    public mutating func record(_ key: String, _ json: JSONValue) { object[key] = json }

    /// Adds `items` to the JSON array under `key` (several runs of one part add up).
    public mutating func append(_ items: [JSONValue], to key: String) {
        var list: [JSONValue] = []
        if case let .array(existing)? = object[key] { list = existing }
        object[key] = .array(list + items)
    }

    /// A part of the run with its own table and JSON (layout cost, throughput, AutoIdentify).
    public mutating func section(_ key: String, title: String, table: TextTable, notes: [String], json: JSONValue) {
        print(title)
        print(table.rendered())
        for note in notes { print(note) }
        print("")
        object[key] = json
    }

    /// The whole run as one JSON object (with `json`; nil without: the text is written already).
    public func finish() -> JSONValue? {
        guard json else { return nil }
        var final = object
        if !notes.isEmpty { final["notes"] = .array(notes.map(JSONValue.string)) }
        return .object(final)
    }

    private func key(_ title: String) -> String {
        String(title.lowercased().prefix { $0 != "(" && $0 != ":" }).trimmingTrailingSpaces()
            .replacingSpaces()
    }
}

extension String {
    public func replacingSpaces() -> String { String(map { $0 == " " || $0 == "-" ? "_" : $0 }) }
}
