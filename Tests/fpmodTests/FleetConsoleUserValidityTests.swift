import Foundation
import HubStore
import JSONValue
import Testing
import TestSupport

/// A user's validity set in the fleet console on a real `fpmod hub serve` and PostgreSQL, as a
/// browser would (`POST /users/validity`): an admin's change is a revision carrying the whole
/// user, which every door takes; a refused one leaves the hub's revision where it was; a viewer,
/// or a request without the session's CSRF token, changes nothing; each change is audited under
/// the account.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct FleetConsoleUserValidityTests {
    @Test func aUsersValidityIsSetThereAndDoorsFollow() throws {
        let running = try RunningHub()
        let hub = try HubStore(conninfo: running.database)
        try hub.putUser(HubUser(name: "alice", displayName: "Alice L."))
        let (admin, viewer) = try FleetConsoleRulesTests.accounts(running)

        // Refused before anything is written: the hub's revision stays where it was.
        let before = try hub.latestRevision()
        let refused: [JSONValue] = [
            ["validFrom": "2026-12-24"],
            ["user": "", "uses": 1],
            ["user": "al ice", "uses": 1],
            ["user": "alice", "validFrom": "tomorrow"],
            ["user": "alice", "validUntil": "2026-02-30"],
            ["user": "alice", "validFrom": "2026-12-27", "validUntil": "2026-12-24"],
            ["user": "alice", "uses": -1],
            ["user": "alice", "uses": 1.5],
            ["user": "alice", "uses": "3"],
            ["user": "alice", "uses": 1_000_001],
        ]
        for body in refused {
            let answer = try FleetConsoleRulesTests.post(running, "/users/validity", body, as: admin)
            #expect(answer.status == 400 && answer.json?["error"]?.stringValue?.isEmpty == false, "\(body.encoded): \(String(describing: answer.json))")
        }
        let crossed = try FleetConsoleRulesTests.post(running, "/users/validity", ["user": "alice", "validFrom": "2026-12-27", "validUntil": "2026-12-24"],
                                                      as: admin)
        #expect(crossed.json?["error"]?.stringValue?.contains("the user could never come in") == true, "\(String(describing: crossed.json))")
        let missing = try FleetConsoleRulesTests.post(running, "/users/validity", ["user": "nobody", "uses": 1], as: admin)
        #expect(missing.status == 404, "\(String(describing: missing.json))")
        #expect(try FleetConsoleRulesTests.post(running, "/users/validity", ["user": "alice", "uses": 1], as: viewer).status == 403)
        let forged = try FleetConsoleTests.call(running, "POST", "/fleet/api/users/validity", body: ["user": "alice", "uses": 1], jar: admin.jar)
        #expect(forged.status == 403, "no CSRF token: \(String(describing: forged.json))")
        #expect(try hub.latestRevision() == before)

        let set = try FleetConsoleRulesTests.post(running, "/users/validity",
                                                  ["user": "alice", "validFrom": "2026-12-24", "validUntil": "2026-12-26", "uses": 3], as: admin)
        #expect(set.status == 200, "\(String(describing: set.json))")
        let change = try #require(try hub.changes(since: before).first)
        #expect(set.json?["revision"]?.intValue == Int(change.revision) && change.kind == .user && change.key == "alice")
        // 2026-12-24 00:00 UTC to the end of 2026-12-26 UTC, three grants at each door; the rest of the user as it was.
        #expect(change.state?["validFrom"]?.intValue == 1_798_070_400 && change.state?["validUntil"]?.intValue == 1_798_329_600)
        #expect(change.state?["usesLeft"]?.intValue == 3 && change.state?["displayName"]?.stringValue == "Alice L.")
        let shown = try #require(try FleetConsoleRulesTests.get(running, "/user?name=alice", as: viewer)?["user"])
        #expect(shown["validFrom"] == "2026-12-24 00:00" && shown["validUntil"] == "2026-12-27 00:00" && shown["usesLeft"] == 3, "\(shown)")

        // The page sends the whole validity: what is left out (or null) is none.
        let beforeClear = try hub.latestRevision()
        #expect(try FleetConsoleRulesTests.post(running, "/users/validity", ["user": "alice", "validFrom": .null, "uses": .null], as: admin).status == 200)
        let cleared = try #require(try hub.changes(since: beforeClear).first)
        #expect(cleared.state?["validFrom"] == .null && cleared.state?["validUntil"] == .null && cleared.state?["usesLeft"] == .null)

        let details = try FleetConsoleRulesTests.auditDetails(running, as: admin)
        #expect(details.contains { $0.contains("console account admin") && $0.contains("user alice: valid from 2026-12-24 00:00 UTC, valid until 2026-12-27 00:00 UTC, 3 uses left at each door, at revision") },
                "\(details)")
        #expect(details.contains { $0.contains("user alice: no dates and no limit on uses") }, "\(details)")
        #expect(!details.contains { $0.contains("nobody") }, "a refused change is not audited as made")
        #expect(running.stop() == 0, "\(running.process.log)")
    }
}
