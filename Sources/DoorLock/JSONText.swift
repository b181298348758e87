import Foundation
import JSONValue

/// Small JSON writing helpers for event and reply lines (stable key order, no Foundation encoder).
enum JSONText {
    static func string(_ text: String) -> String { JSONValue.quoted(text) }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(format: "%.3f", value)
    }

    /// An object from ordered pairs whose values are already JSON text.
    static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
