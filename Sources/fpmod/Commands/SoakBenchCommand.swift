import ArgumentParsing
import Benchmarks
import Foundation

/// `fpmod bench soak [--duration 2m] [--report-every D] [--seed N]`: a busy door with faults on
/// real processes (`SoakBench`); prints a row per interval, the growth of each run of the
/// service and the verdict. Exit 1 when the soak found a problem, 69 when it could not run.
enum SoakBenchCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        if parsed.string("folder") != nil {
            throw CommandFailure(.usage, "fpmod bench soak takes no folder; its options are --duration, --report-every and --seed.")
        }
        for option in ["iterations", "jobs"] where parsed.isExplicit(option) {
            throw CommandFailure(.usage, "--\(option) belongs to `fpmod bench power-loss`.")
        }
        guard let duration = try parsed.duration("duration"), duration >= .seconds(10), duration <= .seconds(7 * 86_400) else {
            throw CommandFailure(.usage, "--duration takes 10s to 7 days, e.g. --duration 2m or --duration 1h.")
        }
        var options = SoakBench.Options(duration: DurationText.seconds(duration))
        if let every = try parsed.duration("report-every") {
            guard every >= .seconds(5) else { throw CommandFailure(.usage, "--report-every takes 5s or more, e.g. --report-every 10m.") }
            options.interval = DurationText.seconds(every)
        }
        guard let seedText = parsed.string("seed"), let seed = UInt64(seedText) else {
            throw CommandFailure(.usage, "--seed takes a whole number from 0 to \(UInt64.max), e.g. --seed 27.")
        }
        options.seed = seed
        switch SoakBench.run(executable: CommandLine.arguments[0], options: options, progress: invocation.progress) {
        case .failure(let failure):
            throw CommandFailure(.unavailable, "fpmod bench soak could not run: \(failure.description)")
        case .success(let report):
            var text = report.table.rendered() + "\n" + report.notes.joined(separator: "\n")
            text += report.passed ? "\nSoak passed: no wrong decision, every decision in the audit log, no growth past the bounds."
                                  : "\nSoak FAILED:\n" + report.problems.map { "  - " + $0 }.joined(separator: "\n")
            invocation.emit(text, json: ["soak": report.json])
            return report.passed ? .ok : .denied
        }
    }
}
