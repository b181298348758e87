import JSONValue
import FingerprintModule
import FingerprintProtocol
import ModuleSimulator
import Posix

/// `--auto-identify`: the module's one-command identify (R50x AutoIdentify, AS608 AutoSearch)
/// against the three-command cycle on the same library: the time of a matching touch, and the
/// outcome of each situation a door meets (a match, a stranger, a poor press, no finger).
/// AutoIdentify becomes the default only where it is faster and every outcome is the same.
public struct AutoIdentifyBench {
    public let library: BenchLibrary
    public let cycles: Int

    public enum Scenario: String, CaseIterable {
        case match, stranger
        case poorImage = "poor image"
        case noFinger = "no finger"
    }

    public struct Result {
        public var threeCommands: [Int64] = []
        public var automatic: [Int64] = []
        /// Scenario → (three-command outcome, automatic outcome, their times).
        public var outcomes: [(scenario: Scenario, three: IdentifyOutcome, automatic: IdentifyOutcome, threeTime: Int64, automaticTime: Int64)] = []
        public var misses = 0

        public var saving: Double? {
            guard let three = Distribution(threeCommands), let automatic = Distribution(automatic) else { return nil }
            return three.mean - automatic.mean
        }
        public var faster: Bool { (saving ?? 0) > 0 }
        /// Same kind of outcome (and the same slot for a match) in every scenario, and no
        /// scenario slower by more than a second (a module that waits for a finger).
        public var sameOutcomes: Bool {
            outcomes.allSatisfy { Self.kind($0.three) == Self.kind($0.automatic) && $0.automaticTime - $0.threeTime < 1_000_000_000 }
        }

        public static func kind(_ outcome: IdentifyOutcome) -> String {
            switch outcome {
            case let .match(slot, _): "match \(slot)"
            case .noMatch: "no match"
            case .noFinger: "no finger"
            case let .poorImage(code): "poor image \(code)"
            }
        }
    }

    public func run() throws -> Result {
        let module = library.module
        let range = module.indexTable?.occupiedRange ?? 0..<1
        let slots = try library.slots()
        var result = Result()
        var random = SeededRandom(name: "auto-identify")
        for _ in 0..<cycles {
            let finger = Int.random(in: 0..<library.fingers, using: &random)
            library.server.place(BenchLibrary.fingerName(finger))
            // Alternated, so drift in the machine's load affects both alike.
            let (three, threeTime) = try timed { try module.identify(range: range) }
            let (automatic, automaticTime) = try timed { try module.identifyAutomatically(range: range) }
            let expected = IdentifyOutcome.match(slot: slots[finger] ?? -1, score: 0)
            guard Result.kind(three) == Result.kind(expected), Result.kind(automatic) == Result.kind(expected) else {
                result.misses += 1
                continue
            }
            result.threeCommands.append(threeTime)
            result.automatic.append(automaticTime)
        }
        for scenario in Scenario.allCases {
            switch scenario {
            case .match: library.server.place(BenchLibrary.fingerName(0))
            case .stranger: library.server.place(BenchLibrary.strangerName(0))
            case .poorImage: library.server.place(BenchLibrary.fingerName(0), quality: .poor)
            case .noFinger: library.server.lift()
            }
            let (three, threeTime) = try timed { try module.identify(range: range) }
            let (automatic, automaticTime) = try timed { try module.identifyAutomatically(range: range) }
            result.outcomes.append((scenario, three, automatic, threeTime, automaticTime))
        }
        library.server.lift()
        return result
    }

    private func timed(_ body: () throws -> IdentifyOutcome) throws -> (IdentifyOutcome, Int64) {
        let start = Monotonic.nanoseconds()
        let outcome = try body()
        return (outcome, Int64(Monotonic.nanoseconds() - start))
    }

    public static func tables(_ result: Result) -> (TextTable, TextTable) {
        var timing = TextTable(["identify (matching touch)", "n", "mean ms", "p50 ms", "p99 ms"])
        for (name, samples) in [("three commands (GenImg, Img2Tz, Search)", result.threeCommands),
                                ("one command (AutoIdentify / AutoSearch)", result.automatic)] {
            guard let distribution = Distribution(samples) else { continue }
            timing.add([name, "\(distribution.count)", DurationText.fixed(distribution.mean / 1e6, digits: 2),
                        BenchReport.ms(distribution.p50), BenchReport.ms(distribution.p99)])
        }
        var outcomes = TextTable(["situation", "three commands", "ms", "one command", "ms", "same"])
        for row in result.outcomes {
            outcomes.add([row.scenario.rawValue, Result.kind(row.three), BenchReport.ms(row.threeTime),
                          Result.kind(row.automatic), BenchReport.ms(row.automaticTime),
                          Result.kind(row.three) == Result.kind(row.automatic) ? "yes" : "NO"])
        }
        return (timing, outcomes)
    }

    public static func verdict(_ result: Result, profile: SimulatorProfile) -> String {
        let saving = result.saving.map { DurationText.fixed($0 / 1e6, digits: 2) + " ms" } ?? "unknown"
        let documented = IdentifyMethod.knownDifferences(on: profile.family)
        let use = result.faster && result.sameOutcomes && documented.isEmpty
        var why: [String] = documented.map { "documented: " + $0 }
        if !result.faster { why.append("it is not faster") }
        for row in result.outcomes where Result.kind(row.three) != Result.kind(row.automatic) {
            why.append("\(row.scenario.rawValue): \(Result.kind(row.three)) vs \(Result.kind(row.automatic))")
        }
        for row in result.outcomes where row.automaticTime - row.threeTime >= 1_000_000_000 {
            why.append("\(row.scenario.rawValue) takes \(BenchReport.ms(row.automaticTime)) ms instead of \(BenchReport.ms(row.threeTime)) ms")
        }
        return "AutoIdentify on the \(profile.name) saves \(saving) per matching touch; default for identify: "
            + (use ? "AutoIdentify" : "the three-command cycle") + (why.isEmpty ? "." : " (" + why.joined(separator: "; ") + ").")
    }

    public static func json(_ result: Result, profile: SimulatorProfile) -> JSONValue {
        .object([
            "profile": .string(profile.name),
            "three_commands": Distribution(result.threeCommands)?.json ?? .null,
            "auto_identify": Distribution(result.automatic)?.json ?? .null,
            "saving_ms": result.saving.map { .double(($0 / 1e4).rounded() / 100) } ?? .null,
            "misses": .int(Int64(result.misses)),
            "outcomes": .array(result.outcomes.map { row in
                .object(["situation": .string(row.scenario.rawValue), "three_commands": .string(Result.kind(row.three)),
                         "three_commands_ms": .double(DurationText.milliseconds(row.threeTime)),
                         "auto_identify": .string(Result.kind(row.automatic)),
                         "auto_identify_ms": .double(DurationText.milliseconds(row.automaticTime))])
            }),
            "faster": .bool(result.faster), "same_outcomes": .bool(result.sameOutcomes),
            "documented_differences": .array(IdentifyMethod.knownDifferences(on: profile.family).map(JSONValue.string)),
            "default": .string(result.faster && result.sameOutcomes && IdentifyMethod.knownDifferences(on: profile.family).isEmpty
                ? IdentifyMethod.automatic.rawValue : IdentifyMethod.threeCommands.rawValue),
        ])
    }
}
