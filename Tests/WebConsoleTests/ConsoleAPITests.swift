import ConsoleHTTP
import Foundation
import JSONValue
import TemplateStore
import Testing
@testable import WebConsole

/// The console's API on a real store, as an admin's browser calls it: each answer checked
/// against what the store then holds.
@Suite struct ConsoleAPITests {
    @Test func theAccessFormTakesBackWhatTheListShows() throws {
        let console = try ConsoleFixture()
        let admin = try console.setUp()
        try console.store.addUser(name: "guest")
        let set = console.request("POST", "/api/v1/users/access", json: #"{"name":"guest","validUntil":"2026-12-06","uses":5}"#, browser: admin)
        #expect(set.status == 200, "\(ConsoleFixture.text(set))")
        let stored = try console.store.access(of: "guest")
        let listed = ConsoleFixture.json(console.request("GET", "/api/v1/users?q=gue", browser: admin))
        let guest = try #require(listed["users"]?.arrayValue?.first)
        #expect(guest["validUntil"]?.stringValue == "2026-12-07 00:00" && guest["usesLeft"]?.intValue == 5)
        // Saved again as the form shows it: nothing moves.
        let again = console.request("POST", "/api/v1/users/access",
                                    json: #"{"name":"guest","validUntil":"\#(guest["validUntil"]?.stringValue ?? "")","uses":5}"#, browser: admin)
        #expect(again.status == 200)
        #expect(try console.store.access(of: "guest") == stored)
        let bad = console.request("POST", "/api/v1/users/access", json: #"{"name":"guest","validUntil":"next week"}"#, browser: admin)
        #expect(bad.status == 400 && ConsoleFixture.json(bad)["fix"] != nil)
        #expect(try console.store.access(of: "guest") == stored)
        #expect(console.request("POST", "/api/v1/users/access", json: #"{"name":"nobody","uses":1}"#, browser: admin).status == 404)
    }

    @Test func disablingEndsTheValidityAndEnablingClearsIt() throws {
        let console = try ConsoleFixture()
        let admin = try console.setUp()
        try console.store.addUser(name: "bob")
        #expect(console.request("POST", "/api/v1/users/disable", json: #"{"name":"bob","disabled":true}"#, browser: admin).status == 200)
        let users = ConsoleFixture.json(console.request("GET", "/api/v1/users", browser: admin))["users"]?.arrayValue ?? []
        #expect(users.first?["standing"]?.stringValue == "expired")
        #expect(console.request("POST", "/api/v1/users/disable", json: #"{"name":"bob","disabled":false}"#, browser: admin).status == 200)
        #expect(try console.store.access(of: "bob").validUntil == nil)
        let rows = try console.store.auditEntries(limit: 20)
        #expect(rows.contains { $0.event == "console-action" && ($0.detail ?? "").contains("disabled bob") })
    }

    /// A change and the row naming its console account are one transaction: when the store
    /// refuses the attribution (here a trigger put in with the real `sqlite3` shell; in the field a
    /// full disk or a power cut between the two writes), the change is not made either.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func aChangeWithoutItsAttributionIsNotMade() throws {
        let console = try ConsoleFixture()
        let admin = try console.setUp()
        try console.store.addUser(name: "carol")
        func shell(_ sql: String) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [console.store.databasePath, sql]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        try shell("""
            CREATE TRIGGER refuse_attribution BEFORE INSERT ON audit WHEN NEW.event = 'console-action'
            BEGIN SELECT RAISE(ABORT, 'attribution refused'); END;
            """)
        let rowsBefore = try console.store.auditEntries(limit: 100).count
        let changes: [(path: String, json: String)] = [
            ("/api/v1/schedules", #"{"name":"office","text":"mon-fri 08:00-18:00"}"#),
            ("/api/v1/users/rename", #"{"name":"carol","newName":"caroline"}"#),
            ("/api/v1/users", #"{"name":"dave"}"#),
            ("/api/v1/cards", #"{"name":"carol","number":"26:1:2"}"#),
            ("/api/v1/users/pin", #"{"name":"carol","pin":"482913"}"#),
            ("/api/v1/users/access", #"{"name":"carol","uses":5}"#)
        ]
        for change in changes {
            let refused = console.request("POST", change.path, json: change.json, browser: admin)
            #expect(!(200..<300).contains(refused.status), "\(change.path): \(ConsoleFixture.text(refused))")
        }
        #expect(try console.store.schedules().isEmpty)
        #expect(try console.store.user(named: "caroline") == nil && console.store.user(named: "dave") == nil)
        #expect(try console.store.cards(of: "carol").isEmpty)
        #expect(try console.store.user(named: "carol")?.hasPIN == false)
        #expect(try console.store.access(of: "carol").usesLeft == nil)
        #expect(try console.store.auditEntries(limit: 100).count == rowsBefore)

        try shell("DROP TRIGGER refuse_attribution;")
        let made = console.request("POST", "/api/v1/schedules", json: changes[0].json, browser: admin)
        #expect(made.status == 200, "\(ConsoleFixture.text(made))")
        let rows = try console.store.auditEntries(limit: 5)
        #expect(rows.contains { $0.event == "console-action" && ($0.detail ?? "").contains("schedule office") })
        #expect(try console.store.verifyAuditChain().problem == nil)
    }

    @Test func renameAndASchedulesTypoWithItsColumn() throws {
        let console = try ConsoleFixture()
        let admin = try console.setUp()
        try console.store.addUser(name: "carol")
        #expect(console.request("POST", "/api/v1/users/rename", json: #"{"name":"carol","newName":"caroline"}"#, browser: admin).status == 200)
        #expect(try console.store.user(named: "caroline") != nil)
        let typo = console.request("POST", "/api/v1/schedules", json: #"{"name":"night","text":"mon 17:00-07:00"}"#, browser: admin)
        #expect(typo.status == 422 && (ConsoleFixture.json(typo)["error"]?.stringValue ?? "").contains("Column"))
        #expect(try console.store.schedules().isEmpty)
    }

    @Test func settingsAreCheckedBeforeAByteIsWritten() throws {
        let console = try ConsoleFixture()
        let admin = try console.setUp()
        let before = try String(contentsOfFile: console.configPath, encoding: .utf8)
        let broken = console.request("POST", "/api/v1/settings", json: #"{"config":"{\n  \"scanIntervalMs\": ,\n}"}"#, browser: admin)
        #expect(broken.status == 422)
        let problem = try #require(ConsoleFixture.json(broken)["problems"]?.arrayValue?.first)
        #expect(problem["line"]?.intValue == 2 && problem["column"] != .null)
        let wrongValue = console.request("POST", "/api/v1/settings", json: #"{"config":"{\n  \"scanIntervalMs\": 5\n}"}"#, browser: admin)
        let range = try #require(ConsoleFixture.json(wrongValue)["problems"]?.arrayValue?.first)
        #expect(wrongValue.status == 422 && range["line"]?.intValue == 2 && (range["message"]?.stringValue ?? "").contains("scanIntervalMs"))
        #expect(try String(contentsOfFile: console.configPath, encoding: .utf8) == before)
        let fine = before.replacingOccurrences(of: "\"console\"", with: "\"scanIntervalMs\": 300, \"console\"")
        let saved = console.request("POST", "/api/v1/settings", json: JSONValue.object(["config": .string(fine)]).encoded, browser: admin)
        #expect(saved.status == 200 && ConsoleFixture.json(saved)["applied"]?.stringValue == "saved", "\(ConsoleFixture.text(saved))")
        #expect(try String(contentsOfFile: console.configPath, encoding: .utf8) == fine)
    }

    @Test func theLogPagesBackAndItsCSVIsSafeInASpreadsheet() throws {
        let console = try ConsoleFixture()
        let admin = try console.setUp()
        for index in 0..<7 { try console.store.appendAudit(event: "granted", user: index == 6 ? "=HYPERLINK(\"x\")" : "user\(index)") }
        let first = ConsoleFixture.json(console.request("GET", "/api/v1/log?kind=granted&limit=4", browser: admin))
        #expect(first["entries"]?.arrayValue?.count == 4)
        let next = try #require(first["next"]?.intValue)
        let second = ConsoleFixture.json(console.request("GET", "/api/v1/log?kind=granted&limit=4&before=\(next)", browser: admin))
        #expect(second["entries"]?.arrayValue?.count == 3 && second["next"] == .null)
        let csv = console.request("GET", "/api/v1/log.csv?kind=granted", browser: admin)
        let text = ConsoleFixture.text(csv)
        #expect(csv.headers.contains { $0.name == "Content-Type" && $0.value.hasPrefix("text/csv") })
        #expect(text.hasPrefix("id,time,utc,time_zone,event,user,slot,score,detail\r\n"))
        #expect(text.contains("\"'=HYPERLINK(\"\"x\"\")\"") && !text.contains(",=HYPERLINK"))
        #expect(console.request("GET", "/api/v1/log?limit=100000", browser: admin).status == 400)
        #expect(console.request("GET", "/api/v1/log?since=someday", browser: admin).status == 400)
    }

    @Test func thePlotsAreSVGEvenWithNothingMeasured() throws {
        let console = try ConsoleFixture()
        let admin = try console.setUp()
        try console.store.appendAudit(event: "granted", user: "a")
        try console.store.appendAudit(event: "no-match", latencyJSON: #"{"captureEnd":200,"searchEnd":260,"decision":261}"#)
        for name in ["latency.svg", "identify.svg", "hourly.svg"] {
            let response = console.request("GET", "/api/v1/plots/\(name)", browser: admin)
            #expect(response.status == 200 && ConsoleFixture.text(response).contains("<svg"), "\(name)")
        }
        #expect(console.request("GET", "/api/v1/plots/other.svg", browser: admin).status == 404)
        #expect(try PlotData(store: console.store).decisionLatencies() == [261])
    }

    @Test func withoutTheServiceTheConsoleSaysSoAndChangesNothingAtTheDoor() throws {
        let console = try ConsoleFixture()
        let admin = try console.setUp()
        #expect(ConsoleFixture.json(console.request("GET", "/api/v1/status", browser: admin))["service"]?.stringValue == "stopped")
        let enroll = console.request("POST", "/api/v1/enrollments", json: #"{"name":"dave"}"#, browser: admin)
        #expect(enroll.status == 503 && ConsoleFixture.json(enroll)["fix"] != nil)
        #expect(console.request("POST", "/api/v1/door/mode", json: #"{"mode":"passage"}"#, browser: admin).status == 503)
        #expect(console.request("POST", "/api/v1/door/mode", json: #"{"mode":"open-sesame"}"#, browser: admin).status == 400)
    }

    @Test func theLockScreenAnswersThisMachineOnlyAndOnlyItsOwnPaths() throws {
        let console = try ConsoleFixture()
        let lock = LockScreenRoutes(context: console.context, port: 8080)
        let state = lock.respond(to: HTTPRequest(method: "GET", path: "/lock/api/state", remoteAddress: "127.0.0.1", isSecure: false))
        #expect(state.status == 200 && ConsoleFixture.json(state)["available"] == .bool(false))
        #expect(lock.respond(to: HTTPRequest(method: "GET", path: "/lock", remoteAddress: "192.0.2.9", isSecure: false)).status == 403)
        for path in ["/api/v1/users", "/users", "/assets/console.js", "/lock/../api/v1/users"] {
            #expect(lock.respond(to: HTTPRequest(method: "GET", path: path, remoteAddress: "127.0.0.1", isSecure: false)).status == 404, "\(path)")
        }
        let foreign = lock.respond(to: HTTPRequest(method: "POST", path: "/lock/api/pin", headers: [("origin", "https://evil.example"),
                                   ("content-type", "application/json")], body: Array(#"{"pin":"1234"}"#.utf8), remoteAddress: "127.0.0.1", isSecure: false))
        #expect(foreign.status == 403)
        let notDigits = lock.respond(to: HTTPRequest(method: "POST", path: "/lock/api/pin", headers: [("origin", "http://127.0.0.1:8080"),
                                     ("content-type", "application/json")], body: Array(#"{"pin":"12ab"}"#.utf8), remoteAddress: "127.0.0.1", isSecure: false))
        #expect(notDigits.status == 400)
    }
}

@Suite struct ConsoleCredentialsTests {
    @Test func aUserAddedWithAPINAndACardButNoFingerYet() throws {
        let console = try ConsoleFixture()
        let admin = try console.setUp()
        #expect(console.request("POST", "/api/v1/users", json: #"{"name":"erin"}"#, browser: admin).status == 201)
        #expect(console.request("POST", "/api/v1/users", json: #"{"name":"erin"}"#, browser: admin).status == 409)
        #expect(console.request("POST", "/api/v1/users", json: #"{"name":"bad name!"}"#, browser: admin).status == 400)
        #expect(console.request("POST", "/api/v1/users/pin", json: #"{"name":"erin","pin":"12"}"#, browser: admin).status == 400)
        let pin = console.request("POST", "/api/v1/users/pin", json: #"{"name":"erin","pin":"482913"}"#, browser: admin)
        #expect(pin.status == 200 && !ConsoleFixture.text(pin).contains("482913"))
        #expect(try console.store.verifyPIN("482913", for: "erin"))
        #expect(console.request("POST", "/api/v1/cards", json: #"{"name":"erin","number":"26:12:3456"}"#, browser: admin).status == 201)
        #expect(console.request("POST", "/api/v1/cards", json: #"{"name":"erin","number":"twelve"}"#, browser: admin).status == 400)
        #expect(try console.store.cards(of: "erin").map(\.label) == ["card"])
        let deleted = console.request("POST", "/api/v1/cards/delete", json: #"{"name":"erin","label":"card"}"#, browser: admin)
        #expect(deleted.status == 200 && ConsoleFixture.text(deleted).contains(#""toHub":false"#), "a card of this door's own user: \(ConsoleFixture.text(deleted))")
        #expect(try console.store.cards(of: "erin").isEmpty)
        let rows = try console.store.auditEntries(limit: 50)
        #expect(!rows.contains { ($0.detail ?? "").contains("482913") })
    }
}

@Suite struct ConsoleStreamTests {
    @Test func anOpenEventStreamEndsWithItsSession() throws {
        let console = try ConsoleFixture()
        let browser = try console.setUp()
        let sessions = console.routes.auth.sessions
        #expect(try sessions.isActive(cookieToken: browser.cookie))
        let cookie = browser.cookie
        let stream = EventSocketStream(eventsSocket: console.scratch.file("events.sock"),
                                       stillAllowed: { (try? sessions.isActive(cookieToken: cookie)) ?? false }, checkEvery: .zero)
        #expect(stream.next(deadline: .now + .milliseconds(100)) != nil)
        #expect(console.request("POST", "/api/v1/logout", json: "{}", browser: browser).status == 204)
        #expect(try !sessions.isActive(cookieToken: browser.cookie))
        #expect(stream.next(deadline: .now + .milliseconds(100)) == nil)
    }

    @Test func theServiceStoppingAndStartingIsSaidOnTheStream() throws {
        let console = try ConsoleFixture()
        let stream = EventSocketStream(eventsSocket: console.scratch.file("events.sock"))
        var text = ""
        for _ in 0..<3 { text += String(decoding: stream.next(deadline: .now + .milliseconds(100)) ?? [], as: UTF8.self) }
        #expect(text.contains("retry: 3000") && text.contains("event: service\ndata: {\"service\":\"stopped\"}"))
        stream.close()
        #expect(stream.next(deadline: .now) == nil)
    }
}

@Suite struct EnrollmentProgressTests {
    @Test func eachStepReachesThePageWithItsTouchAndQuality() {
        let quality = EnrollmentJobs.progressJSON(.touchQuality(capture: 3, score: 74))
        #expect(quality["touch"]?.intValue == 3 && quality["quality"]?.intValue == 74 && quality["prompt"]?.stringValue == "Touch 3: quality 74 of 100")
        let passed = EnrollmentJobs.progressJSON(.stagePassed(capture: 3, of: 8))
        #expect(passed["touch"]?.intValue == 3 && passed["of"]?.intValue == 8)
        let refused = EnrollmentJobs.progressJSON(.retryScan(capture: 4, reason: "poor capture (too faint)"))
        #expect(refused["refused"]?.stringValue == "poor capture (too faint)" && refused["quality"] == nil)
    }
}
