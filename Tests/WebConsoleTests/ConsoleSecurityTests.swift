import ConsoleAuth
import ConsoleHTTP
import Foundation
import JSONValue
import TemplateStore
import Testing
@testable import WebConsole

/// The console's rules of who may do what, through its routes on a real store: nothing
/// changes without a session, the CSRF token and the console's Origin; a viewer changes
/// nothing; the setup code works once; a planted session token is worth nothing.
@Suite struct ConsoleSecurityTests {
    /// Every API path the console has, with a body that would be valid.
    static let changes: [(path: String, json: String)] = [
        ("/api/v1/logout-everywhere", "{}"), ("/api/v1/door/mode", #"{"mode":"lockdown"}"#),
        ("/api/v1/users/rename", #"{"name":"bob","newName":"rob"}"#), ("/api/v1/users/access", #"{"name":"bob","uses":3}"#),
        ("/api/v1/users/delete", #"{"name":"bob"}"#), ("/api/v1/users/disable", #"{"name":"bob"}"#),
        ("/api/v1/users", #"{"name":"eve"}"#), ("/api/v1/users/pin", #"{"name":"bob","pin":"482913"}"#),
        ("/api/v1/cards", #"{"name":"bob","number":"26:1:2"}"#), ("/api/v1/cards/delete", #"{"name":"bob","label":"card"}"#),
        ("/api/v1/cards/switch", #"{"name":"bob","label":"card","enabled":false}"#), ("/api/v1/cards/validity", #"{"name":"bob","label":"card","validUntil":"2026-12-24"}"#),
        ("/api/v1/schedules", #"{"name":"office","text":"mon-fri 08:00-18:00"}"#),
        ("/api/v1/schedules/delete", #"{"name":"office"}"#), ("/api/v1/enrollments", #"{"name":"carol"}"#),
        ("/api/v1/settings", #"{"config":"{}"}"#), ("/api/v1/accounts", #"{"name":"victor","role":"admin","password":"0123456789ab"}"#),
        ("/api/v1/accounts/delete", #"{"name":"alice"}"#), ("/api/v1/tokens", #"{"name":"script","role":"admin"}"#),
        ("/api/v1/tokens/revoke", #"{"name":"script"}"#),
    ]
    static let office = #"{"name":"office","text":"mon-fri 08:00-18:00"}"#
    static let reads = ["/api/v1/session", "/api/v1/status", "/api/v1/events", "/api/v1/health", "/api/v1/users", "/api/v1/schedules",
                        "/api/v1/log", "/api/v1/log.csv", "/api/v1/plots/latency.svg", "/api/v1/settings", "/api/v1/accounts",
                        "/api/v1/tokens", "/api/v1/enrollments/0123456789abcdef0123456789abcdef/events"]

    @Test func everyAPIPathRefusesWithoutASession() throws {
        let console = try ConsoleFixture()
        _ = try console.setUp()
        for path in Self.reads {
            #expect(console.request("GET", path).status == 401, "GET \(path) without a session")
        }
        for change in Self.changes {
            #expect(console.request("POST", change.path, json: change.json).status == 401, "POST \(change.path) without a session")
        }
        let forged = ConsoleFixture.Browser(cookie: "not-a-session", csrf: "x")
        #expect(console.request("GET", "/api/v1/users", browser: forged).status == 401)
        #expect(console.request("GET", "/api/v1/users", headers: [("authorization", "Bearer fpm_forged")]).status == 401)
    }

    @Test func pagesSendAStrangerToTheLoginAndTheFirstVisitorToSetup() throws {
        let console = try ConsoleFixture()
        #expect(console.request("GET", "/").headers.first { $0.name == "Location" }?.value == "/setup")
        #expect(console.request("GET", "/login").headers.first { $0.name == "Location" }?.value == "/setup")
        _ = try console.setUp()
        for page in ConsolePage.allCases where page != .login && page != .setup {
            let response = console.request("GET", page.path)
            #expect(response.status == 303 && response.headers.contains { $0 == ("Location", "/login") }, "\(page.path) without a session")
        }
        #expect(console.request("GET", "/setup").headers.first { $0.name == "Location" }?.value == "/login")
    }

    @Test func aChangeNeedsTheCSRFTokenAndTheConsolesOrigin() throws {
        let console = try ConsoleFixture()
        let browser = try console.setUp()
        for change in Self.changes where change.path != "/api/v1/logout-everywhere" {
            let foreign = console.request("POST", change.path, json: change.json, browser: browser, origin: "https://evil.example")
            #expect(foreign.status == 403 && ConsoleFixture.json(foreign)["reason"]?.stringValue == "origin", "cross-origin POST \(change.path)")
            let noOrigin = console.request("POST", change.path, json: change.json, browser: browser, origin: nil)
            #expect(noOrigin.status == 403, "POST \(change.path) without Origin")
            var withoutToken = browser
            withoutToken.csrf = ""
            let noToken = console.request("POST", change.path, json: change.json, browser: withoutToken)
            #expect(noToken.status == 403 && ConsoleFixture.json(noToken)["reason"]?.stringValue == "csrf", "POST \(change.path) without the CSRF token")
            let wrongToken = console.request("POST", change.path, json: change.json, browser: browser, csrf: "AAAA" + browser.csrf.dropFirst(4))
            #expect(wrongToken.status == 403, "POST \(change.path) with another CSRF token")
        }
        // Nothing happened: the schedule was never added, the token never made.
        #expect(try console.store.schedules().isEmpty)
        #expect(try BearerTokens(store: console.store).list().isEmpty)
        // The same request with both is taken.
        #expect(console.request("POST", "/api/v1/schedules", json: Self.office, browser: browser).status == 200)
        #expect(try console.store.schedules().map(\.name) == ["office"])
    }

    @Test func aFormPostFromAnotherPageCannotPassAsJSON() throws {
        let console = try ConsoleFixture()
        let browser = try console.setUp()
        var headers: [(name: String, value: String)] = [("content-type", "text/plain"), ("origin", ConsoleFixture.origin),
                                                          ("cookie", "fpmod_session=\(browser.cookie)"), ("x-csrf-token", browser.csrf)]
        let plain = console.routes.respond(to: HTTPRequest(method: "POST", path: "/api/v1/schedules", headers: headers,
                                                           body: Array(Self.office.utf8)))
        #expect(plain.status == 415)
        headers[0] = ("content-type", "application/json")
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        let nested = console.routes.respond(to: HTTPRequest(method: "POST", path: "/api/v1/schedules", headers: headers, body: Array(deep.utf8)))
        #expect(nested.status == 400)
    }

    @Test func theSetupCodeWorksOnce() throws {
        let console = try ConsoleFixture()
        let code = try SetupCode(store: console.store).issue()
        let first = console.request("POST", "/api/v1/setup", json: #"{"code":"\#(code)","name":"alice","password":"correct horse battery"}"#)
        #expect(first.status == 200)
        let again = console.request("POST", "/api/v1/setup", json: #"{"code":"\#(code)","name":"mallory","password":"correct horse battery"}"#)
        #expect(again.status == 409)
        #expect(try Accounts(store: console.store).list().map(\.name) == ["alice"])
        #expect(ConsoleFixture.json(console.request("GET", "/api/v1/setup"))["needed"] == .bool(false))
    }

    @Test func aWrongSetupCodeMakesNoAccount() throws {
        let console = try ConsoleFixture()
        _ = try SetupCode(store: console.store).issue()
        let wrong = console.request("POST", "/api/v1/setup", json: #"{"code":"AAAA-BBBB-CCCC-DDDD","name":"mallory","password":"correct horse battery"}"#)
        #expect(wrong.status == 403)
        let crossSite = console.request("POST", "/api/v1/setup", json: #"{"code":"x","name":"m","password":"p"}"#, origin: "https://evil.example")
        #expect(crossSite.status == 403)
        #expect(try Accounts(store: console.store).list().isEmpty)
    }

    @Test func aSessionTokenPlantedBeforeTheLoginIsWorthNothingAfterIt() throws {
        let console = try ConsoleFixture()
        let planted = try console.setUp()
        // The attacker's own session cookie placed in the victim's browser, then the victim logs in.
        let login = console.request("POST", "/api/v1/login", json: #"{"name":"alice","password":"correct horse battery"}"#,
                                    headers: [("cookie", "fpmod_session=\(planted.cookie)")])
        let fresh = try console.browser(from: login)
        #expect(fresh.cookie != planted.cookie)
        #expect(console.request("GET", "/api/v1/session", browser: planted).status == 401)
        #expect(console.request("GET", "/api/v1/session", browser: fresh).status == 200)
    }

    @Test func theCookieIsHttpOnlySecureAndStrict() throws {
        let console = try ConsoleFixture()
        let code = try SetupCode(store: console.store).issue()
        let response = console.request("POST", "/api/v1/setup", json: #"{"code":"\#(code)","name":"alice","password":"correct horse battery"}"#)
        let cookie = try #require(response.headers.first { $0.name == "Set-Cookie" }?.value)
        #expect(cookie.contains("HttpOnly") && cookie.contains("Secure") && cookie.contains("SameSite=Strict"))
    }

    @Test func aViewerLooksButChangesNothing() throws {
        let console = try ConsoleFixture()
        let admin = try console.setUp()
        #expect(console.request("POST", "/api/v1/accounts", json: #"{"name":"vera","role":"viewer","password":"viewer password 1"}"#,
                                browser: admin).status == 200)
        let viewer = try console.logIn("vera", "viewer password 1")
        #expect(console.request("GET", "/api/v1/users", browser: viewer).status == 200)
        for change in Self.changes where change.path != "/api/v1/logout-everywhere" {
            #expect(console.request("POST", change.path, json: change.json, browser: viewer).status == 403, "viewer POST \(change.path)")
        }
        #expect(console.request("POST", "/api/v1/logout", json: "{}", browser: viewer).status == 204)
        #expect(console.request("GET", "/api/v1/users", browser: viewer).status == 401)
    }

    @Test func logoutEverywhereEndsEverySessionOfTheAccount() throws {
        let console = try ConsoleFixture()
        let phone = try console.setUp()
        let laptop = try console.logIn("alice", "correct horse battery")
        #expect(console.request("POST", "/api/v1/logout-everywhere", json: "{}", browser: laptop).status == 204)
        #expect(console.request("GET", "/api/v1/users", browser: phone).status == 401)
        #expect(console.request("GET", "/api/v1/users", browser: laptop).status == 401)
    }

    @Test func loginFailuresLockTheNameOutWithRetryAfter() throws {
        let console = try ConsoleFixture()
        _ = try console.setUp()
        var last = HTTPResponse(status: 0)
        for _ in 0..<5 {
            last = console.request("POST", "/api/v1/login", json: #"{"name":"alice","password":"wrong password!"}"#)
        }
        #expect(last.status == 429)
        #expect((ConsoleFixture.json(last)["retryInSeconds"]?.intValue ?? 0) > 0)
        #expect(last.headers.contains { $0.name == "Retry-After" })
        // Locked even with the right password, until the lockout ends.
        #expect(console.request("POST", "/api/v1/login", json: #"{"name":"alice","password":"correct horse battery"}"#).status == 429)
    }

    @Test func aBearerTokenWorksForScriptsWithoutCSRFAndIsRefusedOnceRevoked() throws {
        let console = try ConsoleFixture()
        let admin = try console.setUp()
        let created = console.request("POST", "/api/v1/tokens", json: #"{"name":"backup","role":"viewer"}"#, browser: admin)
        #expect(created.status == 201)
        let token = try #require(ConsoleFixture.json(created)["token"]?.stringValue)
        let bearer: [(name: String, value: String)] = [("authorization", "Bearer \(token)")]
        #expect(console.request("GET", "/api/v1/users", origin: nil, headers: bearer).status == 200)
        // A viewer token changes nothing.
        #expect(console.request("POST", "/api/v1/schedules", json: Self.office, origin: nil, headers: bearer).status == 403)
        #expect(console.request("POST", "/api/v1/tokens/revoke", json: #"{"name":"backup"}"#, browser: admin).status == 200)
        #expect(console.request("GET", "/api/v1/users", origin: nil, headers: bearer).status == 401)
        // The token's text is nowhere in the store's file.
        let file = try Data(contentsOf: URL(fileURLWithPath: console.store.databasePath))
        #expect(file.range(of: Data(token.utf8)) == nil)
    }

    @Test func assetsAreOnlyWhatTheBinaryCarries() throws {
        let console = try ConsoleFixture()
        for path in ["/assets/../store.db", "/assets/%2e%2e/config.json", "/assets/console.js/../../etc/passwd", "/assets/", "/assets/nope.js"] {
            #expect(console.request("GET", path).status == 404, "\(path)")
        }
        #expect(console.request("GET", "/assets/console.js").status == 200)
        #expect(console.request("POST", "/assets/console.js", json: "{}").status == 404)
    }

    @Test func everyAdminActionIsAuditedWithTheAccount() throws {
        let console = try ConsoleFixture()
        let admin = try console.setUp()
        #expect(console.request("POST", "/api/v1/schedules", json: Self.office, browser: admin).status == 200)
        let rows = try console.store.auditEntries(limit: 50)
        #expect(rows.contains { $0.event == "console-setup" && $0.user == "alice" })
        #expect(rows.contains { $0.event == "console-action" && ($0.detail ?? "").contains("by console account alice") && ($0.detail ?? "").contains("office") })
    }
}

@Suite struct LoginThrottleTests {
    @Test func oneAddressTryingManyNamesIsHeldOffThenLetBack() {
        final class Clock: @unchecked Sendable {
            private let lock = NSLock()
            private var seconds = 1_000.0  // guarded by `lock`
            var now: Double {
                get { lock.withLock { seconds } }
                set { lock.withLock { seconds = newValue } }
            }
        }
        let clock = Clock()
        let throttle = LoginThrottle(limit: 3, windowSeconds: 60, clock: { clock.now })
        for _ in 0..<3 { throttle.failed("192.0.2.7") }
        #expect(throttle.wait(for: "192.0.2.7") == 60)
        #expect(throttle.wait(for: "192.0.2.8") == nil, "another address is not held off")
        clock.now += 59
        #expect(throttle.wait(for: "192.0.2.7") == 1)
        clock.now += 1
        #expect(throttle.wait(for: "192.0.2.7") == nil)
    }

    @Test func theConsoleAnswers429BeforeCheckingAnyPassword() throws {
        let console = try ConsoleFixture()
        _ = try console.setUp()
        var statuses: [Int] = []
        for index in 0..<21 {
            statuses.append(console.request("POST", "/api/v1/login", json: #"{"name":"guess\#(index)","password":"wrong password"}"#).status)
        }
        #expect(statuses.prefix(20).allSatisfy { $0 == 401 } && statuses.last == 429)
        // The right password from that address waits too; the per-name counter of alice is untouched.
        #expect(console.request("POST", "/api/v1/login", json: #"{"name":"alice","password":"correct horse battery"}"#).status == 429)
    }
}
