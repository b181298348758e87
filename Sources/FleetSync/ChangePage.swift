import HubStore
import JSONValue

/// One page of the hub's change log (`GET /v1/changes`), read strictly: a page that is not what
/// a hub sends is refused whole, never half taken.
public struct ChangePage: Sendable, Equatable {
    /// The hub's newest revision when it answered.
    public var latest: Int64
    public var changes: [HubChange]

    public init(latest: Int64, changes: [HubChange]) {
        self.latest = latest
        self.changes = changes
    }

    public init(json body: [UInt8]) throws(FleetSyncError) {
        guard let json = try? JSONValue(parsing: String(decoding: body, as: UTF8.self)),
              let latest = json["latest"]?.numberValue.flatMap({ Int64(exactly: $0) }), let items = json["changes"]?.arrayValue else {
            throw .unexpectedAnswer("a page of changes is {\"latest\": …, \"changes\": […]}")
        }
        var changes: [HubChange] = []
        var previous: Int64 = 0
        for item in items {
            guard let revision = item["revision"]?.numberValue.flatMap({ Int64(exactly: $0) }), revision > previous, revision <= latest,
                  let kindText = item["kind"]?.stringValue, let key = item["key"]?.stringValue, let state = item["state"] else {
                throw .unexpectedAnswer("a change has a rising revision up to the latest, a kind, a key and a state")
            }
            // A kind this fpmod has never heard of stops the sync as ReplicaApply stops an
            // unsupported one: skipping it would pass it for good.
            guard let kind = HubChange.Kind(rawValue: kindText) else {
                throw .replica(.unsupported(kind: kindText, revision: revision))
            }
            // JSONValue takes a nil literal as its own null: say which nil is meant, a tombstone.
            let tombstone: JSONValue? = Optional.none
            changes.append(HubChange(revision: revision, kind: kind, key: key, state: state == .null ? tombstone : state))
            previous = revision
        }
        self.latest = latest
        self.changes = changes
    }
}
