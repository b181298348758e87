import JSONValue

/// What a sensor bench ran on, for its report.
public struct SensorBenchDescription {
    public var model: String
    public var connection: String
    public var imagesDirectory: String?
    public var templates: Int
    public var capacity: Int
    public var enrolledThroughReader: Int
    public var fillers: Int
    public var distinctFillers: Int
    public var strangers: Int
    /// The score the best impression alone needs, and the one two impressions of a template both need.
    public var threshold: Int
    public var pairThreshold: Int
    /// Mean time of one enrollment through the reader.
    public var enrollNanoseconds: Int64
    /// Making the distinct filler templates and writing every filler to the store.
    public var fillNanoseconds: Int64
    /// The slots the library occupies.
    public var searchRange: Range<Int>
}

/// The image-sensor bench's part of `fpmod bench`: the module bench's stage table and JSON keys,
/// with the sensor's floors where the module bench has its wire-and-module limit.
extension BenchOutput {
    public mutating func describe(sensor: SensorBenchDescription, floor: SensorFloor) {
        let library = "\(sensor.templates) templates of \(sensor.capacity): \(sensor.enrolledThroughReader) enrolled through the reader"
            + (sensor.fillers > 0 ? ", \(sensor.fillers) fillers (copies of \(sensor.distinctFillers) distinct templates)" : "")
        write("fpmod bench: \(sensor.model), \(sensor.connection), in this process; matching on the host "
            + "(fpmod's minutiae matcher, thresholds \(sensor.threshold) for one impression, \(sensor.pairThreshold) for two, for this library at the configured false-match rate); \(library)\n")
        record("target", .object([
            "simulated": .bool(true), "profile": .string("fpc1020"), "reader": .string("image-sensor"),
            "model": .string(sensor.model), "connection": .string(sensor.connection),
            "images": sensor.imagesDirectory.map(JSONValue.string) ?? .null,
            "templates": .int(Int64(sensor.templates)), "capacity": .int(Int64(sensor.capacity)),
            "enrolled_through_reader": .int(Int64(sensor.enrolledThroughReader)),
            "filler_templates": .int(Int64(sensor.fillers)), "distinct_filler_templates": .int(Int64(sensor.distinctFillers)),
            "matcher": .string("MinutiaeMatcher"), "threshold": .int(Int64(sensor.threshold)), "pair_threshold": .int(Int64(sensor.pairThreshold)),
            "spi_clock_hz": .int(Int64(floor.spiClockHz)),
            "enroll_ms_per_finger": .double(DurationText.milliseconds(sensor.enrollNanoseconds)),
            "fill_ms": .double(DurationText.milliseconds(sensor.fillNanoseconds)),
        ]))
    }

    /// card-and-finger's 1:1 beside the 1:N identify it replaces, on the same touches.
    public mutating func cardAndFinger(_ result: SensorIdentifyBench.Result, identify: SensorIdentifyBench.Result,
                                       sensor: SensorBenchDescription) {
        let counts = result.counts
        write("card-and-finger: the same \(result.cycles) touches, each compared 1:1 with the card holder's fingers "
            + "(a stranger with another user's card): \(counts.genuine) genuine, \(counts.genuineMatched) matched "
            + "(1:N: \(identify.counts.genuineMatched)); \(counts.strangers) stranger\(counts.strangers == 1 ? "" : "s"), "
            + "\(counts.strangersRejected) rejected (1:N: \(identify.counts.strangersRejected)); \(result.misses) misses")
        var rows: [String] = []
        for stage in [Stage.search, .total] {
            let one = Distribution(result.samples[stage]?.map(\.measured) ?? [])
            let many = Distribution(identify.samples[stage]?.map(\.measured) ?? [])
            guard let one, let many else { continue }
            let ratio = one.p50 > 0 ? DurationText.fixed(Double(many.p50) / Double(one.p50), digits: 1) + "×" : "–"
            rows.append("  \(stage.rawValue): 1:1 p50 \(BenchReport.ms(one.p50)) ms, p99 \(BenchReport.ms(one.p99)) ms; "
                + "1:N over \(sensor.templates) templates p50 \(BenchReport.ms(many.p50)) ms, p99 \(BenchReport.ms(many.p99)) ms (1:N / 1:1 = \(ratio))")
        }
        for row in rows { write(row) }
        write("")
        record("card_and_finger", .object([
            "touches": .int(Int64(result.cycles)), "genuine_matched": .int(Int64(counts.genuineMatched)),
            "strangers_rejected": .int(Int64(counts.strangersRejected)), "misses": .int(Int64(result.misses)),
            "search_p50_ns": Distribution(result.samples[.search]?.map(\.measured) ?? []).map { .int($0.p50) } ?? .null,
            "total_p50_ns": Distribution(result.samples[.total]?.map(\.measured) ?? []).map { .int($0.p50) } ?? .null,
        ]))
    }

