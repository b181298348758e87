import FleetTrust
import Foundation
import HubStore
import JSONValue
import TemplateStore
import Testing
import TestSupport

/// The fleet console on a real `fpmod hub serve` and a real PostgreSQL, spoken to by curl as a
/// browser would (a cookie jar, the Origin, the CSRF token): its first admin only with the code
/// from the hub's machine, a door revoked from it is refused at once, a viewer changes nothing,
/// a request from another origin or without the token changes nothing, every change audited.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct FleetConsoleTests {
    /// A browser's request: `(status, JSON answer)`. `origin` nil: none sent.
    static func call(_ running: RunningHub, _ method: String, _ path: String, body: JSONValue? = nil, jar: String,
                     origin: String? = "", csrf: String? = nil) throws -> (status: Int, json: JSONValue?) {
        var arguments = ["--cacert", running.authorityPath, "--cookie", jar, "--cookie-jar", jar, "--request", method,
                         "--write-out", "\n%{http_code}"]
        if let origin { arguments += ["-H", "Origin: " + (origin.isEmpty ? running.base : origin)] }
        if let csrf { arguments += ["-H", "X-CSRF-Token: " + csrf] }
        if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body.encoded] }
        let output = HubServeTests.curl(arguments + [running.base + path]).output
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? -1
        let text = lines.dropLast().joined(separator: "\n")
        return (status, text.isEmpty ? nil : try? JSONValue(parsing: text))
    }

    /// A door joined as `fpmod join` would: its key and certificate files, for curl.
    static func joinedDoor(_ running: RunningHub, _ name: String, code: String) throws -> [String] {
        let request = try DoorRequest.make()
        let key = running.cli.directory + "/\(name).key", certificate = running.cli.directory + "/\(name).pem"
        try request.privateKeyPEM.write(toFile: key, atomically: true, encoding: .utf8)
        let body = JSONValue.object(["code": .string(code), "request": .string(request.requestPEM)]).encoded
        let joined = HubServeTests.curl(["--cacert", running.authorityPath, "--data-binary", body, "-H", "Content-Type: application/json",
                                           running.base + "/v1/join"])
        let answer = try JSONValue(parsing: joined.output)
        let pem = try #require(answer["certificate"]?.stringValue, "\(joined.output)")
        try pem.write(toFile: certificate, atomically: true, encoding: .utf8)
        return ["--cacert", running.authorityPath, "--cert", certificate, "--key", key]
    }

    static func doorStatus(_ running: RunningHub, _ door: [String]) -> String {
        HubServeTests.curl(door + ["--write-out", "%{http_code}", "--output", "/dev/null", running.base + "/v1/changes?since=0"]).output
    }

    @Test func aStolenDoorIsRevokedFromTheConsoleByAnAdminOnly() throws {
        let running = try RunningHub()
        let hub = try HubStore(conninfo: running.database)
        try hub.putUser(HubUser(name: "alice"))
        let garage = try Self.joinedDoor(running, "garage", code: try running.joinCode(for: "garage"))
        #expect(Self.doorStatus(running, garage) == "200")
        #expect(running.process.log.contains("fpmod hub console-setup-code"), "serve says how to make the first admin")
        let admin = running.cli.directory + "/admin.jar", viewer = running.cli.directory + "/viewer.jar"

        // No default account: the page is the setup form, and setup needs the code from the hub's machine.
        let page = HubServeTests.curl(["--cacert", running.authorityPath, "--dump-header", "-", running.base + "/fleet"]).output
        #expect(page.contains("data-page=\"setup\"") && page.lowercased().contains("content-security-policy: default-src 'self'"), "\(page)")
        let password = "correct horse battery"
        #expect(try Self.call(running, "POST", "/fleet/api/setup", body: ["code": "0000-0000-0000-0000", "name": "admin", "password": .string(password)],
                              jar: admin).status == 403, "no code was issued")
        let issued = try running.cli.run(["hub", "console-setup-code", "--dir", running.directory, "--json"])
        let code = try #require(issued.json?["code"] as? String, "\(issued.stdout) \(issued.stderr)")
        let setupBody: JSONValue = ["code": .string(code), "name": "admin", "password": .string(password)]
        #expect(try Self.call(running, "POST", "/fleet/api/setup", body: setupBody, jar: admin, origin: "https://evil.example").status == 403)
        let setUp = try Self.call(running, "POST", "/fleet/api/setup", body: setupBody, jar: admin)
        #expect(setUp.status == 200, "\(String(describing: setUp.json))")
        let csrf = try #require(setUp.json?["csrf"]?.stringValue)
        #expect(try running.cli.run(["hub", "console-setup-code", "--dir", running.directory]).status != 0, "one first admin")
        #expect(try Self.call(running, "GET", "/fleet/api/doors", jar: running.cli.directory + "/nobody.jar").status == 401)

        // The admin sees the doors and users.
        let doors = try Self.call(running, "GET", "/fleet/api/doors", jar: admin)
        let listed = try #require(doors.json?["doors"]?.arrayValue)
        #expect(listed.map { $0["name"]?.stringValue } == ["garage"] && listed.first?["state"]?.stringValue == "joined")
        let users = try Self.call(running, "GET", "/fleet/api/users", jar: admin)
        #expect(users.json?["users"]?.arrayValue?.map { $0["name"]?.stringValue } == ["alice"])
        #expect(try Self.call(running, "GET", "/fleet/api/user?name=alice", jar: admin).json?["user"]?["fingerReach"]?.arrayValue?.isEmpty == true)

        // A change without the session's token, or from another page, changes nothing.
        let revoke: JSONValue = ["name": "garage"]
        #expect(try Self.call(running, "POST", "/fleet/api/doors/revoke", body: revoke, jar: admin).status == 403)
        #expect(try Self.call(running, "POST", "/fleet/api/doors/revoke", body: revoke, jar: admin, origin: "https://evil.example", csrf: csrf).status == 403)
        #expect(try Self.call(running, "POST", "/fleet/api/doors/revoke", body: revoke, jar: admin, origin: nil, csrf: csrf).status == 403)
        #expect(Self.doorStatus(running, garage) == "200")

        // A viewer looks and changes nothing.
        let added = try Self.call(running, "POST", "/fleet/api/accounts", body: ["name": "watcher", "role": "viewer", "password": .string(password)],
                                  jar: admin, csrf: csrf)
        #expect(added.status == 200, "\(String(describing: added.json))")
        let signedIn = try Self.call(running, "POST", "/fleet/api/login", body: ["name": "watcher", "password": .string(password)], jar: viewer)
        let viewerCSRF = try #require(signedIn.json?["csrf"]?.stringValue, "\(String(describing: signedIn.json))")
        #expect(try Self.call(running, "GET", "/fleet/api/doors", jar: viewer).status == 200)
        #expect(try Self.call(running, "POST", "/fleet/api/doors/revoke", body: revoke, jar: viewer, csrf: viewerCSRF).status == 403)
        #expect(try Self.call(running, "POST", "/fleet/api/users/remove", body: ["name": "alice"], jar: viewer, csrf: viewerCSRF).status == 403)
        #expect(Self.doorStatus(running, garage) == "200")
        #expect(try hub.hasUser(named: "alice"))

        // The admin revokes the stolen door: its very next request is refused.
        #expect(try Self.call(running, "POST", "/fleet/api/doors/revoke", body: ["name": "nowhere"], jar: admin, csrf: csrf).status == 404)
        let revoked = try Self.call(running, "POST", "/fleet/api/doors/revoke", body: revoke, jar: admin, csrf: csrf)
        #expect(revoked.status == 200, "\(String(describing: revoked.json))")
        #expect(Self.doorStatus(running, garage) == "403")
        #expect(try Self.call(running, "GET", "/fleet/api/doors", jar: admin).json?["doors"]?.arrayValue?.first?["state"]?.stringValue == "revoked")

        // A join code made there joins a new door; the code is shown once and never audited.
        let made = try Self.call(running, "POST", "/fleet/api/doors/add", body: ["name": "garage-2"], jar: admin, csrf: csrf)
        let newCode = try #require(made.json?["code"]?.stringValue, "\(String(describing: made.json))")
        let replacement = try Self.joinedDoor(running, "garage-2", code: newCode)
        #expect(Self.doorStatus(running, replacement) == "200")
        // Users, cards and door modes are edited there too; a card's number is kept nowhere.
        #expect(try Self.call(running, "POST", "/fleet/api/users", body: ["name": "bob", "displayName": "Bob B."], jar: viewer, csrf: viewerCSRF).status == 403)
        #expect(try Self.call(running, "POST", "/fleet/api/users", body: ["name": "bob", "displayName": "Bob B."], jar: admin, csrf: csrf).status == 201)
        #expect(try Self.call(running, "POST", "/fleet/api/users", body: ["name": "bob"], jar: admin, csrf: csrf).status == 409)
        #expect(try Self.call(running, "POST", "/fleet/api/users", body: ["name": "bad name"], jar: admin, csrf: csrf).status == 400)
        #expect(try Self.call(running, "POST", "/fleet/api/cards", body: ["user": "bob", "number": "26:123:4567", "label": "badge"], jar: admin, csrf: csrf).status == 201)
        #expect(try Self.call(running, "POST", "/fleet/api/cards", body: ["user": "alice", "number": "26:123:4567"], jar: admin, csrf: csrf).status == 409)
        #expect(try Self.call(running, "POST", "/fleet/api/cards", body: ["user": "bob", "number": "26:nope"], jar: admin, csrf: csrf).status == 400)
        #expect(try Self.call(running, "POST", "/fleet/api/cards", body: ["user": "nobody", "number": "26:1:2"], jar: admin, csrf: csrf).status == 404)
        let bobsCards = try hub.cards(of: "bob")
        let fleetKey = try #require(FleetTemplateKey(hex: try String(contentsOfFile: running.directory + "/template.key", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        let badge = try CardNumber(parsing: "26:123:4567")
        #expect(bobsCards.map(\.label) == ["badge"] && bobsCards.first?.numberHash == fleetKey.cardHash(badge))
        #expect(try Self.call(running, "POST", "/fleet/api/cards/remove", body: ["user": "bob", "label": "badge"], jar: admin, csrf: csrf).status == 200)
        #expect(try hub.cards(of: "bob").isEmpty)
        #expect(try Self.call(running, "POST", "/fleet/api/doors/mode", body: ["name": "garage-2", "mode": "sideways"], jar: admin, csrf: csrf).status == 400)
        #expect(try Self.call(running, "POST", "/fleet/api/doors/mode", body: ["name": "nowhere", "mode": "lockdown"], jar: admin, csrf: csrf).status == 404)
        #expect(try Self.call(running, "POST", "/fleet/api/doors/mode", body: ["name": "garage-2", "mode": "lockdown"], jar: admin, csrf: csrf).status == 200)
        #expect(try running.server.psql("fleet", "SELECT mode FROM door_modes").contains("lockdown"))
        #expect(try Self.call(running, "POST", "/fleet/api/users/remove", body: ["name": "alice"], jar: admin, csrf: csrf).status == 200)
        #expect(try !hub.hasUser(named: "alice"))

        // Every change is in the audit log under the account that made it.
        let audit = try #require(try Self.call(running, "GET", "/fleet/api/audit", jar: admin).json?["entries"]?.arrayValue)
        let details = audit.compactMap { $0["detail"]?.stringValue }
        #expect(details.contains { $0.contains("console account admin") && $0.contains("door garage revoked") }, "\(details)")
        #expect(details.contains { $0.contains("console account admin") && $0.contains("join code made for door garage-2") })
        #expect(details.contains { $0.contains("user alice removed") })
        #expect(!details.contains { $0.contains(newCode) } && !details.contains { $0.contains(code) } && !details.contains { $0.contains("4567") })
        #expect(details.contains { $0.contains("card badge (wiegand) given to bob") } && details.contains { $0.contains("door garage-2 set to lockdown") })
        #expect(details.contains { $0.contains("user bob added") } && details.contains { $0.contains("card badge of bob removed") })
        #expect(audit.contains { $0["event"]?.stringValue == "console-setup" })

        // Signed out, the cookie opens nothing.
        #expect(try Self.call(running, "POST", "/fleet/api/logout", jar: admin, csrf: csrf).status == 204)
        #expect(try Self.call(running, "GET", "/fleet/api/doors", jar: admin).status == 401)
        #expect(running.stop() == 0, "\(running.process.log)")
    }
}
