import Foundation
import JSONValue

/// One event of the service, as published on the events socket (one JSON line each) and given
/// to `LockService`'s observer. Names follow fprintd's vocabulary: `match`, `no-match`,
/// `retry-scan`, `misplaced`, `lockout`, `disconnected`, `reconnected`, `tamper`, `unlocked`,
/// `locked`, `door-held-open`, `exit-request`, `pin-ok`, `pin-wrong` …
public struct LockEvent: Sendable, Equatable {
    public var name: String
    public var fields: [String: String]
    /// Stage latencies of the scan behind this event, when there was one.
    public var timing: ScanTiming?
    public var time: Date
    /// False for the silent duress event: only the observer, the hook and the audit log see it.
    public var isPublic: Bool

    public init(name: String, fields: [String: String] = [:], timing: ScanTiming? = nil, time: Date = Date(),
                isPublic: Bool = true) {
        self.name = name
        self.fields = fields
        self.timing = timing
        self.time = time
        self.isPublic = isPublic
    }

    /// `policy-clock`, `wall-offset`: both clocks, on events written while the wall clock
    /// disagrees with the policy's monotonic clock; `wall`, `monotonic`: on `wall-clock-stepped`.
    static let numericFields: Set<String> = ["slot", "score", "failures", "seconds", "remaining", "capacity", "decisionMs",
                                             "policy-clock", "wall-offset", "wall", "monotonic"]
    /// Fields that are booleans by meaning. Only these: a user named "true" stays a string.
    static let booleanFields: Set<String> = ["enabled"]

    /// `{"event":"match","user":"alice","slot":3,"score":120,"latencyMs":{…},"time":"…"}` (keys sorted).
    public var jsonLine: String { json.encoded }

    public var json: JSONValue {
        var object: [String: JSONValue] = [:]
        for (key, value) in fields {
            if Self.numericFields.contains(key), let number = Double(value) {
                object[key] = .double(number)
            } else if Self.booleanFields.contains(key), let flag = Bool(value) {
                object[key] = .bool(flag)
            } else {
                object[key] = .string(value)
            }
        }
        object["event"] = .string(name)
        if let timing, !timing.millisecondsFromEdge.isEmpty { object["latencyMs"] = timing.jsonValue }
        object["time"] = .string(Self.iso8601(time))
        return .object(object)
    }

    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
