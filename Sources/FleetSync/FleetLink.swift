import DoorFleet
import Foundation
import HubReplica
import JSONValue
import TemplateStore

/// What one sync with the hub did: the pages applied, as one tally, and the events uploaded.
public struct FleetSyncReport: Sendable, Equatable {
    public var applied: ReplicaResult
    /// Audit records the hub took now (new or already kept), and the door's own sequence
    /// numbers the hub says it still misses (records from before the chain began).
    public var eventsSent = 0
    public var eventsMissing: [ClosedRange<Int64>] = []

    public init(at revision: Int64) {
        applied = ReplicaResult(from: revision, to: revision)
    }
}

/// A joined door's link to its hub: the changes above its store's revision pulled and applied
/// page by page (each page whole or not at all, `ReplicaApply`), and its audit records uploaded
/// after the last the hub confirmed. Every request goes over mutual TLS with the door's own
/// certificate, to a hub the pinned authority vouches for.
public final class FleetLink {
    public let membership: FleetMembership
    private let client: HubClient
    private let store: TemplateStore

    /// The hub's answers' bytes so far.
    public var bytesReceived: Int { client.bytesReceived }

    /// Changes a page asks for, and events an upload carries (the hub's own limits).
    static let pageSize = 5_000
    static let uploadSize = 1_000

    public init(files: FleetFiles, store: TemplateStore, shouldStop: (@Sendable () -> Bool)? = nil) throws(FleetSyncError) {
        let membership: FleetMembership?
        do { membership = try files.membership() } catch { throw .notJoined(error.description) }
        guard let membership else {
            throw .notJoined("This door joined no fleet (no \(files.membershipPath)); join one with fpmod join URL CODE.")
        }
        self.membership = membership
        self.store = store
        do {
            client = try HubClient(address: membership.hub, trust: .authority(path: files.authorityPath), identity: files.identity)
        } catch {
            throw .unreachable(error.description)
        }
        client.shouldStop = shouldStop
    }

    /// Pulls and applies until the store is at the hub's latest revision. `wait` (0–30 s): when
    /// nothing is new, the hub holds the first request until something is (a long poll).
    public func pull(wait: Int = 0) throws(FleetSyncError) -> FleetSyncReport {
        let start: Int64
        do { start = try store.hubRevision() } catch { throw .store("\(error)") }
        var report = FleetSyncReport(at: start)
        var waitNow = max(0, min(wait, 30))
        while true {
            let answer = try send("GET", "/v1/changes?since=\(report.applied.to)&limit=\(Self.pageSize)&wait=\(waitNow)", timeout: .seconds(waitNow + 30))
            let page = try ChangePage(json: answer)
            waitNow = 0
            guard !page.changes.isEmpty else { return report }
            let applied: ReplicaResult
            do { applied = try ReplicaApply.apply(page.changes, to: store) } catch { throw .replica(error) }
            report.applied.add(applied)
            if applied.to >= page.latest { return report }
        }
    }

    /// Uploads the audit records the hub has not confirmed, a thousand at a time.
    public func uploadEvents(into report: inout FleetSyncReport) throws(FleetSyncError) {
        while true {
            let records: [ChainedAuditRecord]
            do { records = try store.chainedAuditRecords(after: try store.hubEventsSent(), limit: Self.uploadSize) } catch {
                throw .store("\(error)")
            }
            guard let last = records.last else { return }
            let events: [JSONValue] = records.map { record in
                .object(["sequence": .int(record.id), "time": .double(record.time), "event": .string(record.event),
                         "user": JSONValue(record.user), "detail": JSONValue(record.detail),
                         "previousHash": .string(record.previousHashHex), "hash": .string(record.hashHex)])
            }
            let answer = try send("POST", "/v1/events", body: Array(JSONValue.object(["events": .array(events)]).encoded.utf8))
            guard let json = try? JSONValue(parsing: String(decoding: answer, as: UTF8.self)),
                  let inserted = json["inserted"]?.intValue, let duplicates = json["duplicates"]?.intValue,
                  let missing = json["missing"]?.arrayValue else {
                throw .unexpectedAnswer("an upload's answer counts what was inserted and repeated, and names what is missing")
            }
            report.eventsSent += inserted + duplicates
            report.eventsMissing = missing.compactMap { (range: JSONValue) -> ClosedRange<Int64>? in
                guard let bounds = range.arrayValue, bounds.count == 2, let low = bounds[0].intValue, let high = bounds[1].intValue,
                      low <= high else { return nil }
                return Int64(low)...Int64(high)
            }
            do { try store.setHubEventsSent(last.id) } catch { throw .store("\(error)") }
            if records.count < Self.uploadSize { return }
        }
    }

    /// Pull, then upload: one whole sync, as `fpmod fleet sync` runs it.
    public func sync(wait: Int = 0) throws(FleetSyncError) -> FleetSyncReport {
        var report = try pull(wait: wait)
        try uploadEvents(into: &report)
        return report
    }

    /// The answer's body for a 200; anything else is the hub's refusal in its words.
    private func send(_ method: String, _ path: String, body: [UInt8]? = nil,
                      timeout: Duration = .seconds(30)) throws(FleetSyncError) -> [UInt8] {
        let answer: HubResponse
        do { answer = try client.send(method, path, json: body, timeout: timeout) } catch {
            if error == .stopped { throw .stopped }
            throw .unreachable(error.description)
        }
        guard answer.status == 200 else { throw .refused(status: answer.status, message: answer.refusalMessage) }
        return answer.body
    }
}
