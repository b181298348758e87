import ArgumentParsing
import Benchmarks
import Foundation

/// `fpmod bench power-loss [--iterations 1000] [--jobs 4] [--seed N]`: a power cut at every
/// write path (`PowerLossCampaign`); prints a row per write path and every problem with the
/// iteration that met it. Exit 1 on any problem, 69 when the campaign could not run.
enum PowerLossBenchCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        if parsed.string("folder") != nil {
            throw CommandFailure(.usage, "fpmod bench power-loss takes no folder; its options are --iterations, --jobs and --seed.")
        }
        for option in ["duration", "report-every"] where parsed.isExplicit(option) {
            throw CommandFailure(.usage, "--\(option) belongs to `fpmod bench soak`.")
        }
        guard let iterations = parsed.string("iterations").flatMap({ Int($0) }), (1...1_000_000).contains(iterations) else {
            throw CommandFailure(.usage, "--iterations takes a whole number from 1 to 1000000, e.g. --iterations 1000.")
        }
        guard let jobs = parsed.string("jobs").flatMap({ Int($0) }), (1...64).contains(jobs) else {
            throw CommandFailure(.usage, "--jobs takes a whole number from 1 to 64, e.g. --jobs 4.")
        }
        guard let seedText = parsed.string("seed"), let seed = UInt64(seedText) else {
            throw CommandFailure(.usage, "--seed takes a whole number from 0 to \(UInt64.max), e.g. --seed 27.")
        }
        let options = PowerLossCampaign.Options(iterations: iterations, seed: seed, jobs: jobs)
        let progress = invocation.progress
        switch PowerLossCampaign.run(executable: CommandLine.arguments[0], options: options, progress: { progress($0) }) {
        case .failure(let failure):
            throw CommandFailure(.unavailable, "fpmod bench power-loss could not run: \(failure.description)")
        case .success(let report):
            var text = report.table.rendered()
            text += "\n\(report.iterations) iterations, \(report.cuts) cut by SIGKILL (seed \(report.seed))."
            text += report.passed ? "\nPower-loss campaign passed: after every cut the store was sound, whole and in agreement with the module, and the audit chain intact."
                                  : "\nPower-loss campaign FAILED (\(report.problems.count) problems):\n"
                                    + report.problems.prefix(40).map { "  - " + $0 }.joined(separator: "\n")
            invocation.emit(text, json: ["powerLoss": report.json])
            return report.passed ? .ok : .denied
        }
    }
}
