import ArgumentParsing
import FingerprintModule
import FingerprintProtocol
import Foundation
import ModuleSimulator

/// `fpmod bench`: identify latency per stage against the wire + module limit; with --commands
/// per-command round trips, with --transfers template uploads, with --sweep the templates /
/// baud / packet-size sweeps and transfers, with --idle the service's idle CPU; with
/// --workload the regulars-first search order against whole-range search, with --layout the
/// cost of the layout, with --throughput restore and sync, with --auto-identify the module's
/// one-command identify against the three-command cycle. With --sim-profile fpc1020, identify
/// on the simulated image sensor through the host reader instead (`SensorBench`).
enum BenchCommand {
    struct Settings {
        var cycles: Int
        var templates: Int
        var timing: TimingMode
        var commands: Int
        var transfers: Int
        var baudRate: Int
        var profile: SimulatorProfile
        var hardware: Bool
        var searchModels: [SearchModel] = [.bestMatch]
        /// `--templates` may list several sizes (workloads run at each); the rest uses the first.
        var librarySizes: [Int] = [10]
        var workloads: [Workload] = []
        var touches = 40
        var history = 500
    }

    /// `--templates 100,500,1000`: one or more library sizes.
    static func sizes(_ text: String?) throws -> [Int] {
        guard let text else { return [10] }
        let sizes = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) >= 1 && ($0 ?? 0) <= 65_535 }) else {
            throw CommandFailure(.usage, "--templates takes a number of templates or a comma-separated list (e.g. 100,500,1000), each from 1 to 65535; got '\(text)'.")
        }
        return sizes.compactMap { $0 }
    }

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        if let what = parsed.string("what") {
            guard what == "accuracy" else {
                throw CommandFailure(.usage, "fpmod bench takes `accuracy DIR` or nothing before its options; got '\(what)'.")
            }
            guard let folder = parsed.string("folder") else {
                throw CommandFailure(.usage, "fpmod bench accuracy needs a folder of NNN_K.png impressions, e.g. fpmod bench accuracy ../shared/data/fvc2002/DB3_B.")
            }
            return try AccuracyBench.run(invocation, folder: folder)
        }
        for option in ["sensor", "full", "door", "no-baseline", "det", "check"] where parsed.isExplicit(option) {
            throw CommandFailure(.usage, "--\(option) belongs to `fpmod bench accuracy DIR`.")
        }
        let profileName = parsed.string("sim-profile") ?? "r307"
        if profileName == "fpc1020" {
            var output = BenchOutput(json: invocation.json)
            try SensorBench.run(invocation, into: &output)
            output.finish()
            return .ok
        }
        let sizes = try sizes(parsed.string("templates"))
        let workloadName = parsed.string("workload")
        let workloads: [Workload] = workloadName == "all" ? Workload.allCases : workloadName.flatMap(Workload.init(rawValue:)).map { [$0] } ?? []
        // With workloads, the plain identify cycles run only when asked for.
        let defaultCycles = workloads.isEmpty && !parsed.flag("layout") && !parsed.flag("throughput") && !parsed.flag("auto-identify") ? 50 : 0
        var settings = Settings(
            cycles: parsed.isExplicit("cycles") ? try parsed.int("cycles", range: 0...100_000) ?? 50 : defaultCycles,
            templates: sizes[0],
            timing: TimingMode(rawValue: parsed.string("timing") ?? "datasheet") ?? .datasheet,
            commands: try parsed.int("commands", range: 0...100_000) ?? 0,
            transfers: try parsed.int("transfers", range: 0...10_000) ?? 0,
            baudRate: try parsed.int("baud", range: 9600...115_200) ?? 57600,
            profile: SimulatorProfile.named(profileName) ?? .r307,
            hardware: !parsed.flag("sim") && parsed.string("port") != nil)
        settings.librarySizes = sizes
        settings.workloads = workloads
        settings.touches = try parsed.int("touches", range: 1...100_000) ?? 40
        settings.history = try parsed.int("history", range: 0...1_000_000) ?? 500
        let modelName = parsed.string("search-model") ?? "best-match"
        settings.searchModels = modelName == "both" ? SearchModel.allCases : SearchModel(rawValue: modelName).map { [$0] } ?? [.bestMatch]
        var output = BenchOutput(json: invocation.json)

        let target = settings.hardware
            ? try BenchTarget.hardware(invocation)
            : try BenchTarget.simulated(profile: settings.profile, timing: settings.timing,
                                        baudRate: settings.baudRate, templates: settings.templates,
                                        searchModel: settings.searchModels[0])
        defer { target.close() }
        output.describe(target: target, settings: settings)

        if settings.cycles > 0 {
            let range = target.module.indexTable?.occupiedRange ?? 0..<(target.module.capacity ?? 1)
            invocation.progress("fpmod bench: \(settings.cycles) identify cycles…")
            let result = try IdentifyBench(target: target, range: range).run(cycles: settings.cycles)
            output.identify(result, range: range, searched: target.templatesSearched(in: range))
        }
        if settings.commands > 0 {
            invocation.progress("fpmod bench: \(settings.commands) round trips of each command…")
            let result = try RoundTripBench(module: target.module).run(count: settings.commands)
            output.roundTrips(result.samples, cpuMicrosecondsPerRoundTrip: result.cpuMicrosecondsPerRoundTrip)
        }
        if settings.transfers > 0 {
            invocation.progress("fpmod bench: \(settings.transfers) template uploads…")
            output.transfers([try TransferBench(target: target).run(.upChar, count: settings.transfers)], title: "Transfers")
        }
        if parsed.flag("sweep") {
            if settings.hardware {
                output.note("--sweep needs the simulator (it restarts modules at other baud rates and library sizes); skipped.")
            } else {
                try SweepBench(settings: settings, progress: invocation.progress).run(into: &output)
            }
        }
        let simulatorOnly = [("workload", !settings.workloads.isEmpty), ("layout", parsed.flag("layout")),
                             ("throughput", parsed.flag("throughput")), ("auto-identify", parsed.flag("auto-identify"))]
        if settings.hardware {
            for (name, asked) in simulatorOnly where asked {
                output.note("--\(name) needs the simulator (it fills and rearranges a library of its own); skipped.")
            }
        } else {
            try SearchBenches(settings: settings, progress: invocation.progress).run(
                workloads: !settings.workloads.isEmpty, layout: parsed.flag("layout"), throughput: parsed.flag("throughput"),
                autoIdentify: parsed.flag("auto-identify"), into: &output)
        }
        if parsed.flag("idle") {
            invocation.progress("fpmod bench: idle CPU of fpmod run, with and without a touch line (about \(2 * (IdleBench.settle + IdleBench.window)) s)…")
            output.idle(IdleBench.run())
        }
        output.finish()
        return .ok
    }
}
