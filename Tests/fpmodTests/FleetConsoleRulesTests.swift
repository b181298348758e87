import Foundation
import HubStore
import JSONValue
import TemplateStore
import Testing
import TestSupport

/// Schedules, holidays and a user's schedule edited in the fleet console on a real `fpmod hub
/// serve` and PostgreSQL, as a browser would: an admin's change is a revision every door takes
/// (`changes(since:)` carries it), a refused one leaves the hub's revision where it was, a viewer
/// changes nothing, and each change is audited under the account.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct FleetConsoleRulesTests {
    /// A signed-in browser: its cookie jar and CSRF token.
    struct Browser {
        let jar: String
        let csrf: String
    }

    /// The first admin (through the setup code) and a viewer.
    static func accounts(_ running: RunningHub) throws -> (admin: Browser, viewer: Browser) {
        let password = "correct horse battery"
        let issued = try running.cli.run(["hub", "console-setup-code", "--dir", running.directory, "--json"])
        let code = try #require(issued.json?["code"] as? String, "\(issued.stdout) \(issued.stderr)")
        let admin = running.cli.directory + "/admin.jar", viewer = running.cli.directory + "/viewer.jar"
        let setUp = try FleetConsoleTests.call(running, "POST", "/fleet/api/setup", body: ["code": .string(code), "name": "admin", "password": .string(password)],
                                               jar: admin)
        let adminCSRF = try #require(setUp.json?["csrf"]?.stringValue, "\(String(describing: setUp.json))")
        let added = try FleetConsoleTests.call(running, "POST", "/fleet/api/accounts", body: ["name": "watcher", "role": "viewer", "password": .string(password)],
                                               jar: admin, csrf: adminCSRF)
        try #require(added.status == 200, "\(String(describing: added.json))")
        let signedIn = try FleetConsoleTests.call(running, "POST", "/fleet/api/login", body: ["name": "watcher", "password": .string(password)], jar: viewer)
        let viewerCSRF = try #require(signedIn.json?["csrf"]?.stringValue, "\(String(describing: signedIn.json))")
        return (Browser(jar: admin, csrf: adminCSRF), Browser(jar: viewer, csrf: viewerCSRF))
    }

    static func post(_ running: RunningHub, _ path: String, _ body: JSONValue, as browser: Browser) throws -> (status: Int, json: JSONValue?) {
        try FleetConsoleTests.call(running, "POST", "/fleet/api" + path, body: body, jar: browser.jar, csrf: browser.csrf)
    }

    static func get(_ running: RunningHub, _ path: String, as browser: Browser) throws -> JSONValue? {
        try FleetConsoleTests.call(running, "GET", "/fleet/api" + path, jar: browser.jar).json
    }

    static func auditDetails(_ running: RunningHub, as browser: Browser) throws -> [String] {
        try #require(try get(running, "/audit", as: browser)?["entries"]?.arrayValue).compactMap { $0["detail"]?.stringValue }
    }

    @Test func schedulesAndAUsersScheduleAreEditedThereAndDoorsFollow() throws {
        let running = try RunningHub()
        let hub = try HubStore(conninfo: running.database)
        try hub.putUser(HubUser(name: "alice"))
        let (admin, viewer) = try Self.accounts(running)
        #expect(try Self.get(running, "/schedules", as: viewer)?["schedules"]?.arrayValue?.isEmpty == true)

        // Refused before anything is written: the hub's revision stays where it was.
        let before = try hub.latestRevision()
        let office: JSONValue = ["name": "office", "text": "mon-fri 07:00-19:00; sat 09:00-12:00"]
        let unreadable = try Self.post(running, "/schedules", ["name": "office", "text": "someday 07:00-19:00"], as: admin)
        #expect(unreadable.status == 400 && unreadable.json?["error"]?.stringValue?.contains("column 1") == true, "\(String(describing: unreadable.json))")
        #expect(unreadable.json?["fix"]?.stringValue?.contains("mon-fri") == true)
        #expect(try Self.post(running, "/schedules", ["name": "office", "text": "mon-fri 19:00-07:00"], as: admin).status == 400, "backwards without +1")
        #expect(try Self.post(running, "/schedules", ["name": "office", "text": ""], as: admin).status == 400)
        #expect(try Self.post(running, "/schedules", ["name": "<b>office</b>", "text": "daily 08:00-09:00"], as: admin).status == 400)
        #expect(try Self.post(running, "/schedules", ["name": "office"], as: admin).status == 400)
        #expect(try Self.post(running, "/schedules", office, as: viewer).status == 403)
        #expect(try hub.latestRevision() == before && hub.schedules().isEmpty)

        let added = try Self.post(running, "/schedules", office, as: admin)
        #expect(added.status == 200, "\(String(describing: added.json))")
        let revision = try #require(added.json?["revision"]?.intValue)
        let change = try #require(try hub.changes(since: before).first)
        #expect(change.revision == revision && change.kind == .schedule && change.key == "office")
        #expect(change.state?["text"]?.stringValue == "mon-fri 07:00-19:00; sat 09:00-12:00")
        // The same name again replaces it.
        #expect(try Self.post(running, "/schedules", ["name": "office", "text": "weekdays 08:00-18:00"], as: admin).status == 200)
        #expect(try hub.schedules().map { "\($0.name): \($0.text), \($0.users)" } == ["office: weekdays 08:00-18:00, []"])

        // A user's schedule: set, shown with the user and the schedule, carried to the doors whole.
        let beforeUser = try hub.latestRevision()
        #expect(try Self.post(running, "/users/schedule", ["user": "alice", "schedule": "office"], as: viewer).status == 403)
        #expect(try Self.post(running, "/users/schedule", ["user": "nobody", "schedule": "office"], as: admin).status == 404)
        #expect(try Self.post(running, "/users/schedule", ["user": "alice", "schedule": "nights"], as: admin).status == 404)
        #expect(try Self.post(running, "/users/schedule", ["user": "alice", "schedule": "no such"], as: admin).status == 400)
        #expect(try Self.post(running, "/users/schedule", ["user": "alice"], as: admin).status == 400, "null says none; absent says nothing")
        #expect(try hub.latestRevision() == beforeUser)
        #expect(try Self.post(running, "/users/schedule", ["user": "alice", "schedule": "office"], as: admin).status == 200)
        let given = try #require(try hub.changes(since: beforeUser).first)
        #expect(given.kind == .user && given.key == "alice" && given.state?["schedule"]?.stringValue == "office")
        #expect(given.state?["displayName"]?.stringValue == "alice" && given.state?["fingerprintUnlock"] == .bool(true), "the rest of alice kept")
        #expect(try Self.get(running, "/user?name=alice", as: viewer)?["user"]?["schedule"]?.stringValue == "office")
        let listed = try #require(try Self.get(running, "/schedules", as: viewer)?["schedules"]?.arrayValue?.first)
        #expect(listed["users"] == ["alice"])

        // A schedule someone has stays; taken from them, it can go.
        let kept = try Self.post(running, "/schedules/remove", ["name": "office"], as: admin)
        #expect(kept.status == 409 && kept.json?["error"]?.stringValue?.contains("alice") == true, "\(String(describing: kept.json))")
        #expect(try Self.post(running, "/schedules/remove", ["name": "office"], as: viewer).status == 403)
        #expect(try Self.post(running, "/schedules/remove", ["name": "nowhere"], as: admin).status == 404)
        let cleared = try hub.latestRevision()
        #expect(try Self.post(running, "/users/schedule", ["user": "alice", "schedule": .null], as: admin).status == 200)
        #expect(try hub.changes(since: cleared).first?.state?["schedule"] == .null)
        #expect(try Self.get(running, "/users", as: viewer)?["users"]?.arrayValue?.first?["schedule"] == .null)
        let removed = try Self.post(running, "/schedules/remove", ["name": "office"], as: admin)
        #expect(removed.status == 200, "\(String(describing: removed.json))")
        let tombstone = try #require(try hub.changes(since: cleared).last)
        #expect(tombstone.kind == .schedule && tombstone.key == "office" && tombstone.isTombstone)

        let details = try Self.auditDetails(running, as: admin)
        #expect(details.contains { $0.contains("console account admin") && $0.contains("schedule office set to weekdays 08:00-18:00") }, "\(details)")
        #expect(details.contains { $0.contains("user alice given schedule office") } && details.contains { $0.contains("user alice given no schedule") })
        #expect(details.contains { $0.contains("schedule office removed") })
        #expect(!details.contains { $0.contains("someday") }, "a refused change is not audited as made")
        #expect(running.stop() == 0, "\(running.process.log)")
    }

    @Test func holidaysAreEditedThereAndDoorsFollow() throws {
        let running = try RunningHub()
        let hub = try HubStore(conninfo: running.database)
        let (admin, viewer) = try Self.accounts(running)
        let before = try hub.latestRevision()
        let refused: [JSONValue] = [
            ["name": "xmas", "date": "2026-02-30", "closed": true],
            ["name": "xmas", "date": "2026-12-25", "from": "2026-12-24", "until": "2026-12-26", "closed": true],
            ["name": "xmas", "from": "2026-12-24", "closed": true],
            ["name": "xmas", "closed": true],
            ["name": "xmas", "from": "2026-12-26", "until": "2026-12-24", "closed": true],
            ["name": "xmas", "date": "2026-12-25"],
            ["name": "xmas", "date": "2026-12-25", "closed": true, "hours": "daily 10:00-14:00"],
            ["name": "xmas", "date": "2026-12-25", "hours": "daily 10:00-25:00"],
            ["name": "x mas", "date": "2026-12-25", "closed": true],
            ["name": "xmas", "date": "2026-12-25", "closed": "yes"],
        ]
        for body in refused {
            let answer = try Self.post(running, "/holidays", body, as: admin)
            #expect(answer.status == 400 && answer.json?["error"]?.stringValue?.isEmpty == false, "\(body.encoded): \(String(describing: answer.json))")
        }
        let backwards = try Self.post(running, "/holidays", ["name": "xmas", "from": "2026-12-26", "until": "2026-12-24", "closed": true], as: admin)
        #expect(backwards.json?["error"]?.stringValue?.contains("before its first") == true, "\(String(describing: backwards.json))")
        let christmas: JSONValue = ["name": "christmas", "date": "", "from": "2026-12-24", "until": "2026-12-26", "yearly": true, "closed": true, "hours": ""]
        #expect(try Self.post(running, "/holidays", christmas, as: viewer).status == 403)
        #expect(try hub.latestRevision() == before && hub.holidays().isEmpty)

        let added = try Self.post(running, "/holidays", christmas, as: admin)
        #expect(added.status == 200 && added.json?["description"]?.stringValue == "12-24 to 12-26, every year, closed", "\(String(describing: added.json))")
        let change = try #require(try hub.changes(since: before).first)
        #expect(change.kind == .holiday && change.key == "christmas" && change.state?["first"]?.stringValue == "2026-12-24")
        #expect(change.state?["yearly"] == .bool(true) && change.state?["hours"] == .null)
        let mayDay = try Self.post(running, "/holidays", ["name": "may-day", "date": "2026-05-01", "hours": "Daily 10:00-14:00"], as: admin)
        #expect(mayDay.status == 200, "\(String(describing: mayDay.json))")
        #expect(try hub.holidays().map(\.hours) == [nil, "daily 10:00-14:00"], "kept as the doors read it, by name")
        let listed = try #require(try Self.get(running, "/holidays", as: viewer)?["holidays"]?.arrayValue)
        #expect(listed.map { $0["description"]?.stringValue } == ["12-24 to 12-26, every year, closed", "2026-05-01, hours daily 10:00-14:00"])

        #expect(try Self.post(running, "/holidays/remove", ["name": "christmas"], as: viewer).status == 403)
        #expect(try Self.post(running, "/holidays/remove", ["name": "easter"], as: admin).status == 404)
        let beforeRemoval = try hub.latestRevision()
        #expect(try Self.post(running, "/holidays/remove", ["name": "christmas"], as: admin).status == 200)
        let tombstone = try #require(try hub.changes(since: beforeRemoval).first)
        #expect(tombstone.kind == .holiday && tombstone.key == "christmas" && tombstone.isTombstone)
        #expect(try hub.holidays().map(\.name) == ["may-day"])

        let details = try Self.auditDetails(running, as: admin)
        #expect(details.contains { $0.contains("console account admin") && $0.contains("holiday christmas set to 12-24 to 12-26, every year, closed") }, "\(details)")
        #expect(details.contains { $0.contains("holiday may-day set to 2026-05-01, hours daily 10:00-14:00") })
        #expect(details.contains { $0.contains("holiday christmas removed") })
        #expect(running.stop() == 0, "\(running.process.log)")
    }

    /// A card the hub holds switched off and on and given its own dates from the console: each a
    /// revision carrying the whole card (a door replaces its card with it), dates read in UTC.
    @Test func aCardIsSwitchedAndGivenDatesThereAndDoorsFollow() throws {
        let running = try RunningHub()
        let hub = try HubStore(conninfo: running.database)
        try hub.putUser(HubUser(name: "alice"))
        let hash = [UInt8](repeating: 7, count: 32)
        try hub.putCard(HubCard(user: "alice", label: "badge", kind: .wiegand, numberHash: hash))
        let (admin, viewer) = try Self.accounts(running)

        // Refused before anything is written: the hub's revision stays where it was.
        let before = try hub.latestRevision()
        let refused: [(String, JSONValue)] = [
            ("/cards/switch", ["user": "alice", "label": "badge"]),
            ("/cards/switch", ["user": "alice", "label": "badge", "enabled": "no"]),
            ("/cards/switch", ["user": "alice", "label": "", "enabled": false]),
            ("/cards/switch", ["user": "al ice", "label": "badge", "enabled": false]),
            ("/cards/validity", ["user": "alice", "label": "badge", "validFrom": "tomorrow"]),
            ("/cards/validity", ["user": "alice", "label": "badge", "validUntil": "2026-02-30"]),
            ("/cards/validity", ["user": "alice", "label": "badge", "validFrom": "2026-12-27", "validUntil": "2026-12-24"]),
        ]
        for (path, body) in refused {
            let answer = try Self.post(running, path, body, as: admin)
            #expect(answer.status == 400 && answer.json?["error"]?.stringValue?.isEmpty == false, "\(path) \(body.encoded): \(String(describing: answer.json))")
        }
        let unreadable = try Self.post(running, "/cards/validity", ["user": "alice", "label": "badge", "validFrom": "tomorrow"], as: admin)
        #expect(unreadable.json?["fix"]?.stringValue?.contains("UTC") == true, "\(String(describing: unreadable.json))")
        for (path, body) in [("/cards/switch", ["user": "alice", "label": "lost", "enabled": false] as JSONValue),
                             ("/cards/validity", ["user": "nobody", "label": "badge"] as JSONValue)] {
            let missing = try Self.post(running, path, body, as: admin)
            #expect(missing.status == 404 && missing.json?["fix"]?.stringValue?.isEmpty == false, "\(path): \(String(describing: missing.json))")
        }
        #expect(try Self.post(running, "/cards/switch", ["user": "alice", "label": "badge", "enabled": false], as: viewer).status == 403)
        #expect(try Self.post(running, "/cards/validity", ["user": "alice", "label": "badge", "validFrom": "2026-12-24"], as: viewer).status == 403)
        #expect(try hub.latestRevision() == before)

        let off = try Self.post(running, "/cards/switch", ["user": "alice", "label": "badge", "enabled": false], as: admin)
        #expect(off.status == 200, "\(String(describing: off.json))")
        let switched = try #require(try hub.changes(since: before).first)
        let offRevision = try #require(off.json?["revision"]?.intValue)
        #expect(Int(switched.revision) == offRevision && switched.kind == .card && switched.key == "alice:badge")
        #expect(switched.state.flatMap(HubCard.init(json:)) == HubCard(user: "alice", label: "badge", kind: .wiegand, numberHash: hash, enabled: false))

        let beforeDates = try hub.latestRevision()
        let dated = try Self.post(running, "/cards/validity", ["user": "alice", "label": "badge", "validFrom": "2026-12-24", "validUntil": "2026-12-26"],
                                  as: admin)
        #expect(dated.status == 200, "\(String(describing: dated.json))")
        let datedCard = try #require(try hub.changes(since: beforeDates).first?.state.flatMap(HubCard.init(json:)))
        // 2026-12-24 00:00 UTC to the end of 2026-12-26 UTC; still off, as it was switched.
        #expect(datedCard.validFrom == 1_798_070_400 && datedCard.validUntil == 1_798_329_600 && !datedCard.enabled)
        let shown = try #require(try Self.get(running, "/user?name=alice", as: viewer)?["user"]?["cardStates"]?.arrayValue?.first)
        #expect(shown == ["label": "badge", "kind": "wiegand", "enabled": false, "validFrom": "2026-12-24 00:00", "validUntil": "2026-12-27 00:00"])
        // Switched on again and its dates taken away (both sides left out): nothing of its own.
        #expect(try Self.post(running, "/cards/switch", ["user": "alice", "label": "badge", "enabled": true], as: admin).status == 200)
        let beforeClear = try hub.latestRevision()
        #expect(try Self.post(running, "/cards/validity", ["user": "alice", "label": "badge", "validFrom": .null], as: admin).status == 200)
        let cleared = try #require(try hub.changes(since: beforeClear).first?.state.flatMap(HubCard.init(json:)))
        #expect(cleared == HubCard(user: "alice", label: "badge", kind: .wiegand, numberHash: hash))

        let details = try Self.auditDetails(running, as: admin)
        #expect(details.contains { $0.contains("console account admin") && $0.contains("card badge of alice switched off at revision") }, "\(details)")
        #expect(details.contains { $0.contains("card badge of alice: valid from 2026-12-24 00:00 UTC, valid until 2026-12-27 00:00 UTC") }, "\(details)")
        #expect(details.contains { $0.contains("card badge of alice: no dates of its own") })
        #expect(!details.contains { $0.contains("lost") || $0.contains("nobody") }, "a refused change is not audited as made")
        #expect(running.stop() == 0, "\(running.process.log)")
    }
}
