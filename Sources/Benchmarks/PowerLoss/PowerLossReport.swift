import JSONValue

/// One cut: where it landed and what the restart found.
struct PowerLossOutcome: Sendable {
    enum Ending: String, Sendable {
        /// The store is as it was before the command (the change was undone or never began).
        case before
        /// The change is whole (finished by the command, or by the restart's repair).
        case after
        /// Neither: a half-applied change.
        case neither
    }

    let operation: String
    let index: Int
    var failpoint: String?
    /// Seconds after the start when the SIGKILL was due (nil for a failpoint cut).
    var cutAfter: Double?
    /// False when the command ended before the cut came.
    var wasCut = false
    var ended = Ending.neither
    var problems: [String] = []
}

/// The campaign's verdict: a row per write path, every problem with the iteration that met it
/// (replay with the same --seed).
public struct PowerLossReport {
    public let table: TextTable
    public let problems: [String]
    public let iterations: Int
    public let cuts: Int
    public let seed: UInt64
    public var passed: Bool { problems.isEmpty }

    init(references: [PowerLossCampaign.Reference], outcomes: [PowerLossOutcome], seed: UInt64) {
        var table = TextTable(["write path", "iterations", "cut at random", "cut at failpoint", "ran to the end",
                               "found undone", "found whole", "problems"])
        for reference in references {
            let mine = outcomes.filter { $0.operation == reference.operation.name }
            table.add([reference.operation.name, "\(mine.count)",
                       "\(mine.filter { $0.wasCut && $0.failpoint == nil }.count)",
                       "\(mine.filter { $0.wasCut && $0.failpoint != nil }.count)",
                       "\(mine.filter { !$0.wasCut }.count)",
                       "\(mine.filter { $0.ended == .before }.count)",
                       "\(mine.filter { $0.ended == .after }.count)",
                       "\(mine.filter { !$0.problems.isEmpty }.count)"])
        }
        self.table = table
        problems = outcomes.flatMap { outcome in
            outcome.problems.map { problem in
                let cut = outcome.failpoint.map { "at failpoint \($0)" }
                    ?? outcome.cutAfter.map { "SIGKILL after \(DurationText.format(Int64($0 * 1e9)))" } ?? ""
                return "iteration \(outcome.index) (\(outcome.operation), \(cut)): \(problem)"
            }
        }
        iterations = outcomes.count
        cuts = outcomes.filter(\.wasCut).count
        self.seed = seed
    }

    public var json: JSONValue {
        .object(["iterations": .int(Int64(iterations)), "cuts": .int(Int64(cuts)), "seed": .string(String(seed)),
                 "passed": .bool(passed), "problems": .array(problems.map { .string($0) })])
    }
}
