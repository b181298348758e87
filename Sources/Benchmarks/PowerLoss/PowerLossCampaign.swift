import Foundation
import Glibc
import ModuleSimulator
import Posix
import Synchronization
import TemplateStore

/// `fpmod bench power-loss`: the power cut at every write. Each iteration copies the baseline,
/// runs one write path as the real `fpmod` (in-process simulated module whose flash is a file,
/// like a module's), SIGKILLs it at a random moment or at one of its failpoints, restarts the
/// real service on what is left (`fpmod run`, until its module is connected), and checks what
/// the restart finds: `PRAGMA integrity_check`, no intent left pending, the store's visible
/// state either the baseline's or the finished change's (never half of it), store and module
/// in agreement slot by slot, the audit chain intact from the baseline's head, and an audit
/// record for a change that happened (and none for one that did not).
public enum PowerLossCampaign {
    public struct Options: Sendable {
        public var iterations: Int
        public var seed: UInt64
        /// Iterations run side by side (the simulated module mostly waits, so a 2-core machine
        /// keeps four busy).
        public var jobs: Int
        /// Only the operations whose names contain this (all when nil).
        public var only: String?

        public init(iterations: Int = 1000, seed: UInt64 = 27, jobs: Int = 4, only: String? = nil) {
            self.iterations = iterations
            self.seed = seed
            self.jobs = jobs
            self.only = only
        }
    }

    /// What a run of the operation that is not cut leaves, learned once per operation.
    struct Reference: Sendable {
        let operation: PowerLossOperation
        let before: [String]
        let after: [String]
        let auditEvents: Set<String>
        /// Wall seconds of the uncut run: cuts are drawn over this span (and a little past it).
        let seconds: Double
    }

    struct Start: Sendable {
        let directory: String
        let view: [String]
        let newestAuditID: Int64
        let head: AuditChainHead?
    }

