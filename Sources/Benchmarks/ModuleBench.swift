import ReaderSessions

/// One `fpmod bench` run on a module, every part the settings ask for, into one output: the
/// identify cycle per stage, command round trips, transfers, the sweeps, the search-order
/// benches and the idle CPU. A part that needs the simulator is noted and skipped on hardware.
public enum ModuleBench {
    /// `reader`: how to reach the module on a port (used when `settings.hardware`).
    public static func run(_ settings: BenchSettings, reader: ReaderOptions, into output: inout BenchOutput,
                           progress: @escaping (String) -> Void) throws {
        let target = settings.hardware
            ? try BenchTarget.hardware(reader)
            : try BenchTarget.simulated(profile: settings.profile, timing: settings.timing,
                                        baudRate: settings.baudRate, templates: settings.templates,
                                        searchModel: settings.searchModels[0])
        defer { target.close() }
        output.describe(target: target, settings: settings)

        if settings.cycles > 0 {
            let range = target.module.indexTable?.occupiedRange ?? 0..<(target.module.capacity ?? 1)
            progress("fpmod bench: \(settings.cycles) identify cycles…")
            let result = try IdentifyBench(target: target, range: range).run(cycles: settings.cycles)
            output.identify(result, range: range, searched: target.templatesSearched(in: range))
        }
        if settings.commands > 0 {
            progress("fpmod bench: \(settings.commands) round trips of each command…")
            let result = try RoundTripBench(module: target.module).run(count: settings.commands)
            output.roundTrips(result.samples, cpuMicrosecondsPerRoundTrip: result.cpuMicrosecondsPerRoundTrip)
        }
        if settings.transfers > 0 {
            progress("fpmod bench: \(settings.transfers) template uploads…")
            output.transfers([try TransferBench(target: target).run(.upChar, count: settings.transfers)], title: "Transfers")
        }
        if settings.sweep {
            if settings.hardware {
                output.note("--sweep needs the simulator (it restarts modules at other baud rates and library sizes); skipped.")
            } else {
                try SweepBench(settings: settings, progress: progress).run(into: &output)
            }
        }
        let simulatorOnly = [("workload", !settings.workloads.isEmpty), ("layout", settings.layout),
                             ("throughput", settings.throughput), ("auto-identify", settings.autoIdentify)]
        if settings.hardware {
            for (name, asked) in simulatorOnly where asked {
                output.note("--\(name) needs the simulator (it fills and rearranges a library of its own); skipped.")
            }
        } else {
            try SearchBenches(settings: settings, progress: progress).run(
                workloads: !settings.workloads.isEmpty, layout: settings.layout, throughput: settings.throughput,
                autoIdentify: settings.autoIdentify, into: &output)
        }
        if let executable = settings.idleExecutable {
            progress("fpmod bench: idle CPU of fpmod run, with and without a touch line (about \(2 * (IdleBench.settle + IdleBench.window)) s)…")
            output.idle(IdleBench.run(executable: executable))
        }
        if let executable = settings.credentialsExecutable {
            let result = CredentialBench.run(executable: executable, progress: progress)
            output.section("credentials", title: "Cards and PINs to a decision (`fpmod run --sim --sim-gpio`, the control socket's line to its reply; the relay is set before the reply):",
                           table: result.table, notes: result.notes, json: result.json)
        }
        if let load = settings.consoleLoad {
            let result = ConsoleLoadBench.run(executable: load.executable, rate: load.rate, progress: progress)
            output.section("console-load", title: "Touch to relay with the web console on (`fpmod run --sim --sim-gpio`; the service's stamps, touch edge to relay), idle and under \(load.rate) API requests/s from curl:",
                           table: result.table, notes: result.notes, json: result.json)
        }
    }
}
