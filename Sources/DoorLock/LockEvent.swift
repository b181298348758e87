import Foundation

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

    static let numericFields: Set<String> = ["slot", "score", "failures", "seconds", "remaining", "capacity"]

    /// `{"event":"match","user":"alice","slot":3,"score":120,"latencyMs":{…},"time":"…"}`
    public var jsonLine: String {
        var pairs: [(String, String)] = [("event", JSONText.string(name))]
        for key in fields.keys.sorted() {
            let value = fields[key] ?? ""
            if Self.numericFields.contains(key), let number = Double(value) {
                pairs.append((key, JSONText.number(number)))
            } else if value == "true" || value == "false" {
                pairs.append((key, value))
            } else {
                pairs.append((key, JSONText.string(value)))
            }
        }
        if let timing, !timing.millisecondsFromEdge.isEmpty { pairs.append(("latencyMs", timing.json)) }
        pairs.append(("time", JSONText.string(JSONText.iso8601(time))))
        return JSONText.object(pairs)
    }
}