    public static func run(executable: String, options: Options, progress: @escaping @Sendable (String) -> Void) -> Result<PowerLossReport, BenchFailure> {
        let executable = URL(fileURLWithPath: executable).resolvingSymlinksInPath().path
        let root = NSTemporaryDirectory() + "fpmod-power-loss-\(CurrentProcess.id)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        do {
            let operations = PowerLossOperation.all.filter { options.only == nil || $0.name.contains(options.only!) }
            guard !operations.isEmpty else { throw BenchFailure("no write path is named like '\(options.only ?? "")'") }
            progress("Building the baseline with the real commands…")
            let agreeing = try start(directory: root + "/baseline", executable: executable, drifted: root + "/drifted")
            let drifted = try start(directory: root + "/drifted", executable: nil, drifted: nil)
            let references = try operations.map { operation in
                try reference(operation, from: operation.baseline == .agreeing ? agreeing : drifted,
                              executable: executable, directory: root + "/reference")
            }
            progress("Cutting \(options.iterations) writes across \(operations.count) write paths, \(options.jobs) at a time…")
            // Handed out one at a time; outcomes kept by iteration.
            let next = Mutex(0)
            let results = Mutex([PowerLossOutcome?](repeating: nil, count: options.iterations))
            let workers = max(1, min(options.jobs, options.iterations))
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                while let index = next.withLock({ value -> Int? in
                    guard value < options.iterations else { return nil }
                    defer { value += 1 }
                    return value
                }) {
                    let reference = references[index % references.count]
                    let base = reference.operation.baseline == .agreeing ? agreeing : drifted
                    let outcome = iteration(index, reference: reference, base: base, executable: executable,
                                            directory: root + "/worker-\(worker)", seed: options.seed)
                    results.withLock { $0[index] = outcome }
                    if (index + 1) % 100 == 0 { progress("  \(index + 1) of \(options.iterations)") }
                }
            }
            return .success(PowerLossReport(references: references, outcomes: results.withLock { $0.compactMap { $0 } }, seed: options.seed))
        } catch let failure as BenchFailure {
            return .failure(failure)
        } catch {
            return .failure(BenchFailure("\(error)"))
        }
    }

    static func start(directory: String, executable: String?, drifted: String?) throws -> Start {
        if let executable, let drifted {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try PowerLossBaseline.build(executable: executable, directory: directory, drifted: drifted)
        }
        let store = try TemplateStore(readingOnly: directory + "/" + PowerLossBaseline.databaseName,
                                      keyPath: directory + "/" + PowerLossBaseline.keyName)
        let newest = try store.newestAuditID()
        let head = try store.auditChainHead()
        let snapshot = try PowerLossSnapshot.read(directory: directory, afterAuditID: newest).get()
        return Start(directory: directory, view: snapshot.view, newestAuditID: newest, head: head)
    }

    /// Records of a touch (`MatchRecording`), not of a change: a command that asks for a finger
    /// before it changes anything (`fpmod disable`) records the touch first, so a cut after the
    /// touch and before the change rightly leaves the touch's record and no change.
    static let touchRecords: Set<String> = ["identify-match", "identify-no-match", "verify-match", "verify-no-match"]

    /// Runs `operation` uncut on a copy of the baseline and checks the result like an
    /// iteration's: a reference that fails its own checks stops the campaign.
    static func reference(_ operation: PowerLossOperation, from base: Start, executable: String, directory: String) throws -> Reference {
        try PowerLossBaseline.copyFiles(from: base.directory, to: directory)
        let run = PowerLossProcess.run(operation.commandLine(executable: executable, directory: directory), directory: directory)
        guard run.exitStatus == 0 else { throw BenchFailure("`\(operation.name)` failed without a cut: \(run.summary)") }
        // The command's own audit records, before the restart adds the service's.
        let written = try PowerLossSnapshot.read(directory: directory, afterAuditID: base.newestAuditID).get().newAuditEvents
        if let problem = PowerLossProcess.restartService(executable: executable, directory: directory) {
            throw BenchFailure("after `\(operation.name)` without a cut: \(problem)")
        }
        for command in operation.afterRestart {
            let result = PowerLossProcess.run([executable, "--sim"] + command, directory: directory)
            guard result.exitStatus == 0 else { throw BenchFailure("after `\(operation.name)`, \"fpmod \(command.joined(separator: " "))\" failed: \(result.summary)") }
        }
        let snapshot = try PowerLossSnapshot.read(directory: directory, afterAuditID: base.newestAuditID).get()
        let problems = PowerLossSnapshot.disagreements(directory: directory)
            + [PowerLossSnapshot.auditProblem(directory: directory, baselineHead: base.head)].compactMap { $0 }
        guard problems.isEmpty, snapshot.integrity == ["ok"], snapshot.pendingIntents == 0 else {
            throw BenchFailure("`\(operation.name)` without a cut already leaves a problem: \((problems + snapshot.integrity).joined(separator: "; "))")
        }
        if snapshot.view == base.view && operation.baseline == .agreeing {
            throw BenchFailure("`\(operation.name)` changes nothing the campaign can see; it cannot tell a cut from a finish")
        }
        return Reference(operation: operation, before: base.view, after: snapshot.view,
                         auditEvents: Set(written), seconds: run.seconds)
    }

    /// One cut and what the restart finds.
    static func iteration(_ index: Int, reference: Reference, base: Start, executable: String, directory: String,
                          seed: UInt64) -> PowerLossOutcome {
        var random = SeededRandom(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        let operation = reference.operation
        var outcome = PowerLossOutcome(operation: operation.name, index: index)
        do { try PowerLossBaseline.copyFiles(from: base.directory, to: directory) } catch {
            outcome.problems.append("\(error)")
            return outcome
        }
        // A third of the cuts land exactly on a failpoint (the moments that matter most); the
        // rest anywhere in the command's life, start-up and exit included.
        if !operation.failpoints.isEmpty, Int.random(in: 0..<3, using: &random) == 0 {
            outcome.failpoint = operation.failpoints.randomElement(using: &random)
        } else {
            outcome.cutAfter = Double.random(in: 0...(reference.seconds * 1.1), using: &random)
        }
        let run = PowerLossProcess.run(operation.commandLine(executable: executable, directory: directory), directory: directory,
                                       failpoint: outcome.failpoint, killAfter: outcome.cutAfter)
        outcome.wasCut = run.signal == SIGKILL
        if !outcome.wasCut && run.exitStatus != 0 {
            outcome.problems.append("the command ended without a cut, badly: \(run.summary)")
        }
        if let problem = PowerLossProcess.restartService(executable: executable, directory: directory) {
            outcome.problems.append(problem)
        }
        for command in operation.afterRestart {
            let result = PowerLossProcess.run([executable, "--sim"] + command, directory: directory)
            if result.exitStatus != 0 {
                outcome.problems.append("after the restart, \"fpmod \(command.joined(separator: " "))\" failed: \(result.summary)")
            }
        }
        let snapshot: PowerLossSnapshot
        switch PowerLossSnapshot.read(directory: directory, afterAuditID: base.newestAuditID) {
        case .failure(let failure):
            outcome.problems.append(failure.description)
            return outcome
        case .success(let read): snapshot = read
        }
        if snapshot.integrity != ["ok"] { outcome.problems.append("integrity_check: " + snapshot.integrity.joined(separator: "; ")) }
        if snapshot.pendingIntents != 0 { outcome.problems.append("\(snapshot.pendingIntents) intent(s) still pending after the restart") }
        outcome.problems += PowerLossSnapshot.disagreements(directory: directory)
        if let audit = PowerLossSnapshot.auditProblem(directory: directory, baselineHead: base.head) { outcome.problems.append(audit) }

        let events = Set(snapshot.newAuditEvents)
        let changed = reference.after != reference.before
        if snapshot.view == reference.after && changed {
            outcome.ended = .after
            if !reference.auditEvents.isEmpty && events.isDisjoint(with: reference.auditEvents.union(["repair"])) {
                outcome.problems.append("the change is there without its audit record (\(reference.auditEvents.sorted().joined(separator: ", ")))")
            }
        } else if snapshot.view == reference.before {
            // A change the store cannot see (sync changes the module only) counts as finished:
            // the module's agreement is what shows it.
            outcome.ended = changed ? .before : .after
            let claims = reference.auditEvents.subtracting(["repair"]).subtracting(Self.touchRecords)
            if changed, !events.isDisjoint(with: claims) {
                outcome.problems.append("an audit record (\(events.intersection(claims).sorted().joined(separator: ", "))) for a change that is not there")
            }
        } else {
            outcome.ended = .neither
            outcome.problems.append("half-applied: the store is neither as before nor as after ("
                + "before: \(difference(snapshot.view, reference.before)); after: \(difference(snapshot.view, reference.after)))")
        }
        return outcome
    }
}

/// The first row that differs between what was found and what was expected, shortened.
func difference(_ found: [String], _ expected: [String]) -> String {
    if let extra = found.first(where: { !expected.contains($0) }) { return "found " + extra.prefix(120) }
    if let missing = expected.first(where: { !found.contains($0) }) { return "missing " + missing.prefix(120) }
    return "the same rows in another order"
}
