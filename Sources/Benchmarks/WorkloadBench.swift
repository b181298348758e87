import Administration
import FingerprintModule
import FingerprintProtocol
import ModuleSimulator
import Posix

/// One workload on one library: a warm-up history of its touches goes into the audit log, the
/// service's own search order (`Administrator.searchOrder`, regulars first) reads it, the
/// layout mover brings the hot set to the front on the simulated module, then each measured
/// touch is captured and extracted once and searched twice on the same feature buffer — with
/// the plan in use, then with one Search over the whole occupied range. Both identify times
/// share the capture and extract; only the search differs, as it would between two services.
public struct WorkloadBench {
    public struct Result {
        public var workload: Workload
        public var templates: Int
        public var searchModel: SearchModel
        /// Capture + extract + the plan's searches, per touch (ns).
        public var inUse: [Int64] = []
        /// Capture + extract + one whole-range Search, per touch (ns).
        public var whole: [Int64] = []
        /// The whole-range identify as it would have been on the library before the layout: the
        /// measured one corrected by the timing model's difference in templates compared (they
        /// differ only under first-match, where a finger's slot decides its search time).
        public var wholeBeforeLayout: [Int64] = []
        /// Why touches did not end as they should (cause → count), in either search.
        public var misses: [String: Int] = [:]
        public var touches = 0
        public var order: SearchOrder?
        public var layout: LayoutReport?
        public var layoutMovesPlanned = 0
        /// Every slot of the module is taken: nothing can move.
        public var libraryFull = false

        /// Mean identify ÷ whole-range mean on the shuffled library (modelled, see `wholeBeforeLayout`).
        public var meanRatioToShuffledWholeRange: Double? {
            guard let inUse = Distribution(inUse), let before = Distribution(wholeBeforeLayout), before.mean > 0 else { return nil }
            return inUse.mean / before.mean
        }

        public var meanRatioToWholeRange: Double? {
            guard let inUse = Distribution(inUse), let whole = Distribution(whole), whole.mean > 0 else { return nil }
            return inUse.mean / whole.mean
        }
    }

    public let library: BenchLibrary
    public let searchModel: SearchModel
    /// Finger → slot before the layout moved anything (nil: the library was not moved).
    public var slotsBeforeLayout: [Int: Int]?

    /// The history the planner sees for `workload`: strangers are measured against a household's
    /// layout (what a stranger pays where regulars-first is in use), the others against their own.
    public static func historyWorkload(for workload: Workload) -> Workload { workload == .strangers ? .regulars : workload }

    /// Warm-up history, search order, layout: what the service would have reached by now.
    public mutating func prepare(_ workload: Workload, history: Int, source: inout TouchSource, into result: inout Result) throws {
        try library.recordHistory(source.next(history))
        slotsBeforeLayout = try library.slots()
        let window = SearchOrder.Window(touches: history, days: 3650)
        var order = try library.administrator.searchOrder(configured: .regularsFirst, window: window)
        result.layoutMovesPlanned = order.layoutMoves.count
        if !order.layoutMoves.isEmpty {
            result.layout = try Self.timedLayout(order.layoutMoves, library: library)
            _ = try library.module.readIndexTable()
            order = try library.administrator.searchOrder(configured: .regularsFirst, window: window)
        }
        result.order = order
    }

    public mutating func run(_ workload: Workload, touches: Int, history: Int) throws -> Result {
        var result = Result(workload: workload, templates: library.fingers, searchModel: searchModel)
        result.libraryFull = library.fingers >= (library.module.capacity ?? .max)
        var source = TouchSource(Self.historyWorkload(for: workload), fingers: library.fingers, seed: "bench")
        try prepare(workload, history: history, source: &source, into: &result)
        let plan = result.order?.plan ?? .whole(library.module.indexTable?.occupiedRange ?? 0..<1)
        try measure(touches: (0..<touches).map { _ in workload == .strangers ? nil : source.next() }, plan: plan, into: &result)
        return result
    }

