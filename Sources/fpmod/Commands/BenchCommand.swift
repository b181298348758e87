import ArgumentParsing
import FingerprintModule
import FingerprintProtocol
import Foundation
import ModuleSimulator

/// `fpmod bench`: identify latency per stage against the wire + module limit; with --commands
/// per-command round trips, with --transfers template uploads, with --sweep the templates /
/// baud / packet-size sweeps and transfers, with --idle the service's idle CPU.
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
    }

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        let profileName = parsed.string("sim-profile") ?? "r307"
        let settings = Settings(
            cycles: try parsed.int("cycles", range: 0...100_000) ?? 50,
            templates: try parsed.int("templates", range: 1...65_535) ?? 10,
            timing: TimingMode(rawValue: parsed.string("timing") ?? "datasheet") ?? .datasheet,
            commands: try parsed.int("commands", range: 0...100_000) ?? 0,
            transfers: try parsed.int("transfers", range: 0...10_000) ?? 0,
            baudRate: try parsed.int("baud", range: 9600...115_200) ?? 57600,
            profile: SimulatorProfile.named(profileName) ?? .r307,
            hardware: !parsed.flag("sim") && parsed.string("port") != nil)
        var output = BenchOutput(json: invocation.json)

        let target = settings.hardware
            ? try BenchTarget.hardware(invocation)
            : try BenchTarget.simulated(profile: settings.profile, timing: settings.timing,
                                        baudRate: settings.baudRate, templates: settings.templates)
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
        if parsed.flag("idle") {
            invocation.progress("fpmod bench: idle CPU of fpmod run, with and without a touch line (about \(2 * (IdleBench.settle + IdleBench.window)) s)…")
            output.idle(IdleBench.run())
        }
        output.finish()
        return .ok
    }
}
