import FleetSync
import HubReplica
import HubStore
import JSONValue
import Testing

/// A page of the hub's change log, read strictly: taken whole, or refused whole.
@Suite struct ChangePageTests {
    static func page(_ text: String) throws(FleetSyncError) -> ChangePage { try ChangePage(json: Array(text.utf8)) }

    @Test func aPageIsReadWithItsTombstones() throws {
        let page = try Self.page(#"""
            {"latest": 9, "changes": [
              {"revision": 3, "kind": "user", "key": "alice", "state": {"name": "alice"}},
              {"revision": 7, "kind": "user", "key": "bob", "state": null},
              {"revision": 8, "kind": "door-mode", "key": "garage", "state": {"mode": "lockdown"}}]}
            """#)
        #expect(page.latest == 9)
        #expect(page.changes.map(\.revision) == [3, 7, 8])
        #expect(page.changes[0].state?["name"]?.stringValue == "alice")
        // A tombstone is no state at all, not a JSON null taken for one.
        #expect(page.changes[1].state == nil && page.changes[1].isTombstone)
        #expect(page.changes[2].kind == .doorMode)
        #expect(try Self.page(#"{"latest": 0, "changes": []}"#).changes.isEmpty)
    }

    @Test(arguments: [
        #"{"changes": []}"#,
        #"{"latest": 5, "changes": [{"revision": 3, "kind": "user", "key": "a", "state": null}, {"revision": 3, "kind": "user", "key": "b", "state": null}]}"#,
        #"{"latest": 2, "changes": [{"revision": 3, "kind": "user", "key": "a", "state": null}]}"#,
        #"{"latest": 5, "changes": [{"revision": 3, "kind": "user", "key": "a"}]}"#,
        #"{"latest": 5, "changes": [{"revision": 3.5, "kind": "user", "key": "a", "state": null}]}"#,
        #"<html>not a hub</html>"#,
    ])
    func aPageThatIsNotAHubsIsRefusedWhole(text: String) {
        #expect(throws: FleetSyncError.self) { try Self.page(text) }
    }

    @Test func aKindThisDoorHasNeverHeardOfStopsTheSyncNamingIt() {
        #expect(throws: FleetSyncError.replica(.unsupported(kind: "lift", revision: 4))) {
            try Self.page(#"{"latest": 4, "changes": [{"revision": 4, "kind": "lift", "key": "x", "state": {}}]}"#)
        }
    }
}
