import FleetTrust
import Foundation
import Glibc
import HostMatching
import HubReplica
import HubStore
import JSONValue
import TemplateStore
import Testing
import TestSupport

/// `fpmod hub migrate` as a maker runs it, against a real PostgreSQL started for the test.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct HubCommandTests {
    @Test func migrateBringsAnEmptyDatabaseToTheSchemaThenChangesNothing() throws {
        let server = try TemporaryPostgres()
        let database = try server.newDatabase("fleet")
        let cli = CLI()
        let first = try cli.run(["hub", "migrate", "--database", database])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("from schema version 0 to \(HubSchema.currentVersion)"), "\(first.stdout)")
        #expect(try server.psql("fleet", "SELECT max(version) FROM hub_migrations") == String(HubSchema.currentVersion))

        // The database from the environment, and the answer as JSON.
        cli.environment["FPMOD_HUB_DATABASE"] = database
        let again = try cli.run(["hub", "migrate", "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let json = try #require(again.json, "\(again.stdout)")
        #expect(json["from"] as? Int == HubSchema.currentVersion && json["to"] as? Int == HubSchema.currentVersion)
        _ = try HubStore(conninfo: database)

        // Neither: the packaged hub's settings file, as fpmod-hub.service reads it (quoted, with comments).
        cli.environment["FPMOD_HUB_DATABASE"] = nil
        let settings = cli.directory + "/fpmod-hub"
        try "# the hub's settings\nFPMOD_HUB_LISTEN=0.0.0.0:8443\n\nFPMOD_HUB_DATABASE=\"\(database)\"\n".write(toFile: settings, atomically: true, encoding: .utf8)
        cli.environment["FPMOD_HUB_SETTINGS"] = settings
        let fromSettings = try cli.run(["hub", "migrate", "--json"])
        #expect(fromSettings.status == 0 && fromSettings.json?["to"] as? Int == HubSchema.currentVersion, "\(fromSettings.stderr)")
    }

    @Test func aNewerSchemaAnUnreachableServerAndNoDatabaseAreEachNamed() throws {
        let server = try TemporaryPostgres()
        let database = try server.newDatabase("fleet")
        let cli = CLI()
        #expect(try cli.run(["hub", "migrate", "--database", database]).status == 0)
        _ = try server.psql("fleet", "INSERT INTO hub_migrations (version) VALUES (99)")
        let newer = try cli.run(["hub", "migrate", "--database", database])
        #expect(newer.status == 65)
        #expect(newer.stderr.contains("99"), "\(newer.stderr)")
        #expect(try server.psql("fleet", "SELECT max(version) FROM hub_migrations") == "99")

        let gone = try cli.run(["hub", "migrate", "--database", "host=\(server.directory)/nothing dbname=fleet user=fpmod"])
        #expect(gone.status == 69, "\(gone.stderr)")
        #expect(!gone.stderr.isEmpty)

        cli.environment["FPMOD_HUB_SETTINGS"] = cli.directory + "/no-such-settings"
        let none = try cli.run(["hub", "migrate"])
        #expect(none.status == 64)
        #expect(none.stderr.contains("--database") && none.stderr.contains("no-such-settings"), "\(none.stderr)")
    }

    @Test func aUsersScheduleIsSetAndTakenAwayAtTheHub() throws {
        let server = try TemporaryPostgres()
        let cli = CLI()
        cli.environment["FPMOD_HUB_DATABASE"] = try server.newDatabase("fleet")
        try #require(try cli.run(["hub", "migrate"]).status == 0)
        #expect(try cli.run(["hub", "add-user", "bob", "--display-name", "Bob B."]).status == 0)
        #expect(try cli.run(["hub", "add-schedule", "office", "mon-fri 07:00-19:00"]).status == 0)
        let hub = try HubStore(conninfo: cli.environment["FPMOD_HUB_DATABASE"] ?? "")
        let before = try hub.latestRevision()
        #expect(try cli.run(["hub", "set-user", "bob"]).status == 64, "nothing to set")
        #expect(try cli.run(["hub", "set-user", "bob", "--schedule", "office", "--no-schedule"]).status == 64)
        #expect(try cli.run(["hub", "set-user", "bob", "--schedule", "nights"]).status == 64, "no such schedule")
        #expect(try cli.run(["hub", "set-user", "nobody", "--schedule", "office"]).status == 64)
        #expect(try hub.latestRevision() == before)
        let set = try cli.run(["hub", "set-user", "bob", "--schedule", "office"])
        #expect(set.status == 0 && set.stdout.contains("User bob has schedule office at revision"), "\(set.stdout) \(set.stderr)")
        let given = try #require(try hub.changes(since: before).first)
        #expect(given.key == "bob" && given.state?["schedule"]?.stringValue == "office" && given.state?["displayName"]?.stringValue == "Bob B.")
        #expect(try cli.run(["hub", "remove-schedule", "office"]).status != 0, "bob has it")
        #expect(try cli.run(["hub", "set-user", "bob", "--no-schedule", "--json"]).json?["schedule"] is NSNull)
        #expect(try cli.run(["hub", "remove-schedule", "office"]).status == 0)
    }

    /// A card the hub holds switched and given dates from the hub's CLI: each change a revision
    /// carrying the whole card; WHEN in UTC unless --time-zone says otherwise; a refusal changes
    /// nothing and an unknown card names `fpmod hub users`.
    @Test func aCardIsSwitchedAndGivenDatesAtTheHub() throws {
        let server = try TemporaryPostgres()
        let cli = CLI()
        cli.environment["FPMOD_HUB_DATABASE"] = try server.newDatabase("fleet")
        try #require(try cli.run(["hub", "migrate"]).status == 0)
        #expect(try cli.run(["hub", "add-user", "bob"]).status == 0)
        let hub = try HubStore(conninfo: cli.environment["FPMOD_HUB_DATABASE"] ?? "")
        let hash = [UInt8](repeating: 9, count: 32)
        try hub.putCard(HubCard(user: "bob", label: "badge", kind: .nfcUID, numberHash: hash))
        let before = try hub.latestRevision()
        #expect(try cli.run(["hub", "card-switch", "bob", "badge"]).status == 64)
        #expect(try cli.run(["hub", "card-switch", "bob", "badge", "maybe"]).status == 64)
        #expect(try cli.run(["hub", "card-validity", "bob", "badge", "--valid-from", "someday"]).status == 64)
        #expect(try cli.run(["hub", "card-validity", "bob", "badge", "--valid-from", "2026-12-27", "--valid-until", "2026-12-24"]).status == 64)
        #expect(try cli.run(["hub", "card-validity", "bob", "badge", "--valid-from", "2026-12-24", "--time-zone", "Mars/Olympus"]).status == 64)
        let unknown = try cli.run(["hub", "card-switch", "nobody", "badge", "off"])
        #expect(unknown.status == 64 && unknown.stderr.contains("fpmod hub users"), "\(unknown.stderr)")
        let lost = try cli.run(["hub", "card-validity", "bob", "lost"])
        #expect(lost.status == 64 && lost.stderr.contains("no card \"lost\" of \"bob\"; fpmod hub users lists them"), "\(lost.stderr)")
        // A label no door takes is refused as such, and what was typed comes back escaped.
        let control = try cli.run(["hub", "card-switch", "bob", "lost\u{1b}[2J", "off"])
        #expect(control.status == 64 && control.stderr.contains("not changed") && !control.stderr.contains("\u{1b}"), "\(control.stderr)")
        #expect(try hub.latestRevision() == before)

        let off = try cli.run(["hub", "card-switch", "bob", "badge", "off"])
        #expect(off.status == 0 && off.stdout.contains("Card badge of bob is off at revision"), "\(off.stdout) \(off.stderr)")
        #expect(try hub.changes(since: before).first?.state.flatMap(HubCard.init(json:))?.enabled == false)

        let beforeDates = try hub.latestRevision()
        let dated = try cli.run(["hub", "card-validity", "bob", "badge", "--valid-from", "2026-12-24 08:30", "--valid-until", "2026-12-26"])
        #expect(dated.status == 0 && dated.stdout.contains("valid from 2026-12-24 08:30 UTC, valid until 2026-12-27 00:00 UTC"), "\(dated.stdout) \(dated.stderr)")
        let card = try #require(try hub.changes(since: beforeDates).first?.state.flatMap(HubCard.init(json:)))
        #expect(card.validFrom == 1_798_101_000 && card.validUntil == 1_798_329_600 && !card.enabled, "the switch kept")
        // In the doors' zone: Berlin is an hour ahead of UTC in December.
        let berlin = try cli.run(["hub", "card-validity", "bob", "badge", "--valid-from", "2026-12-24", "--time-zone", "Europe/Berlin", "--json"])
        #expect(berlin.json?["validFrom"] as? Int == 1_798_070_400 - 3_600, "\(berlin.stdout) \(berlin.stderr)")
        #expect(berlin.json?["validUntil"] is NSNull)

        #expect(try cli.run(["hub", "card-switch", "bob", "badge", "on"]).status == 0)
        #expect(try cli.run(["hub", "card-validity", "bob", "badge"]).stdout.contains("no dates of its own"))
        #expect(try hub.cards(of: "bob") == [HubCard(user: "bob", label: "badge", kind: .nfcUID, numberHash: hash)])
    }

    /// A user's validity set from the hub's CLI with `fpmod user set`'s options: each change a
    /// revision carrying the whole user; what is not named stays; WHEN in UTC unless --time-zone
    /// says otherwise; every refusal before the hub is written to, an unknown user naming
    /// `fpmod hub users`, and what was typed never printed raw.
    @Test func aUsersValidityIsSetAtTheHub() throws {
        let server = try TemporaryPostgres()
        let cli = CLI()
        cli.environment["FPMOD_HUB_DATABASE"] = try server.newDatabase("fleet")
        try #require(try cli.run(["hub", "migrate"]).status == 0)
        #expect(try cli.run(["hub", "add-user", "bob", "--display-name", "Bob B."]).status == 0)
        let hub = try HubStore(conninfo: cli.environment["FPMOD_HUB_DATABASE"] ?? "")
        let before = try hub.latestRevision()
        let nothing = try cli.run(["hub", "user-validity", "bob"])
        #expect(nothing.status == 64 && nothing.stderr.contains("Nothing to set"), "\(nothing.stderr)")
        #expect(try cli.run(["hub", "user-validity"]).status == 64)
        #expect(try cli.run(["hub", "user-validity", "bob", "--uses", "3", "--unlimited-uses"]).status == 64)
        #expect(try cli.run(["hub", "user-validity", "bob", "--valid-from", "2026-12-24", "--no-valid-from"]).status == 64)
        #expect(try cli.run(["hub", "user-validity", "bob", "--uses", "-1"]).status == 64)
        #expect(try cli.run(["hub", "user-validity", "bob", "--uses", "many"]).status == 64)
        let typed = try cli.run(["hub", "user-validity", "bob", "--valid-from", "someday\u{1b}[2J"])
        #expect(typed.status == 64 && typed.stderr.contains("--valid-from") && !typed.stderr.contains("\u{1b}"), "\(typed.stderr)")
        let crossed = try cli.run(["hub", "user-validity", "bob", "--valid-from", "2026-12-27", "--valid-until", "2026-12-24"])
        #expect(crossed.status == 64 && crossed.stderr.contains("could never come in"), "\(crossed.stderr)")
        #expect(try cli.run(["hub", "user-validity", "bob", "--uses", "1", "--time-zone", "Mars/Olympus"]).status == 64)
        let unknown = try cli.run(["hub", "user-validity", "nobody", "--uses", "1"])
        #expect(unknown.status == 64 && unknown.stderr.contains("No user \"nobody\" on the hub; fpmod hub users lists them"), "\(unknown.stderr)")
        // A name no door takes is refused as such, and what was typed comes back escaped.
        let control = try cli.run(["hub", "user-validity", "bob\u{1b}[2J", "--uses", "1"])
        #expect(control.status == 64 && control.stderr.contains("not changed") && !control.stderr.contains("\u{1b}"), "\(control.stderr)")
        #expect(try hub.latestRevision() == before)

        let dated = try cli.run(["hub", "user-validity", "bob", "--valid-from", "2026-12-24 08:30", "--valid-until", "2026-12-26", "--uses", "3"])
        #expect(dated.status == 0 && dated.stdout.contains("User bob: valid from 2026-12-24 08:30 UTC, valid until 2026-12-27 00:00 UTC, 3 uses left at each door, at revision"),
                "\(dated.stdout) \(dated.stderr)")
        let change = try #require(try hub.changes(since: before).first)
        #expect(change.kind == .user && change.key == "bob" && change.state?["displayName"]?.stringValue == "Bob B.", "the whole user recorded")
        #expect(change.state?["validFrom"]?.intValue == 1_798_101_000 && change.state?["validUntil"]?.intValue == 1_798_329_600)
        #expect(change.state?["usesLeft"]?.intValue == 3)

        let listing = try cli.run(["hub", "users"]).stdout
        #expect(listing.contains("bob  no finger yet; valid from 2026-12-24 08:30 UTC, valid until 2026-12-27 00:00 UTC, 3 uses left at each door"), "\(listing)")
        let listedJSON = try cli.run(["hub", "users", "--json"]).json?["users"] as? [[String: Any]]
        #expect(listedJSON?.first?["usesLeft"] as? Int == 3, "\(String(describing: listedJSON))")

        // An end before the start the hub has: refused, nothing changed.
        let beforeEnd = try hub.latestRevision()
        let early = try cli.run(["hub", "user-validity", "bob", "--valid-until", "2026-12-20"])
        #expect(early.status == 64 && early.stderr.contains("not changed"), "\(early.stderr)")
        #expect(try hub.latestRevision() == beforeEnd)

        // In the doors' zone, and only the start changes: Berlin is an hour ahead of UTC in December.
        let berlin = try cli.run(["hub", "user-validity", "bob", "--valid-from", "2026-12-24", "--time-zone", "Europe/Berlin", "--json"])
        #expect(berlin.json?["validFrom"] as? Int == 1_798_070_400 - 3_600, "\(berlin.stdout) \(berlin.stderr)")
        #expect(berlin.json?["validUntil"] as? Int == 1_798_329_600 && berlin.json?["usesLeft"] as? Int == 3)

        let cleared = try cli.run(["hub", "user-validity", "bob", "--no-valid-from", "--no-valid-until", "--unlimited-uses"])
        #expect(cleared.status == 0 && cleared.stdout.contains("no dates and no limit on uses"), "\(cleared.stdout) \(cleared.stderr)")
        let listed = try #require(try hub.users(named: "bob").first)
        #expect(listed.validFrom == nil && listed.validUntil == nil && listed.usesLeft == nil && listed.displayName == "Bob B.")
    }
}

