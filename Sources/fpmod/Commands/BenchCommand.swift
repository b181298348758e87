import ArgumentParsing
import FingerprintModule
import FingerprintProtocol
import Foundation
import ModuleSimulator
import ReaderSessions
import Benchmarks

/// `fpmod bench`: identify latency per stage against the wire + module limit; with --commands
/// per-command round trips, with --transfers template uploads, with --sweep the templates /
/// baud / packet-size sweeps and transfers, with --idle the service's idle CPU; with
/// --workload the regulars-first search order against whole-range search, with --layout the
/// cost of the layout, with --throughput restore and sync, with --auto-identify the module's
/// one-command identify against the three-command cycle, with --credentials a card's and a
/// PIN's time to a decision at a running service. With --sim-profile fpc1020, identify
/// on the simulated image sensor through the host reader instead (`SensorBench`).
enum BenchCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        if parsed.string("what") == "soak" { return try SoakBenchCommand.run(invocation) }
        if parsed.string("what") == "power-loss" { return try PowerLossBenchCommand.run(invocation) }
        for option in ["duration", "report-every", "seed"] where parsed.isExplicit(option) {
            throw CommandFailure(.usage, "--\(option) belongs to `fpmod bench soak` or `fpmod bench power-loss`.")
        }
        for option in ["iterations", "jobs"] where parsed.isExplicit(option) {
            throw CommandFailure(.usage, "--\(option) belongs to `fpmod bench power-loss`.")
        }
        if let what = parsed.string("what") {
            guard what == "accuracy" else {
                throw CommandFailure(.usage, "fpmod bench takes `accuracy DIR`, `soak`, `power-loss` or nothing before its options; got '\(what)'.")
            }
            guard let folder = parsed.string("folder") else {
                throw CommandFailure(.usage, "fpmod bench accuracy needs a folder of NNN_K.png impressions, e.g. fpmod bench accuracy ../shared/data/fvc2002/DB3_B.")
            }
            return try AccuracyBenchCommand.run(invocation, folder: folder)
        }
        for option in ["sensor", "full", "door", "no-baseline", "det", "check", "save-scores", "against"] where parsed.isExplicit(option) {
            throw CommandFailure(.usage, "--\(option) belongs to `fpmod bench accuracy DIR`.")
        }
        var output = BenchOutput(json: invocation.json, write: StandardStreams.writeOutput)
        if parsed.string("sim-profile") == SimulatorOptions.imageSensorProfile {
            try SensorBenchCommand.run(invocation, into: &output)
        } else {
            try ModuleBench.run(try settings(parsed), reader: try invocation.readerOptions(), into: &output,
                                progress: invocation.progress)
        }
        if let json = output.finish() { JSONOutput.print(json) }
        return .ok
    }

    /// The module bench's settings from the command line.
    static func settings(_ parsed: ParsedCommand) throws -> BenchSettings {
        let sizes = try BenchSettings.librarySizes(parsed.string("templates"))
        let workloadName = parsed.string("workload")
        let workloads: [Workload] = workloadName == "all" ? Workload.allCases : workloadName.flatMap(Workload.init(rawValue:)).map { [$0] } ?? []
        // With workloads, the plain identify cycles run only when asked for.
        let defaultCycles = workloads.isEmpty && !parsed.flag("layout") && !parsed.flag("throughput") && !parsed.flag("auto-identify") && !parsed.flag("credentials") && parsed.string("console-load") == nil ? 50 : 0
        var settings = BenchSettings(
            cycles: parsed.isExplicit("cycles") ? try parsed.int("cycles", range: 0...100_000) ?? 50 : defaultCycles,
            templates: sizes[0],
            timing: TimingMode(rawValue: parsed.string("timing") ?? "datasheet") ?? .datasheet,
            commands: try parsed.int("commands", range: 0...100_000) ?? 0,
            transfers: try parsed.int("transfers", range: 0...10_000) ?? 0,
            baudRate: try parsed.int("baud", range: 9600...115_200) ?? 57600,
            profile: SimulatorProfile.named(parsed.string("sim-profile") ?? "r307") ?? .r307,
            hardware: !parsed.flag("sim") && parsed.string("port") != nil)
        settings.librarySizes = sizes
        settings.workloads = workloads
        settings.touches = try parsed.int("touches", range: 1...100_000) ?? 40
        settings.history = try parsed.int("history", range: 0...1_000_000) ?? 500
        let modelName = parsed.string("search-model") ?? "best-match"
        settings.searchModels = modelName == "both" ? SearchModel.allCases : SearchModel(rawValue: modelName).map { [$0] } ?? [.bestMatch]
        settings.sweep = parsed.flag("sweep")
        settings.layout = parsed.flag("layout")
        settings.throughput = parsed.flag("throughput")
        settings.autoIdentify = parsed.flag("auto-identify")
        settings.idleExecutable = parsed.flag("idle") ? CommandLine.arguments[0] : nil
        settings.credentialsExecutable = parsed.flag("credentials") ? CommandLine.arguments[0] : nil
        if let rate = try parsed.int("console-load", range: 1...1000) { settings.consoleLoad = (CommandLine.arguments[0], rate) }
        return settings
    }
}
