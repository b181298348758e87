import Foundation
import TemplateStore

/// Flash writes spent on layout moves per UTC day, kept in the store's key-value table so the
/// daily bound holds across restarts (and a crash cannot forget a write: the count changes in
/// the same transaction as the move's commit).
public struct FlashWriteLedger {
    public static let key = "layout.flash-writes"
    let store: TemplateStore

    public init(store: TemplateStore) {
        self.store = store
    }

    /// Writes recorded on the UTC day of `now`.
    public func used(now: Date = Date()) throws -> Int {
        guard let text = try store.value(forKey: Self.key) else { return 0 }
        let parts = text.split(separator: " ")
        guard parts.count == 2, parts[0] == Self.day(now), let count = Int(parts[1]) else { return 0 }
        return count
    }

    /// What is left of `perDay` today.
    public func remaining(perDay: Int, now: Date = Date()) throws -> Int {
        max(0, perDay - (try used(now: now)))
    }

    /// Adds `writes` to today's count (call inside the move's transaction).
    public func record(_ writes: Int, now: Date = Date()) throws {
        try store.setValue("\(Self.day(now)) \(try used(now: now) + writes)", forKey: Self.key)
    }

    /// `2026-12-01` (UTC).
    static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
