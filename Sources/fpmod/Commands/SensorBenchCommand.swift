import ArgumentParsing
import Benchmarks

/// `fpmod bench --sim --sim-profile fpc1020`: the options of the image sensor's bench
/// (`SensorBench` runs it); the parts that measure a module are named and skipped.
enum SensorBenchCommand {
    /// The parts of `fpmod bench` that need a module; named when given, then skipped.
    static let moduleOnly = ["cycles", "timing", "commands", "transfers", "sweep", "idle", "credentials", "search-model", "workload",
                             "history", "layout", "throughput", "auto-identify", "baud"]

    static func run(_ invocation: Invocation, into output: inout BenchOutput) throws {
        let parsed = invocation.parsed
        if parsed.string("port") != nil && !parsed.flag("sim") {
            throw CommandFailure(.usage, "--sim-profile fpc1020 benches the simulated image sensor, not a module on --port; add --sim, or drop --sim-profile to bench the module.")
        }
        let sizes = try BenchSettings.librarySizes(parsed.string("templates"))
        guard sizes.count == 1 else {
            throw CommandFailure(.usage, "--templates takes one size with --sim-profile fpc1020 (got '\(parsed.string("templates") ?? "")'); run the bench once per size.")
        }
        let settings = SensorBench.Settings(imagesDirectory: parsed.string("sim-images"), templates: sizes[0],
                                            touches: try parsed.int("touches", range: 1...100_000) ?? 40,
                                            spiClockHz: try parsed.int("speed", range: 100_000...8_000_000) ?? 4_000_000,
                                            cardAndFinger: parsed.flag("card-and-finger"))
        for name in moduleOnly where parsed.isExplicit(name) {
            output.note("--\(name) measures a module; skipped with --sim-profile fpc1020.")
        }
        try SensorBench.run(settings, into: &output, progress: invocation.progress)
    }
}
