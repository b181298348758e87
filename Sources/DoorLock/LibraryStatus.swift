import Administration
import Foundation
import JSONValue

/// What `fpmod status` says about the search order and the library layout.
public struct LibraryStatus: Sendable, Equatable {
    public var configured: SearchOrder.Mode
    public var mode: SearchOrder.Mode
    public var plan: String
    public var hotSetSize: Int
    public var historyTouches: Int
    public var historyStrangers: Int
    public var historySince: Date?
    public var expectedSearchMilliseconds: Double
    public var wholeSearchMilliseconds: Double
    public var layoutMovesPending: Int
    public var flashWritesToday: Int
    public var maxFlashWritesPerDay: Int
    public var reason: String

    init(_ order: SearchOrder, flashWritesToday: Int, maxFlashWritesPerDay: Int) {
        configured = order.configured
        mode = order.mode
        plan = order.plan.description
        hotSetSize = order.hotSet?.slots.count ?? 0
        historyTouches = order.history.touches
        historyStrangers = order.history.strangers
        historySince = order.history.since
        expectedSearchMilliseconds = order.expectedSearchMilliseconds
        wholeSearchMilliseconds = order.wholeSearchMilliseconds
        layoutMovesPending = maxFlashWritesPerDay > 0 ? order.layoutMoves.count : 0
        self.flashWritesToday = flashWritesToday
        self.maxFlashWritesPerDay = maxFlashWritesPerDay
        reason = order.reason
    }

    /// The status reply's `search` object.
    public var jsonValue: JSONValue {
        func ms(_ value: Double) -> JSONValue { .double((value * 10).rounded() / 10) }
        return .object([
            "order": .string(mode.rawValue),
            "configured": .string(configured.rawValue),
            "plan": .string(plan),
            "hotSetSize": JSONValue(hotSetSize),
            "historyTouches": JSONValue(historyTouches),
            "historyStrangers": JSONValue(historyStrangers),
            "historySince": JSONValue(historySince.map { ISO8601DateFormatter().string(from: $0) }),
            "expectedSearchMs": ms(expectedSearchMilliseconds),
            "wholeSearchMs": ms(wholeSearchMilliseconds),
            "layoutMovesPending": JSONValue(layoutMovesPending),
            "flashWritesToday": JSONValue(flashWritesToday),
            "maxFlashWritesPerDay": JSONValue(maxFlashWritesPerDay),
            "reason": .string(reason),
        ])
    }
}
