import AccessPolicy
import Foundation
import JSONValue
import TemplateStore

/// The numbers behind the console's three plots, read from the audit log: the service writes a
/// row per decision with its stage times (`latency_json`, milliseconds from the touch edge), a
/// `granted` row per grant and a row named after each refusal.
struct PlotData {
    /// The refusals' audit names (`DenyReason.eventName`): what counts as a denial per hour.
    static let denialEvents: Set<String> = [
        "no-match", "lockout", "lockout-permanent", "pin-required", "pin-wrong", "admin-required", "pin-lockout",
        "pin-lockout-permanent", "fingerprint-disabled", "pin-only", "verification-required", "match-required",
        "module-unavailable", "remote-refused", "card-unknown", "card-disabled", "card-lockout", "card-lockout-permanent",
        "not-accepted", "factor-refused", "not-now", "passback",
    ]
    static let grantEvent = "granted"

    let store: TemplateStore

    /// Touch-to-decision milliseconds of the newest `limit` touches the service timed.
    func decisionLatencies(limit: Int = 2000) throws -> [Double] {
        try timedRows(limit: limit).compactMap { Self.stages($0.latencyJSON)["decision"] }
    }

    /// (library size, identify milliseconds) per timed touch. The size at each touch is the size
    /// now, walked back through the `enroll` and `delete` rows after it (a user deleted whole
    /// counts as one finger: the row does not say how many).
    func identifyTimes(limit: Int = 2000) throws -> [(x: Double, y: Double)] {
        let rows = try store.auditEntries(limit: 20_000)
        var size = try store.allFingers().count
        var points: [(x: Double, y: Double)] = []
        for row in rows.reversed() {
            switch row.event {
            case "enroll": size = max(0, size - 1)
            case "delete", "delete-user": size += 1
            default:
                let stages = Self.stages(row.latencyJSON)
                if let search = Self.identifyMilliseconds(stages), points.count < limit { points.append((Double(size), search)) }
            }
        }
        return points.reversed()
    }

    /// Grants and denials in each of the last `hours` hours on the door's clock, oldest first.
    func hourly(hours: Int = 24, zone: TimeZoneRules, now: Date = Date()) throws -> [(label: String, grants: Int, denials: Int)] {
        let end = (Int64(now.timeIntervalSince1970) / 3600 + 1) * 3600
        let start = end - Int64(hours) * 3600
        let rows = try store.auditEntries(from: Date(timeIntervalSince1970: TimeInterval(start)), to: Date(timeIntervalSince1970: TimeInterval(end)),
                                          events: Self.denialEvents.union([Self.grantEvent]), limit: 200_000)
        var buckets = Array(repeating: (grants: 0, denials: 0), count: hours)
        for row in rows {
            let index = Int((Int64(row.time.timeIntervalSince1970) - start) / 3600)
            guard buckets.indices.contains(index) else { continue }
            if row.event == Self.grantEvent { buckets[index].grants += 1 } else { buckets[index].denials += 1 }
        }
        return buckets.enumerated().map { index, counts in
            let local = zone.localTime(atUTC: start + Int64(index) * 3600)
            let label = String(format: "%02d:00", local.minuteOfDay / 60)
            return (label, counts.grants, counts.denials)
        }
    }

    private func timedRows(limit: Int) throws -> [AuditEntry] {
        try store.auditEntries(limit: limit * 4).filter { $0.latencyJSON != nil }.suffix(limit)
    }

    static func stages(_ json: String?) -> [String: Double] {
        guard let json, case .object(let members)? = try? JSONValue(parsing: json) else { return [:] }
        return members.compactMapValues(\.numberValue)
    }

    /// The search stage: the service's stamps (search end after extraction, or capture on a
    /// module that extracts itself), or the administration rows' `search_ms`.
    static func identifyMilliseconds(_ stages: [String: Double]) -> Double? {
        if let search = stages["search_ms"] { return search }
        guard let end = stages["searchEnd"], let start = stages["extractEnd"] ?? stages["captureEnd"], end >= start else { return nil }
        return end - start
    }
}
