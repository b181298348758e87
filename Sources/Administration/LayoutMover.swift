import FingerprintModule
import FingerprintProtocol
import Foundation
import TemplateStore

/// What one `LayoutMover.apply` did.
public struct LayoutReport: Sendable, Equatable {
    /// Moves finished (module and store agree on the new slot, the old one deleted).
    public var moves: Int = 0
    /// Flash writes spent: a Store and a DeletChar per move.
    public var flashWrites: Int = 0
    public var milliseconds: Double = 0
    /// Moves not started because they no longer fitted the library (the finger gone, the target
    /// taken meanwhile, a slot in another operation's hands).
    public var skipped: Int = 0
    public var stopped: Stop = .finished

    public enum Stop: String, Sendable, Equatable {
        /// Every move was done or skipped.
        case finished
        /// The flash-write bound would have been passed by the next move.
        case budget
        /// `shouldYield` asked to stop (a touch arrived): the move under way was abandoned
        /// before anything was written, or finished if it already had.
        case yielded
    }

    public init() {}
}

/// Moves templates between slots on the module itself — LoadChar into buffer 1, Store into the
/// new slot, DeletChar the old one: no template crosses the wire — with the same crash safety as
/// enroll. Per move: a move intent in the store → LoadChar → Store (confirmed) → intent marked
/// module-written → the store's mapping moves to the new slot and the intent becomes
/// store-committed (one transaction, with the audit row and the flash-write count) → DeletChar
/// of the old slot → intent removed. `reconcile` settles an interruption at any point (see
/// `settleMove`): before the commit the store names the old slot and the copy is deleted; after
/// it the store names the new slot and the old copy is deleted. A slot the store gives someone
/// is never a target, so no slot ever matches a user the store does not name there.
///
/// Not `Sendable`: it drives the module, on the thread that owns it.
public final class LayoutMover {
    public let administrator: Administrator
    /// Asked before each move and between LoadChar and Store: true stops (the service sets it
    /// when a touch or a command is waiting).
    public var shouldYield: () -> Bool

    public init(module: FingerprintModule, store: TemplateStore, shouldYield: @escaping () -> Bool = { false },
                failpoint: @escaping (String) throws -> Void = { _ in }) {
        administrator = Administrator(module: module, store: store)
        administrator.failpoint = failpoint
        self.shouldYield = shouldYield
    }

    /// Uses an existing administrator (its failpoint hook included).
    public init(administrator: Administrator, shouldYield: @escaping () -> Bool = { false }) {
        self.administrator = administrator
        self.shouldYield = shouldYield
    }

    var module: FingerprintModule { administrator.module }
    var store: TemplateStore { administrator.store }

    /// Two flash writes per move: the Store into the new slot, the DeletChar of the old one
    /// (a swap: two Stores; see `SlotMove.flashWrites`).
    public static let flashWritesPerMove = 2

    /// Runs `moves` in order, up to `maxFlashWrites` flash writes. Moves that no longer fit are
    /// skipped; a module or store failure stops with the error (and the intent left for
    /// `reconcile` when the module stopped answering mid-move).
    @discardableResult
    public func apply(_ moves: [SlotMove], maxFlashWrites: Int) throws -> LayoutReport {
        let started = ContinuousClock.now
        var report = LayoutReport()
        guard !moves.isEmpty else { return report }
        var moduleSlots = try module.readIndexTable().occupied
        let capacity = try administrator.capacity
        for move in moves {
            if report.flashWrites + move.flashWrites > maxFlashWrites {
                report.stopped = .budget
                break
            }
            if shouldYield() {
                report.stopped = .yielded
                break
            }
            guard try fits(move, moduleSlots: moduleSlots, capacity: capacity),
                  let finger = try store.finger(atSlot: move.from) else {
                report.skipped += 1
                continue
            }
            let outcome: Outcome
            if move.isSwap {
                guard let other = try store.finger(atSlot: move.to) else {
                    report.skipped += 1
                    continue
                }
                outcome = try performSwap(finger, other)
            } else {
                outcome = try perform(move, finger: finger)
            }
            switch outcome {
            case .moved:
                report.moves += 1
                report.flashWrites += move.flashWrites
                if !move.isSwap {
                    moduleSlots.remove(move.from)
                    moduleSlots.insert(move.to)
                }
            case .abandoned:
                report.stopped = .yielded
            }
            if report.stopped == .yielded { break }
        }
        try administrator.recordSlotTable()
        report.milliseconds = Self.milliseconds(since: started)
        return report
    }