    public mutating func sensorIdentify(_ result: SensorIdentifyBench.Result, sensor: SensorBenchDescription, floor: SensorFloor) {
        let summaries = result.summaries
        let counts = result.counts
        let unusable = counts.genuineUnusable + counts.strangersUnusable
        write("Identify: \(result.cycles) touches (capture → extract → 1:N search over \(sensor.templates) templates): "
            + "\(counts.genuine) genuine, \(counts.genuineMatched) matched; \(counts.strangers) stranger\(counts.strangers == 1 ? "" : "s"), \(counts.strangersRejected) rejected; "
            + "\(unusable) without a usable image; \(result.misses) misses")
        write(BenchReport.stageTable(summaries).rendered())
        var legend = ["limit = the floor of each stage:"]
        legend += floor.descriptions.map { "  \($0.stage.rawValue): \($0.text)" }
        legend.append("over = measured − floor, \"under\" when a stage came in below its floor (the simulated capture, which\n"
            + "moves no bytes); host code = time in this process beyond the matcher (extract, search), the\n"
            + "simulated sensor's image making and the reader's finger check (capture), the bench's lookup (decision).\n"
            + "Total runs from the call, so it includes the reader's gallery check before the capture (see below).\n"
            + "Extract runs the extractor twice per touch (the reader's, then the floor's): over is their difference, a few ms\n"
            + "either way. Only touches that reached the search are timed, strangers included (they scan it all too).")
        for line in legend { write(line) }
        let measured = Self.perSecond(templates: sensor.templates, samples: result.samples[.search]?.map(\.measured) ?? [])
        let alone = Self.perSecond(templates: sensor.templates, samples: result.floorSearches)
        if let search = summaries.first(where: { $0.stage == .search }) {
            write("1:N search over \(sensor.templates) templates: p50 \(BenchReport.ms(search.measured.p50)) ms = "
                + "\(measured.map { DurationText.fixed($0, digits: 0) } ?? "–") templates compared per second (the matcher alone: "
                + "\(alone.map { DurationText.fixed($0, digits: 0) } ?? "–") per second)")
        }
        let minutiae = result.probeMinutiae.sorted()
        if !minutiae.isEmpty {
            write("Probe minutiae min / median / max: \(minutiae[0]) / \(minutiae[minutiae.count / 2]) / \(minutiae[minutiae.count - 1]) "
                + "(a comparison's cost grows with the minutiae of probe and template)")
        }
        if let check = Distribution(result.beforeCapture) {
            write("Before the capture (the reader checking its gallery against the store): p50 \(BenchReport.ms(check.p50)) ms, "
                + "p99 \(BenchReport.ms(check.p99)) ms")
        }
        if let first = result.firstIdentify {
            write("First identify after the library was filled (builds the reader's gallery), not in the table: \(BenchReport.ms(first)) ms")
        }
        write("Setup: enrolling through the reader \(BenchReport.ms(sensor.enrollNanoseconds)) ms a finger"
            + (sensor.fillers > 0 ? "; \(sensor.distinctFillers) filler templates made and \(sensor.fillers) fillers stored in \(BenchReport.ms(sensor.fillNanoseconds)) ms" : ""))
        for error in counts.errors.prefix(5) { write("  error on a touch: \(error)") }
        write("")

        var floors: [String: JSONValue] = [:]
        for (stage, text) in floor.descriptions { floors[stage.rawValue] = .string(text) }
        floors["capture_ms"] = .double(DurationText.milliseconds(floor.captureNanoseconds))
        record("identify", .object([
            "cycles": .int(Int64(result.cycles)), "misses": .int(Int64(result.misses)),
            "search_range": .array([.int(Int64(sensor.searchRange.lowerBound)), .int(Int64(sensor.searchRange.upperBound))]),
            "templates_searched": .int(Int64(sensor.templates)),
            "stages": .array(summaries.map(\.json)),
            // The module bench's ≤ 1 ms target is about host code around exchanges; here the
            // floor is itself an extraction run with milliseconds of spread, so no verdict.
            "target_host_overhead": .null,
            "touches": counts.json,
            "templates_compared_per_second": .object([
                "measured": measured.map { .double($0.rounded()) } ?? .null, "floor": alone.map { .double($0.rounded()) } ?? .null,
            ]),
            "probe_minutiae": .array(result.probeMinutiae.map { .int(Int64($0)) }),
            "before_capture": Distribution(result.beforeCapture)?.json ?? .null,
            "first_identify_ms": result.firstIdentify.map { .double(DurationText.milliseconds($0)) } ?? .null,
            "floors": .object(floors),
            "errors": .array(counts.errors.map(JSONValue.string)),
        ]))
    }

    /// Templates compared per second at the median search.
    public static func perSecond(templates: Int, samples: [Int64]) -> Double? {
        guard let distribution = Distribution(samples), distribution.p50 > 0 else { return nil }
        return Double(templates) * 1e9 / Double(distribution.p50)
    }
}

extension SensorIdentifyBench.Counts {
    public var json: JSONValue {
        .object([
            "genuine": .int(Int64(genuine)), "genuine_matched": .int(Int64(genuineMatched)),
            "genuine_missed": .int(Int64(genuineMissed)), "genuine_wrong_finger": .int(Int64(genuineWrongFinger)),
            "genuine_unusable": .int(Int64(genuineUnusable)),
            "strangers": .int(Int64(strangers)), "strangers_rejected": .int(Int64(strangersRejected)),
            "strangers_matched": .int(Int64(strangersMatched)), "strangers_unusable": .int(Int64(strangersUnusable)),
        ])
    }
}
