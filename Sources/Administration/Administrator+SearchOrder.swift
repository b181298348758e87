import FingerprintModule
import Foundation
import TemplateStore

extension Administrator {
    /// The search order identify should use now: the history from the audit log, the occupied
    /// slots from the module's index table (the cached one when there is one).
    public func searchOrder(configured: SearchOrder.Mode, cost: SearchCost? = nil,
                            window: SearchOrder.Window = SearchOrder.Window(), now: Date = Date()) throws -> SearchOrder {
        let table = try module.indexTable ?? module.readIndexTable()
        let history = try Self.history(of: store, window: window, now: now)
        let planner = HotSetPlanner(cost: cost ?? SearchCost.datasheet(for: module.family, baudRate: module.transport.baudRate))
        return SearchOrder.choose(configured: configured, history: history, occupied: table.occupied.sorted(),
                                  capacity: try capacity, planner: planner)
    }

    /// The identify touches of `window`, counted per current slot.
    public static func history(of store: TemplateStore, window: SearchOrder.Window = SearchOrder.Window(),
                               now: Date = Date()) throws -> MatchHistory {
        let since = now.addingTimeInterval(-Double(max(0, window.days)) * 86_400)
        let rows = try store.touchHistory(touches: window.touches, since: since,
                                          excludedMatches: MatchHistory.notIdentifyTouches,
                                          strangerEvents: MatchHistory.strangerEvents,
                                          otherEvents: MatchHistory.slotChanges.union(MatchHistory.historyEnds))
        return MatchHistory.count(rows, limit: window.touches)
    }
}