/// A hub (`fpmod hub serve`, a real process on a real PostgreSQL) and a door that joins and
/// follows it, the door's side played by curl with a key and request made as a door makes them.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct HubServeTests {
    @Test func usersAreAddedListedAndRemovedAtTheHub() throws {
        let running = try RunningHub()
        let cli = running.cli
        #expect(try cli.run(["hub", "users"]).stdout.contains("No users yet"))
        let added = try cli.run(["hub", "add-user", "alice", "--display-name", "Alice Liddell", "--admin", "--json"])
        #expect(added.status == 0 && added.json?["revision"] as? Int == 1, "\(added.stderr)")
        let twice = try cli.run(["hub", "add-user", "alice"])
        #expect(twice.status == 64 && twice.stderr.contains("already"), "\(twice.stderr)")
        #expect(try cli.run(["hub", "add-user", "no body"]).status != 0)
        let hub = try HubStore(conninfo: running.database)
        let template = Array("FPMH".utf8) + [UInt8(HostTemplate.currentFormat)] + Array(repeating: 1, count: 40)
        let key = FleetTemplateKey.generate()
        try hub.putFinger(HubFinger(user: "alice", label: "right-index", family: "host", templateSize: template.count,
                                    sealedTemplate: key.seal(template, user: "alice", label: "right-index", family: "host"), quality: 50))
        let listed = try cli.run(["hub", "users", "--json"])
        let users = try #require(listed.json?["users"] as? [[String: Any]], "\(listed.stdout)")
        #expect(users.count == 1 && users[0]["role"] as? String == "admin" && users[0]["displayName"] as? String == "Alice Liddell")
        #expect(users[0]["fingers"] as? [String] == ["right-index (host)"])
        #expect(try cli.run(["hub", "users"]).stdout.contains("alice (admin)  right-index (host)"))
        let removed = try cli.run(["hub", "remove-user", "alice"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try cli.run(["hub", "remove-user", "alice"]).status == 64)
        // Her finger's tombstone is in the log with hers.
        #expect(try hub.changes(since: 0).filter(\.isTombstone).map(\.kind) == [.finger, .user])
        #expect(running.stop() == 0)
    }

    @Test func schedulesAndHolidaysAddedAtTheHubReachADoor() throws {
        let running = try RunningHub()
        let cli = running.cli
        #expect(try cli.run(["hub", "add-user", "bob", "--schedule", "office"]).status == 64, "no such schedule yet")
        #expect(try cli.run(["hub", "add-schedule", "office", "mon-fri 07:00-19:00"]).status == 0)
        #expect(try cli.run(["hub", "add-schedule", "bad", "someday"]).status == 64)
        #expect(try cli.run(["hub", "add-user", "bob", "--schedule", "office"]).status == 0)
        let holiday = try cli.run(["hub", "add-holiday", "christmas", "--from", "2026-12-24", "--until", "2026-12-26", "--yearly", "--closed"])
        #expect(holiday.status == 0, "\(holiday.stderr)")
        #expect(try cli.run(["hub", "add-holiday", "backwards", "--from", "2026-12-26", "--until", "2026-12-24", "--closed"]).status == 64)
        #expect(try cli.run(["hub", "remove-schedule", "office"]).status != 0, "bob still has it")

        let door = try FleetFollowTests.joinedDoor(running, name: "garage")
        let synced = try door.run(["fleet", "sync", "--json"])
        #expect(synced.status == 0 && synced.json?["holidaysPut"] as? Int == 1 && synced.json?["schedulesPut"] as? Int == 1, "\(synced.stdout)")
        #expect(try door.run(["holiday", "list"]).stdout.contains("christmas"))
        let schedules = try door.run(["schedule", "list"]).stdout
        #expect(schedules.contains("office  weekdays 07:00-19:00  (bob)"), "\(schedules)")

        #expect(try cli.run(["hub", "remove-holiday", "christmas"]).status == 0)
        #expect(try cli.run(["hub", "remove-holiday", "christmas"]).status == 64)
        let again = try door.run(["fleet", "sync", "--json"])
        #expect(again.json?["holidaysRemoved"] as? Int == 1, "\(again.stdout)")
        #expect(try door.run(["holiday", "list"]).stdout.contains("No holidays"))
        #expect(running.stop() == 0)
    }

    static func curl(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--show-error"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return (-1, "cannot run curl") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func aDoorJoinsWithItsCodeFollowsTheHubAndIsShutOutWhenRevoked() throws {
        let running = try RunningHub()
        let (server, cli, base, directory) = (running.server, running.cli, running.base, running.directory)
        let hub = try HubStore(conninfo: running.database)
        try hub.putSchedule(name: "office", text: "mon-fri 07:00-19:00")
        try hub.putUser(HubUser(name: "alice", schedule: "office"))
        let code = try running.joinCode(for: "garage")
        let authority = running.authorityPath
        // Whoever holds the authority's key can make a door: only root reads it.
        var info = stat()
        #expect(stat(directory + "/authority.key", &info) == 0 && info.st_mode & 0o077 == 0)

        // The door: its key (kept) and request (sent with the code).
        let door = try DoorRequest.make()
        try door.privateKeyPEM.write(toFile: cli.directory + "/door.key", atomically: true, encoding: .utf8)
        let body = JSONValue.object(["code": .string(code), "request": .string(door.requestPEM)]).encoded
        let joined = Self.curl(["--cacert", authority, "--data-binary", body, "-H", "Content-Type: application/json", base + "/v1/join"])
        let reply = try JSONValue(parsing: joined.output)
        let certificate = try #require(reply["certificate"]?.stringValue, "\(joined.output) \(running.process.log)")
        #expect(reply["door"]?.stringValue == "garage")
        let authorityPEM = try String(contentsOfFile: authority, encoding: .utf8)
        #expect(reply["authority"]?.stringValue == authorityPEM)
        try certificate.write(toFile: cli.directory + "/door.pem", atomically: true, encoding: .utf8)
        let asDoor = ["--cacert", authority, "--cert", cli.directory + "/door.pem", "--key", cli.directory + "/door.key"]

        // The answer lost, the door asks again with the key it kept (a new request): the same
        // certificate. Another key with the code (another machine) is refused.
        let retried = try DoorRequest.make(privateKeyPEM: door.privateKeyPEM)
        let retryBody = JSONValue.object(["code": .string(code), "request": .string(retried.requestPEM)]).encoded
        let again = try JSONValue(parsing: Self.curl(["--cacert", authority, "--data-binary", retryBody, base + "/v1/join"]).output)
        #expect(again["certificate"]?.stringValue == certificate && again["door"]?.stringValue == "garage", "\(again)")
        #expect(running.process.log.contains("door garage asked again"), "\(running.process.log)")
        let otherMachine = try DoorRequest.make()
        let strangerBody = JSONValue.object(["code": .string(code), "request": .string(otherMachine.requestPEM)]).encoded
        let refused = Self.curl(["--cacert", authority, "--data-binary", strangerBody, "--write-out", "%{http_code}", "--output", "/dev/null", base + "/v1/join"])
        #expect(refused.output == "403")

        // The door follows: the changes it pulls, applied to a door's store, give it alice.
        let pulled = Self.curl(asDoor + [base + "/v1/changes?since=0"])
        // It used its certificate: the code is spent, even for its own key.
        let spent = Self.curl(["--cacert", authority, "--data-binary", body, "--write-out", "%{http_code}", "--output", "/dev/null", base + "/v1/join"])
        #expect(spent.output == "403")
        let page = try JSONValue(parsing: pulled.output)
        let changes = try #require(page["changes"]?.arrayValue, "\(pulled.output)").map { item in
            HubChange(revision: item["revision"]?.numberValue.map { Int64($0) } ?? 0,
                      kind: HubChange.Kind(rawValue: item["kind"]?.stringValue ?? "") ?? .card, key: item["key"]?.stringValue ?? "",
                      state: item["state"] == .null ? nil : item["state"])
        }
        let store = try TemplateStore(databasePath: cli.directory + "/door.db", keyPath: cli.directory + "/door.key.store")
        let applied = try ReplicaApply.apply(changes, to: store)
        #expect(applied.usersPut == 1 && applied.schedulesPut == 1)
        #expect(try store.access(of: "alice").schedule == "office")

        // A long poll: the door waits above what it has; a change at the hub answers it at once
        // (were it not heard, the answer would come after 30 s without bob).
        let waiting = Process()
        waiting.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        waiting.arguments = ["--silent"] + asDoor + [base + "/v1/changes?since=\(applied.to)&wait=30"]
        let waited = Pipe()
        waiting.standardOutput = waited
        try waiting.run()
        usleep(300_000)
        try hub.putUser(HubUser(name: "bob"))
        let woken = try JSONValue(parsing: String(decoding: waited.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        waiting.waitUntilExit()
        #expect(woken["changes"]?.arrayValue?.compactMap { $0["key"]?.stringValue } == ["bob"], "\(woken)")
        // Nothing comes: the answer after the wait is an empty page, not a connection the
        // server's idle limit (10 s) cut.
        let quiet = Self.curl(asDoor + [base + "/v1/changes?since=\(woken["latest"]?.intValue ?? 0)&wait=11"])
        #expect((try? JSONValue(parsing: quiet.output))?["changes"] == .array([]), "\(quiet.output)")

        // A client that accepts gzip gets the page compressed (curl's own zlib reads it back to
        // the same text); one that does not, plain. A page under a kilobyte is sent as it is.
        #expect(!Self.curl(asDoor + ["--compressed", "--dump-header", "-", base + "/v1/changes?since=0"]).output.lowercased().contains("content-encoding"))
        for index in 0..<40 { try hub.putUser(HubUser(name: "visitor\(index)", displayName: "Visitor number \(index) of the open day")) }
        let plainPage = Self.curl(asDoor + [base + "/v1/changes?since=0"]).output
        let gzipped = Self.curl(asDoor + ["--compressed", "--dump-header", cli.directory + "/headers.txt", base + "/v1/changes?since=0"]).output
        let gzipHeaders = (try? String(contentsOfFile: cli.directory + "/headers.txt", encoding: .utf8)) ?? ""
        #expect(gzipHeaders.lowercased().contains("content-encoding: gzip") && gzipped == plainPage && plainPage.count > 2_000, "\(gzipHeaders)")

        // Without a certificate, or with one from another fleet: not a door.
        let anonymous = Self.curl(["--cacert", authority, "--write-out", "%{http_code}", "--output", "/dev/null", base + "/v1/changes?since=0"])
        #expect(anonymous.output == "401")
        let stranger = try FleetAuthority.make(name: "another fleet")
        try stranger.issueDoorCertificate(requestPEM: door.requestPEM, doorName: "garage").certificatePEM
            .write(toFile: cli.directory + "/stranger.pem", atomically: true, encoding: .utf8)
        let foreign = Self.curl(["--cacert", authority, "--cert", cli.directory + "/stranger.pem", "--key", cli.directory + "/door.key",
                                 "--write-out", "%{http_code}", "--output", "/dev/null", base + "/v1/changes?since=0"])
        #expect(foreign.output != "200")

        // The door's events: kept once, a retry counted, a gap named, a changed event refused.
        func event(_ sequence: Int, previous: Int, changed: Bool = false) -> JSONValue {
            func hash(_ n: Int) -> String { String(repeating: String(format: "%02x", n), count: 32) }
            return .object(["sequence": .int(Int64(sequence)), "time": .double(1_764_950_400 + Double(sequence)), "event": .string("match"),
                            "user": .string("alice"), "detail": changed ? .string("edited") : .null,
                            "previousHash": .string(hash(previous)), "hash": .string(hash(changed ? 99 : sequence))])
        }
        func upload(_ events: [JSONValue]) throws -> (status: String, reply: JSONValue?) {
            let body = JSONValue.object(["events": .array(events)]).encoded
            let result = Self.curl(asDoor + ["--data-binary", body, "--write-out", "\n%{http_code}", base + "/v1/events"])
            let lines = result.output.split(separator: "\n")
            return (String(lines.last ?? ""), lines.count > 1 ? try? JSONValue(parsing: String(lines[0])) : nil)
        }
        let first = try upload([event(1, previous: 0), event(2, previous: 1), event(3, previous: 2), event(5, previous: 4)])
        #expect(first.status == "200" && first.reply?["inserted"]?.intValue == 4, "\(first)")
        #expect(first.reply?["missing"] == .array([.array([.int(4), .int(4)])]))
        let retry = try upload([event(1, previous: 0), event(2, previous: 1), event(4, previous: 3)])
        #expect(retry.status == "200" && retry.reply?["duplicates"]?.intValue == 2 && retry.reply?["inserted"]?.intValue == 1, "\(retry)")
        #expect(retry.reply?["missing"] == .array([]))
        let changed = try upload([event(3, previous: 2, changed: true)])
        #expect(changed.status == "409", "\(changed)")
        let kept = try server.psql("fleet", "SELECT count(*) FROM door_events")
        #expect(kept == "5")

        // The fleet's template key, for a door only (0600 at the hub); a finger is taken only
        // sealed under it for that finger, as a host matcher's template, for a user of the hub.
        #expect(stat(directory + "/template.key", &info) == 0 && info.st_mode & 0o077 == 0)
        let keyReply = try JSONValue(parsing: Self.curl(asDoor + [base + "/v1/template-key"]).output)
        let fleetKey = try #require(keyReply["key"]?.stringValue.flatMap(FleetTemplateKey.init(hex:)), "\(keyReply)")
        let noKey = Self.curl(["--cacert", authority, "--write-out", "%{http_code}", "--output", "/dev/null", base + "/v1/template-key"])
        #expect(noKey.output == "401")
        func putFinger(_ user: String, template: [UInt8], sealedFor owner: String? = nil, key: FleetTemplateKey? = nil) -> String {
            let sealed = (key ?? fleetKey).seal(template, user: owner ?? user, label: "right-index", family: "host")
            let body = JSONValue.object(["user": .string(user), "label": .string("right-index"), "family": .string("host"),
                                         "size": .int(Int64(template.count)), "quality": .int(50), "duress": .bool(false),
                                         "template": .string(Data(sealed).base64EncodedString())]).encoded
            return Self.curl(asDoor + ["--data-binary", body, "--write-out", "%{http_code}", "--output", "/dev/null", base + "/v1/fingers"]).output
        }
        let hostTemplate = Array("FPMH".utf8) + [UInt8(HostTemplate.currentFormat)] + Array(repeating: 1, count: 40)
        #expect(putFinger("alice", template: hostTemplate, sealedFor: "bob") == "409")
        #expect(putFinger("alice", template: hostTemplate, key: .generate()) == "409")
        #expect(putFinger("alice", template: Array(repeating: 7, count: 512)) == "409", "a module's bytes as a host finger")
        #expect(putFinger("nobody", template: hostTemplate) == "404")
        #expect(try hub.fingers(of: "alice").isEmpty)

        // A door's change to a card: only a well-formed one, only by a door, only of a card the hub has.
        func cardEdit(_ route: String, _ body: String, door: Bool = true) -> String {
            Self.curl((door ? asDoor : ["--cacert", authority]) + ["--data-binary", body, "--write-out", "%{http_code}", "--output", "/dev/null",
                                                                  base + "/v1/cards/" + route]).output
        }
        let hash = String(repeating: "ab", count: 32)
        #expect(cardEdit("remove", #"{"user":"alice","label":"badge","hash":"\#(hash)"}"#) == "404")
        #expect(cardEdit("update", #"{"user":"alice","label":"badge","hash":"\#(hash)","enabled":false}"#) == "404")
        #expect(cardEdit("update", #"{"user":"alice","label":"badge","hash":"\#(hash)","enabled":"no"}"#) == "400")
        #expect(cardEdit("remove", #"{"user":"alice","label":"badge","hash":"abcd"}"#) == "400")
        #expect(cardEdit("remove", #"{"user":"alice","label":"badge","hash":"\#(hash)"}"#, door: false) == "401")
        #expect(Self.curl(asDoor + ["--write-out", "%{http_code}", "--output", "/dev/null", base + "/v1/cards/remove"]).output == "405")

        // Revoked at the hub: refused from the next request on, and listed so.
        #expect(try cli.run(["hub", "revoke-door", "garage"]).status == 0)
        let revoked = Self.curl(asDoor + ["--write-out", "%{http_code}", "--output", "/dev/null", base + "/v1/changes?since=0"])
        #expect(revoked.output == "403")
        #expect(try upload([event(6, previous: 5)]).status == "403")
        let listed = try cli.run(["hub", "doors", "--json"])
        let doors = try #require(listed.json?["doors"] as? [[String: Any]], "\(listed.stdout)")
        #expect(doors.count == 1 && doors.first?["revoked"] as? Bool == true)
        // The revision the door last asked from: what it had applied.
        #expect(doors.first?["lastRevision"] as? Int == woken["latest"]?.intValue, "\(doors)")
        #expect(try cli.run(["hub", "add-door", "garage"]).status != 0)

        #expect(running.stop() == 0, "\(running.process.log)")
        #expect(running.process.log.contains("door garage joined"))
    }
}
