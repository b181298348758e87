import ArgumentParsing
import HostMatching

/// `fpmod bench --sim --sim-profile fpc1020`: identify on the simulated image sensor through
/// the host reader, stage by stage as the module bench reports it (see `SensorFloor` for what
/// each stage is set against), over a library of --templates templates (`SensorBenchTarget`).
enum SensorBench {
    /// The parts of `fpmod bench` that need a module; named when given, then skipped.
    static let moduleOnly = ["cycles", "timing", "commands", "transfers", "sweep", "idle", "search-model", "workload",
                             "history", "layout", "throughput", "auto-identify", "baud"]

    static func run(_ invocation: Invocation, into output: inout BenchOutput) throws {
        let parsed = invocation.parsed
        if parsed.string("port") != nil && !parsed.flag("sim") {
            throw CommandFailure(.usage, "--sim-profile fpc1020 benches the simulated image sensor, not a module on --port; add --sim, or drop --sim-profile to bench the module.")
        }
        let sizes = try BenchCommand.sizes(parsed.string("templates"))
        guard sizes.count == 1 else {
            throw CommandFailure(.usage, "--templates takes one size with --sim-profile fpc1020 (got '\(parsed.string("templates") ?? "")'); run the bench once per size.")
        }
        let touches = try parsed.int("touches", range: 1...100_000) ?? 40
        let clock = try parsed.int("speed", range: 100_000...8_000_000) ?? 4_000_000
        for name in moduleOnly where parsed.isExplicit(name) {
            output.note("--\(name) measures a module; skipped with --sim-profile fpc1020.")
        }

        let target = try SensorBenchTarget(imagesDirectory: parsed.string("sim-images"), templates: sizes[0], progress: invocation.progress)
        defer { target.close() }
        let owners = try target.owners()
        let identity = target.recorder.identity
        let matcher = MinutiaeMatcher()
        let gallery = try MinutiaeGallery(try target.libraryTemplates())
        let floor = SensorFloor(spiClockHz: clock, width: identity.width, height: identity.height, matcher: matcher,
                                gallery: gallery)
        let slots = owners.keys
        let description = SensorBenchDescription(
            model: identity.model, connection: identity.connection, imagesDirectory: target.imagesDirectory,
            templates: target.templates, capacity: target.reader.readerDescription.capacity ?? target.templates,
            enrolledThroughReader: target.genuine.count, fillers: target.fillers, distinctFillers: target.distinctFillers,
            strangers: target.strangers.count, threshold: matcher.threshold(for: gallery),
            enrollNanoseconds: target.enrollNanoseconds, fillNanoseconds: target.fillNanoseconds,
            searchRange: (slots.min() ?? 0)..<((slots.max() ?? -1) + 1))
        output.describe(sensor: description, floor: floor)

        let plan = SensorIdentifyBench.plan(touches, genuine: target.genuine, strangers: target.strangers)
        invocation.progress("fpmod bench: \(plan.count) identify touches over \(target.templates) templates…")
        let sensor = target.sensor
        let bench = SensorIdentifyBench(reader: target.reader, recorder: target.recorder, floor: floor, owners: owners,
                                        place: { sensor.place($0) }, lift: { sensor.lift() },
                                        prepare: { finger in
                                            sensor.place(finger)
                                            _ = try? sensor.capture()
                                            sensor.lift()
                                        })
        let result = try bench.run(plan, warmUp: plan.first { $0.owner != nil })
        output.sensorIdentify(result, sensor: description, floor: floor)
    }
}
