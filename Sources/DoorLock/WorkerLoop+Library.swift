import Administration
import FingerprintModule
import Foundation
import TemplateStore

/// A module's regulars first and the layout that follows use, on the worker thread between
/// touches (an image sensor's host library is searched whole, in memory, and has neither): the
/// search order is planned from the audit log when the module opens, after admin commands and
/// moves, and every `replanAfterScans` scans; a template moves only after a quiet spell, one per
/// idle step, and a job that arrives meanwhile stops the move before it writes anything.
extension WorkerLoop {
    /// The plan a scan uses: the planned order's, else one Search over the occupied range.
    func plan(for module: FingerprintModule) -> SearchPlan {
        if let searchOrder { return searchOrder.plan }
        if let range = module.indexTable?.occupiedRange { return .whole(range) }
        return module.capacity.map { SearchPlan.whole(0..<$0) } ?? SearchPlan(ranges: [])
    }

    var needsPlan: Bool {
        guard let plannedAt else { return true }
        return scansSincePlan >= worker.config.replanAfterScans || ContinuousClock.now - plannedAt > Self.replanInterval
    }

    /// Plans are renewed at least this often, so a new day's flash budget is seen.
    static let replanInterval: Duration = .seconds(600)

    var layoutPending: Bool {
        guard administrator != nil, let searchOrder, !searchOrder.layoutMoves.isEmpty, worker.config.library.searchOrder == .regularsFirst else { return false }
        return flashWritesLeft >= LayoutMover.flashWritesPerMove
    }

    /// How long the loop may wait for a job: shorter while a plan or a move is due.
    func nextIdleWait() -> Duration {
        let idle = worker.config.pollInterval ?? worker.config.healthCheckInterval
        // An image sensor's poll waits on its interrupt by itself (`poll`); waiting for a lift,
        // it captures, so then the interval paces it.
        guard administrator != nil else { return worker.config.pollInterval != nil && !awaitingLift ? .zero : idle }
        if needsPlan { return min(idle, .milliseconds(200)) }
        guard layoutPending else { return idle }
        let quietLeft = lastActivity + worker.config.layoutQuietPeriod - .now
        return min(idle, max(quietLeft, .milliseconds(20)))
    }

    /// One step of library upkeep: a new plan, or one move.
    mutating func maintainLibrary(_ administrator: Administrator) {
        guard !worker.hasPendingJobs else { return }
        settleFleetTemplates(administrator)
        if needsPlan { return replan(administrator) }
        guard layoutPending, ContinuousClock.now - lastActivity >= worker.config.layoutQuietPeriod,
              let move = searchOrder?.layoutMoves.first else { return }
        let mover = LayoutMover(administrator: administrator,
                                shouldYield: { [worker] in worker.hasPendingJobs })
        let budget = flashWritesLeft
        var done: (flashWrites: Int, changedLayout: Bool)?
        if upkeepFailure({
            let report = try mover.apply([move], maxFlashWrites: budget)
            done = (report.flashWrites, report.moves > 0 || report.skipped > 0)
        }) != nil {
            // A refused move (flash error, store problem): no more moves until the next plan.
            searchOrder?.layoutMoves = []
        }
        guard let done else { return }
        flashWritesLeft -= done.flashWrites
        if done.changedLayout {
            // The old plan's ranges may not cover the new slot: whole range until the next plan.
            searchOrder = nil
            plannedAt = nil
        }
    }

    /// An upkeep step's module work: a lost module or an interrupted operation ends the
    /// connection (the intent stays for the reconcile of the next open); any other failure is
    /// returned for the step to settle.
    private mutating func upkeepFailure(_ work: () throws -> Void) -> (any Error)? {
        do {
            try work()
        } catch let error as ModuleError where error.isTransportFailure {
            lost(error)
        } catch AdministrationError.interrupted(let operation, let underlying) {
            lost(WorkerFailure("\(operation) interrupted: \(underlying)"))
        } catch {
            return error
        }
        return nil
    }

    /// The fleet's hub changes a module door's flash through intents in the batch that changed
    /// the store (`ReplicaApply`): a removed user's templates each leave with a delete intent, a
    /// finger from the hub arrives with a restore intent for its slot. The reconcile an open would
    /// make finishes them now, between touches, so the flash follows the hub within an idle step.
    private mutating func settleFleetTemplates(_ administrator: Administrator) {
        guard !fleetWorkRefused else { return }
        let store = administrator.store
        guard let leaving = try? store.slotsLeavingModule(), let arriving = try? store.slotsArrivingFromHub(),
              !leaving.isEmpty || !arriving.isEmpty else { return }
        let before = worker.lastAuditID(store)
        if let error = upkeepFailure({ _ = try administrator.reconcile() }) {
            fleetWorkRefused = true
            worker.report(.repaired("writing the fleet hub's changes to the module failed (tried again when the module next opens): \(error)"))
        }
        searchOrder = nil
        plannedAt = nil
        worker.reportRepairs(store, since: before)
    }

    private mutating func replan(_ administrator: Administrator) {
        let library = worker.config.library
        let module = administrator.module
        let store = administrator.store
        var order: SearchOrder
        do {
            let planned = try administrator.searchOrder(configured: library.searchOrder, cost: library.searchCost)
            flashWritesLeft = try FlashWriteLedger(store: store).remaining(perDay: library.maxFlashWritesPerDay)
            order = planned
        } catch let error as ModuleError where error.isTransportFailure {
            return lost(error)
        } catch {
            // The history is unreadable: one Search over everything, the order that needs none.
            order = SearchOrder.choose(configured: .whole, history: MatchHistory(),
                                              occupied: module.indexTable?.occupied.sorted() ?? [], capacity: module.capacity ?? 0,
                                              planner: HotSetPlanner(cost: library.searchCost ?? .datasheet(for: module.family)))
            order.reason = "the audit history could not be read (\(error)); searching the whole library"
            flashWritesLeft = 0
        }
        searchOrder = order
        plannedAt = .now
        scansSincePlan = 0
        worker.report(.searchOrder(LibraryStatus(order, flashWritesToday: library.maxFlashWritesPerDay - flashWritesLeft,
                                                 maxFlashWritesPerDay: library.maxFlashWritesPerDay)))
    }
}