    /// `workload`'s touches on a library another workload already prepared (strangers on the
    /// regulars' layout): its search order as it stands, no new history, no moves.
    public func runOnPrepared(_ workload: Workload, touches: Int, history: Int) throws -> Result {
        var result = Result(workload: workload, templates: library.fingers, searchModel: searchModel)
        let order = try library.administrator.searchOrder(configured: .regularsFirst, window: SearchOrder.Window(touches: history, days: 3650))
        result.order = order
        var source = TouchSource(workload, fingers: library.fingers, seed: "measured")
        try measure(touches: (0..<touches).map { _ in source.next() }, plan: order.plan, into: &result)
        return result
    }

    /// The moves made, timed around the whole `apply` (the mover's own figure read 0 before
    /// search-layout 55669df; this one does not depend on it).
    public static func timedLayout(_ moves: [SlotMove], library: BenchLibrary) throws -> LayoutReport {
        let start = Monotonic.nanoseconds()
        var report = try LayoutMover(administrator: library.administrator).apply(moves, maxFlashWrites: .max)
        report.milliseconds = Double(Monotonic.nanoseconds() - start) / 1e6
        return report
    }

    /// Each touch: the plan in use, then the whole range on the same features.
    public func measure(touches: [Int?], plan: SearchPlan, into result: inout Result) throws {
        let module = library.module
        let slots = try library.slots()
        let wholeRange = try module.readIndexTable().occupiedRange ?? 0..<1
        for (index, touch) in touches.enumerated() {
            result.touches += 1
            library.server.place(touch.map(BenchLibrary.fingerName) ?? BenchLibrary.strangerName(index))
            let expected = touch.flatMap { slots[$0] }
            var timing = IdentifyTiming()
            let outcome = try module.identify(plan: plan, timing: &timing)
            if let cause = Self.miss(outcome, expected: expected, what: "plan in use") { result.misses[cause, default: 0] += 1 }
            guard timing.extractEnd > 0 else { continue }
            let searchStart = Monotonic.nanoseconds()
            let whole = try module.search(buffer: CharBuffer.one, range: wholeRange)
            let searchEnd = Monotonic.nanoseconds()
            let wholeOutcome: IdentifyOutcome = switch whole {
            case let .found(hit): .match(slot: hit.slot, score: hit.score)
            case .notFound: .noMatch
            }
            if let cause = Self.miss(wholeOutcome, expected: expected, what: "whole range") { result.misses[cause, default: 0] += 1 }
            let captureAndExtract = Int64(timing.extractEnd - timing.captureStart)
            result.inUse.append(Int64(timing.searchEnd - timing.captureStart))
            let wholeIdentify = captureAndExtract + Int64(searchEnd - searchStart)
            result.whole.append(wholeIdentify)
            result.wholeBeforeLayout.append(wholeIdentify + modelDifference(touch: touch, now: slots, occupied: wholeRange))
        }
        library.server.lift()
    }

    /// Search time (model) on the layout before the moves minus on the layout now, for `touch`.
    public func modelDifference(touch: Int?, now: [Int: Int], occupied: Range<Int>) -> Int64 {
        guard searchModel == .firstMatch, let touch, let before = slotsBeforeLayout?[touch], let after = now[touch],
              let timing = library.target.limits.timing else { return 0 }
        // Slots 0..<fingers are all occupied before the layout; now the occupied set is the index table's.
        let occupiedNow = library.module.indexTable?.occupied ?? Set(occupied)
        let positionBefore = before + 1
        let positionAfter = occupiedNow.filter { $0 <= after && occupied.contains($0) }.count
        return (timing.searchDuration(templates: positionBefore) - timing.searchDuration(templates: positionAfter)).nanoseconds
    }

    /// Why `outcome` is not what the touch should give, or nil when it is.
    public static func miss(_ outcome: IdentifyOutcome, expected: Int?, what: String) -> String? {
        switch (outcome, expected) {
        case let (.match(slot, _), expected?) where slot == expected: nil
        case (.noMatch, nil): nil
        case let (.match(slot, _), expected?): "\(what): slot \(slot) answered for the finger in slot \(expected)"
        case let (.match(slot, _), nil): "\(what): a stranger matched slot \(slot)"
        case (.noMatch, _?): "\(what): an enrolled finger matched nobody (score under the threshold)"
        case (.noFinger, _): "\(what): no finger seen"
        case let (.poorImage(code), _): "\(what): poor image (\(code))"
        }
    }
}
