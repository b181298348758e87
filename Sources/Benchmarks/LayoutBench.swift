import Administration
import JSONValue
import FingerprintModule
import ModuleSimulator
import Posix

/// `--layout`: what the layout costs. A shuffled library and a household of regulars: the moves
/// that bring the hot set to the front, their time and flash writes. Then a new household (a new
/// tenant): touches are added to the history in steps until the planner's hot set holds the new
/// regulars, and the moves that follow them are made and counted. The history is written to
/// the audit log directly (no captures): only the moves run on the simulated module.
public struct LayoutBench {
    public let library: BenchLibrary
    /// The service's default window; the new household must outweigh the old one in it.
    public let window = SearchOrder.Window()
    public static let step = 25
    /// The hot set follows when it holds this share of the new regulars, and at most
    /// `1 − share` of it is the old household.
    public static let followShare = 0.9

    public struct Phase {
        public var name: String
        public var touches: Int
        public var hotSet: Int
        public var newRegularsInHotSet: Int
        public var movesPlanned: Int
        public var report: LayoutReport
    }

    public func run() throws -> [Phase] {
        var phases: [Phase] = []
        var first = TouchSource(.regulars, fingers: library.fingers, seed: "household-1")
        try library.recordHistory(first.next(window.touches))
        phases.append(try settle("first household (shuffled library)", touches: window.touches, regulars: first.favourites))

        var second = first.withNewFavourites(seed: "household-2")
        var touches = 0
        var followed = false
        while touches < 4 * window.touches {
            try library.recordHistory(second.next(Self.step))
            touches += Self.step
            if try follows(second.favourites, old: first.favourites) {
                followed = true
                break
            }
        }
        phases.append(try settle(followed ? "new household: hot set followed" : "new household: hot set did NOT follow",
                                 touches: touches, regulars: second.favourites))
        return phases
    }

    private func hotFingers() throws -> [Int] {
        let order = try library.administrator.searchOrder(configured: .regularsFirst, window: window)
        let slots = try library.slots()
        var fingerAt: [Int: Int] = [:]
        for (finger, slot) in slots { fingerAt[slot] = finger }
        return (order.hotSet?.slots ?? []).compactMap { fingerAt[$0] }
    }

    private func follows(_ regulars: [Int], old: [Int]) throws -> Bool {
        let hot = Set(try hotFingers())
        guard !hot.isEmpty else { return false }
        let newShare = Double(hot.intersection(regulars).count) / Double(regulars.count)
        let oldShare = Double(hot.intersection(Set(old).subtracting(regulars)).count) / Double(hot.count)
        return newShare >= Self.followShare && oldShare <= 1 - Self.followShare
    }

    /// The order now, its moves made.
    private func settle(_ name: String, touches: Int, regulars: [Int]) throws -> Phase {
        let order = try library.administrator.searchOrder(configured: .regularsFirst, window: window)
        let hot = Set(try hotFingers())
        let report = try WorkloadBench.timedLayout(order.layoutMoves, library: library)
        _ = try library.module.readIndexTable()
        return Phase(name: name, touches: touches, hotSet: hot.count, newRegularsInHotSet: hot.intersection(regulars).count,
                     movesPlanned: order.layoutMoves.count, report: report)
    }

    public static func table(_ phases: [Phase]) -> TextTable {
        var table = TextTable(["phase", "touches", "hot set", "regulars in it", "moves planned", "moves", "flash writes", "seconds", "stopped"])
        for phase in phases {
            table.add([phase.name, "\(phase.touches)", "\(phase.hotSet)", "\(phase.newRegularsInHotSet)", "\(phase.movesPlanned)",
                       "\(phase.report.moves)", "\(phase.report.flashWrites)", DurationText.fixed(phase.report.milliseconds / 1000, digits: 2),
                       phase.report.stopped.rawValue])
        }
        return table
    }

    /// What the table does not say: a full library cannot move, the flash writes per template.
    public static func notes(_ phases: [Phase], library: BenchLibrary) -> [String] {
        var notes: [String] = []
        if let capacity = library.module.capacity, library.fingers >= capacity, phases.allSatisfy({ $0.movesPlanned == 0 }) {
            notes.append("The library is full (\(library.fingers) of \(capacity) slots): a move needs a free slot, so nothing can move "
                + "and regulars-first stays off. One free slot is enough (two moves per regular outside the front).")
        }
        for phase in phases where phase.report.moves > 0 {
            notes.append("\(phase.name): \(DurationText.fixed(phase.report.milliseconds / Double(phase.report.moves), digits: 1)) ms and "
                + "\(LayoutMover.flashWritesPerMove) flash writes per move.")
        }
        return notes
    }

    public static func json(_ phases: [Phase], templates: Int) -> JSONValue {
        .object(["templates": .int(Int64(templates)), "phases": .array(phases.map { phase in
            .object(["phase": .string(phase.name), "touches": .int(Int64(phase.touches)), "hot_set": .int(Int64(phase.hotSet)),
                     "regulars_in_hot_set": .int(Int64(phase.newRegularsInHotSet)),
                     "moves_planned": .int(Int64(phase.movesPlanned)), "moves": .int(Int64(phase.report.moves)),
                     "flash_writes": .int(Int64(phase.report.flashWrites)), "skipped": .int(Int64(phase.report.skipped)),
                     "seconds": .double((phase.report.milliseconds / 10).rounded() / 100), "stopped": .string(phase.report.stopped.rawValue)])
        })])
    }
}