    /// The move still makes sense: the source holds a finger in both, the target is empty in
    /// both (a swap: holds a finger in both), and no other operation under way holds either slot.
    private func fits(_ move: SlotMove, moduleSlots: Set<Int>, capacity: Int) throws -> Bool {
        guard move.from != move.to, (0..<capacity).contains(move.to), moduleSlots.contains(move.from),
              moduleSlots.contains(move.to) == move.isSwap else { return false }
        let held = try store.slotsHeldByIntents()
        guard !held.contains(move.from), !held.contains(move.to) else { return false }
        return try (store.finger(atSlot: move.to) != nil) == move.isSwap
    }

    enum Outcome { case moved, abandoned }

    private func perform(_ move: SlotMove, finger: Finger) throws -> Outcome {
        let (from, to) = (move.from, move.to)
        let intent = try store.beginIntent(.move, user: finger.user, label: finger.label, slot: from, targetSlot: to)
        let failpoint = administrator.failpoint
        try failpoint("move.before-load")
        do {
            try administrator.moduleStep("move of slot \(from) to \(to)") { try module.loadTemplate(buffer: CharBuffer.one, slot: from) }
        } catch let error as ModuleError {
            // Nothing was written: the move is simply not made.
            try store.completeIntent(intent)
            throw error
        }
        if shouldYield() {
            try store.completeIntent(intent)
            return .abandoned
        }
        try failpoint("move.before-store")
        do {
            try administrator.moduleStep("move of slot \(from) to \(to)") { try module.store(buffer: CharBuffer.one, slot: to) }
        } catch let error as ModuleError {
            // The module refused the write; whether `to` holds anything is settled as a crash would be.
            try administrator.perform(.rollBackMove(intentID: intent, from: from, to: to,
                                                    deleteTarget: try module.readIndexTable().contains(to)))
            throw error
        }
        try failpoint("move.after-store")
        try store.markIntentModuleWritten(intent)
        try failpoint("move.before-commit")
        try store.transaction {
            try store.moveFinger(from: from, to: to)
            try store.setIntentState(.storeCommitted, intent)
            try FlashWriteLedger(store: store).record(Self.flashWritesPerMove)
            try store.appendAudit(event: "layout-move", user: finger.user, slot: to,
                                  detail: LayoutAudit.detail(label: finger.label, from: from, to: to))
        }
        try failpoint("move.after-commit")
        try administrator.moduleStep("move of slot \(from) to \(to)") { try module.deleteTemplates(start: from, count: 1) }
        try failpoint("move.after-delete")
        try store.completeIntent(intent)
        return .moved
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}

/// The audit detail of a move, and reading it back: the hot-set history follows a finger
/// across its moves by these rows (and by `repair` rows of finished moves).
public enum LayoutAudit {
    public static func detail(label: String, from: Int, to: Int) -> String {
        "moved \(label) from slot \(from) to slot \(to)"
    }

    /// (from, to) of a detail that names a move ("… from slot A to slot B…"), else nil.
    public static func move(in detail: String) -> SlotMove? {
        slots(in: detail, after: "from slot ", between: " to slot ").map { SlotMove(from: $0.0, to: $0.1) }
    }

    /// The two numbers of "…`lead`A`middle`B…" in a detail, else nil.
    static func slots(in detail: String, after lead: String, between middle: String) -> (Int, Int)? {
        guard let start = detail.range(of: lead) else { return nil }
        let rest = detail[start.upperBound...]
        let firstDigits = rest.prefix { $0.isNumber }
        guard let first = Int(firstDigits), rest.dropFirst(firstDigits.count).hasPrefix(middle) else { return nil }
        let secondDigits = rest.dropFirst(firstDigits.count + middle.count).prefix { $0.isNumber }
        guard let second = Int(secondDigits) else { return nil }
        return (first, second)
    }
}
