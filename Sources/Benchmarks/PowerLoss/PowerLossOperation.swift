/// One write path the power-loss campaign cuts: the real command that makes the change, the
/// failpoints inside it (FPMOD_FAILPOINT kills the process exactly there), and what runs after
/// the restart before the checks.
///
/// Every operation starts from a copy of the same baseline, so the state a cut may leave is
/// known in advance: the baseline's, or the one a run that was not cut leaves (learned once per
/// operation). Anything else is a half-applied change.
struct PowerLossOperation: Sendable {
    enum Baseline: Sendable {
        /// Store and module agree (`PowerLossBaseline.build`).
        case agreeing
        /// The module lost one finger's template and holds one the store does not know: what
        /// `fpmod sync` is for.
        case drifted
    }

    let name: String
    /// After `fpmod --sim`; `{dir}` is replaced by the iteration's directory.
    let arguments: [String]
    /// The virtual finger each capture touches (enroll).
    var finger: String?
    var failpoints: [String] = []
    var baseline = Baseline.agreeing
    /// Commands run after the restarted service stopped (each after `fpmod --sim`).
    var afterRestart: [[String]] = []
    /// Audit events the change writes (one of them is enough; a repair row stands in for them
    /// when the restart finished the change).
    var auditEvents: Set<String> = []

    static let enrollPoints = ["enroll.during-upload", "enroll.before-module-write", "enroll.after-module-write", "enroll.before-commit"]
    static let deletePoints = ["delete.before-module-write", "delete.after-module-write"]

    /// The write paths of the CLI, which the web console and the service call too (the same
    /// library functions: `StoreAdministration`, `Management`, `LayoutMover`, `Restore`).
    static let all: [PowerLossOperation] = [
        PowerLossOperation(name: "enroll", arguments: ["enroll", "erin"], finger: "erin-right-index", failpoints: enrollPoints),
        PowerLossOperation(name: "enroll finger", arguments: ["enroll", "bob", "--finger", "left-index"], finger: "bob-left-index",
                           failpoints: enrollPoints),
        PowerLossOperation(name: "delete user", arguments: ["delete", "carol", "--yes"], failpoints: deletePoints),
        PowerLossOperation(name: "delete finger", arguments: ["delete", "alice", "--finger", "left-index", "--yes"], failpoints: deletePoints),
        PowerLossOperation(name: "rename", arguments: ["rename", "dave", "david"]),
        PowerLossOperation(name: "layout move", arguments: ["layout", "--move", "3:30"],
                           failpoints: ["move.before-load", "move.before-store", "move.after-store", "move.before-commit",
                                        "move.after-commit", "move.after-delete"]),
        PowerLossOperation(name: "layout swap", arguments: ["layout", "--swap", "0:2"],
                           failpoints: ["swap.before-load", "swap.before-first-store", "swap.after-first-store", "swap.before-second-store",
                                        "swap.after-second-store", "swap.before-commit", "swap.after-commit"]),
        PowerLossOperation(name: "sync", arguments: ["sync"], baseline: .drifted, afterRestart: [["sync"]]),
        PowerLossOperation(name: "restore", arguments: ["restore", "{dir}/backup.fpb", "--yes", "--passphrase", PowerLossBaseline.passphrase],
                           failpoints: ["restore.before-store", "restore.before-module-write"]),
        PowerLossOperation(name: "wipe", arguments: ["wipe", "--yes"], failpoints: ["wipe.before-module-write", "wipe.after-module-write"]),
        PowerLossOperation(name: "pin set", arguments: ["pin", "bob", "--pin", "3917"]),
        PowerLossOperation(name: "pin clear", arguments: ["pin", "alice", "--clear"]),
        PowerLossOperation(name: "schedule add", arguments: ["schedule", "add", "night", "mon-sun 22:00-23:00"]),
        PowerLossOperation(name: "schedule replace", arguments: ["schedule", "add", "--replace", "office", "mon-sat 06:00-20:00"]),
        PowerLossOperation(name: "user set", arguments: ["user", "set", "carol", "--schedule", "office", "--uses", "5"]),
        PowerLossOperation(name: "holiday add", arguments: ["holiday", "add", "newyear", "--date", "2027-01-01", "--closed"]),
        PowerLossOperation(name: "card add", arguments: ["card", "add", "carol", "26:12:999"]),
        PowerLossOperation(name: "card delete", arguments: ["card", "delete", "bob", "card"]),
        PowerLossOperation(name: "verify mode", arguments: ["mode", "bob", "finger-and-pin"]),
        PowerLossOperation(name: "disable", arguments: ["disable", "carol"], finger: "alice-right-index")
    ]

    func commandLine(executable: String, directory: String) -> [String] {
        [executable, "--sim"] + (finger.map { ["--sim-finger", $0] } ?? [])
            + arguments.map { $0.replacingOccurrences(of: "{dir}", with: directory) }
    }
}
