import Foundation
import Glibc
import HubStore
import JSONValue
import TemplateStore
import Testing
import TestSupport

/// A joined door following a real `fpmod hub serve`: `fpmod fleet sync` once, and the service
/// (`fpmod run`) on its own — changes pulled over mutual TLS, applied, the door's audit records
/// uploaded, a revocation heard.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct FleetFollowTests {
    static func joinedDoor(_ hub: RunningHub, name: String) throws -> CLI {
        let door = try JoinCommandTests.door()
        let joined = try door.run(["join", hub.base, try hub.joinCode(for: name), "--authority-sha256", hub.authoritySHA256])
        try #require(joined.status == 0, "\(joined.stderr)")
        return door
    }

    static func userNames(_ door: CLI) throws -> [String] {
        try TemplateStore(databasePath: door.directory + "/store.db", keyPath: door.directory + "/key").users().map(\.name).sorted()
    }

    /// 300 fingers of 60 KB (a module family's: this door takes none) make a log of ~24 MB of
    /// JSON, more than a door reads in one answer (16 MiB): the hub ends each page before 4 MiB,
    /// and the door reads on from where each ended until it has the whole log.
    @Test func aLogOfLargeFingersIsReadInPagesThatFit() throws {
        let hub = try RunningHub()
        let store = try HubStore(conninfo: hub.database)
        try store.putUser(HubUser(name: "alice"))
        let key = FleetTemplateKey.generate()
        let template = [UInt8](repeating: 0x5A, count: 60_000)
        for index in 0..<300 {
            let label = "finger-\(index)"
            try store.putFinger(HubFinger(user: "alice", label: label, family: "r307", templateSize: template.count,
                                          sealedTemplate: key.seal(template, user: "alice", label: label, family: "r307"), quality: 60))
        }
        let door = try Self.joinedDoor(hub, name: "garage")
        let synced = try door.run(["fleet", "sync", "--json"])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.json?["usersPut"] as? Int == 1, "\(synced.stdout)")
        #expect(synced.json?["fingersForOtherReaders"] as? Int == 300, "\(synced.stdout)")
        let revision = try TemplateStore(databasePath: door.directory + "/store.db", keyPath: door.directory + "/key").hubRevision()
        let latest = try store.latestRevision()
        #expect(revision == latest)
    }

    @Test func fleetSyncAppliesTheHubsChangesAndUploadsTheDoorsRecords() throws {
        let hub = try RunningHub()
        let store = try HubStore(conninfo: hub.database)
        try store.putSchedule(name: "office", text: "mon-fri 07:00-19:00")
        try store.putUser(HubUser(name: "alice", schedule: "office"))
        let door = try Self.joinedDoor(hub, name: "garage")

        let synced = try door.run(["fleet", "sync", "--json"])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.json?["usersPut"] as? Int == 1 && synced.json?["schedulesPut"] as? Int == 1, "\(synced.stdout)")
        #expect(try Self.userNames(door) == ["alice"])
        // The door's chained records (its join, this sync) are at the hub, once each.
        let sent = try #require(synced.json?["eventsSent"] as? Int)
        #expect(sent >= 2)
        #expect(try hub.server.psql("fleet", "SELECT count(*) FROM door_events") == String(sent))
        #expect(try hub.server.psql("fleet", "SELECT count(*) FROM door_events WHERE event = 'fleet-join'") == "1")

        // Again: nothing new, nothing sent twice.
        let again = try door.run(["fleet", "sync", "--json"])
        #expect(again.status == 0 && again.json?["from"] as? Int == again.json?["to"] as? Int, "\(again.stdout)")
        #expect(again.json?["eventsSent"] as? Int == 0)

        let status = try door.run(["fleet", "status", "--json"])
        #expect(status.json?["door"] as? String == "garage" && status.json?["revision"] as? Int == synced.json?["to"] as? Int, "\(status.stdout)")

        // Removed at the hub, gone from the door.
        _ = try store.deleteUser(named: "alice")
        let removed = try door.run(["fleet", "sync"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try Self.userNames(door) == [])

        // Revoked: refused, said so, and the door keeps what it has.
        #expect(try hub.cli.run(["hub", "revoke-door", "garage"]).status == 0)
        let revoked = try door.run(["fleet", "sync"])
        #expect(revoked.status == 1 && revoked.stderr.contains("revoked"), "\(revoked.stderr)")
        #expect(hub.stop() == 0)
    }

    @Test func aDoorThatJoinedNoFleetIsToldHow() throws {
        let door = try JoinCommandTests.door()
        let sync = try door.run(["fleet", "sync"])
        #expect(sync.status == 78 && sync.stderr.contains("fpmod join"), "\(sync.stderr)")
        let status = try door.run(["fleet", "status", "--json"])
        #expect(status.status == 0 && status.json?["joined"] as? Bool == false)
    }

    @Test func theServiceFollowsTheHubAsChangesCommitAndHearsARevocation() throws {
        let hub = try RunningHub()
        let store = try HubStore(conninfo: hub.database)
        try store.putUser(HubUser(name: "alice"))
        let door = try Self.joinedDoor(hub, name: "garage")
        let service = try ServiceControlCLITests.RunningService(door)
        defer { service.stop() }

        // The first sync brings alice; a user added at the hub later reaches the door while
        // its long poll waits (the hub answers it at the commit).
        try waitFor("alice at the door") { try Self.userNames(door) == ["alice"] }
        try store.putUser(HubUser(name: "bob"))
        try waitFor("bob at the door") { try Self.userNames(door) == ["alice", "bob"] }
        #expect(service.log.contains("fleet: following the hub at \(hub.base) as door garage"), "\(service.log)")
        // Its records reach the hub too (the join, the syncs).
        try waitFor("the door's records at the hub") {
            Int(try hub.server.psql("fleet", "SELECT count(*) FROM door_events WHERE event = 'hub-sync'")) ?? 0 >= 2
        }

        // Revoked while it waits: the hub's answer says so, and the service says so once.
        #expect(try hub.cli.run(["hub", "revoke-door", "garage"]).status == 0)
        try store.putUser(HubUser(name: "carol"))
        try waitFor("the revocation in the service's log") { service.log.contains("it was revoked") }
        #expect(try Self.userNames(door) == ["alice", "bob"])
        service.stop()
        #expect(service.process.terminationStatus == 0, "\(service.log)")
        #expect(hub.stop() == 0)
    }

    @Test func aHubSilentLongerThanAllowedRaisesTheAlarmAndLetsOnlyAdminsIn() throws {
        let hub = try RunningHub()
        let door = try Self.joinedDoor(hub, name: "garage")
        // The hub is gone, and the door last heard from it two hours ago (kept in its store).
        #expect(hub.stop() == 0)
        try TemplateStore(databasePath: door.directory + "/store.db", keyPath: door.directory + "/key")
            .setValue(String(Date().timeIntervalSince1970 - 7_200), forKey: "hub.lastContact")
        let service = try ServiceControlCLITests.RunningService(
            door, policy: #"{"relayPulseSeconds": 0.3, "pinRequiredAfterEnrolledSetChange": false}"#,
            sections: #""fleet": {"staleAfterMinutes": 60, "whenStale": "admins-only"}"#)
        defer { service.stop() }
        let config = ["--config", service.config]
        try waitFor("the alarm") { service.log.contains("fleet: no answer from the hub for 120 min") }
        #expect(service.log.contains("only admins are let in"), "\(service.log)")

        try service.simulator("touch alice-right-index 6")
        #expect(try door.run(config + ["enroll", "alice", "--finger", "right-index"]).status == 0)
        try service.simulator("touch bob-right-index 6")
        #expect(try door.run(config + ["enroll", "bob", "--finger", "right-index", "--admin"]).status == 0)
        let before = try door.auditEvents().count
        try service.simulator("touch alice-right-index 1")
        try waitFor("alice refused for the silence") { service.log.contains("hub-silent") }
        try service.simulator("touch bob-right-index 1")
        try waitFor("bob let in") { try door.auditEvents().dropFirst(before).contains("granted") }
        #expect(try door.auditEvents().dropFirst(before).filter { $0 == "granted" }.count == 1, "\(service.log)")
    }

    /// A module door: alice enrolled there (a template in the module's flash) and removed at the
    /// hub. The service deletes her template from the module between touches, and her touch is
    /// refused as no match, never taken for a module changed behind fpmod's back (tamper).
    @Test func aUserRemovedAtTheHubLeavesTheModulesFlashAndHerTouchIsNoTamper() throws {
        let hub = try RunningHub()
        let store = try HubStore(conninfo: hub.database)
        try store.putUser(HubUser(name: "alice"))
        try store.putUser(HubUser(name: "bob"))
        let door = try Self.joinedDoor(hub, name: "garage")
        let service = try ServiceControlCLITests.RunningService(door, policy: #"{"pinRequiredAfterEnrolledSetChange": false}"#)
        defer { service.stop() }
        let config = ["--config", service.config]
        try waitFor("alice at the door") { try Self.userNames(door) == ["alice", "bob"] }
        try service.simulator("touch alice-right-index 6")
        #expect(try door.run(config + ["enroll", "alice", "--finger", "right-index"]).status == 0)
        try service.simulator("touch bob-right-index 6")
        #expect(try door.run(config + ["enroll", "bob", "--finger", "right-index"]).status == 0)

        _ = try store.deleteUser(named: "alice")
        try waitFor("alice gone and her template deleted from the module") {
            try Self.userNames(door) == ["bob"] && door.auditEvents().contains("repair")
        }
        let before = try door.auditEvents().count
        try service.simulator("touch alice-right-index 1")
        try waitFor("alice's touch decided") { try door.auditEvents().count > before }
        try service.simulator("touch bob-right-index 1")
        try waitFor("bob let in") { try door.auditEvents().dropFirst(before).contains("granted") }
        let events = try door.auditEvents().dropFirst(before)
        #expect(events.filter { $0 == "granted" }.count == 1, "\(service.log)")
        #expect(!events.contains { $0.contains("tamper") } && !service.log.contains("tamper"), "\(service.log)")
    }

    /// Enroll anywhere, at module doors: alice enrolled on the front door's module (a simulated
    /// R307) goes to the hub with its family and size; the back door's running service takes it,
    /// writes it into its own module's flash between touches, and her touch there opens the door.
    /// Removed at the hub, her template leaves the back door's flash again.
    @Test func aFingerEnrolledAtOneModuleDoorOpensAnotherModuleDoor() throws {
        let hub = try RunningHub()
        let store = try HubStore(conninfo: hub.database)
        try store.putUser(HubUser(name: "alice"))
        try store.putUser(HubUser(name: "bob"))
        let front = try Self.joinedDoor(hub, name: "front")
        let back = try Self.joinedDoor(hub, name: "back")
        let policy = #"{"pinRequiredAfterEnrolledSetChange": false, "relayPulseSeconds": 0.3}"#
        let frontService = try ServiceControlCLITests.RunningService(front, policy: policy)
        defer { frontService.stop() }
        let backService = try ServiceControlCLITests.RunningService(back, policy: policy)
        defer { backService.stop() }
        try waitFor("alice at both doors") { try Self.userNames(front) == ["alice", "bob"] && Self.userNames(back) == ["alice", "bob"] }

        try frontService.simulator("touch alice-right-index 6")
        let enrolled = try front.run(["--config", frontService.config, "enroll", "alice", "--finger", "right-index"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        // Sent now rather than after the follower's long poll.
        let sent = try front.run(["--config", frontService.config, "fleet", "sync", "--json"])
        #expect(sent.status == 0 && sent.json?["fingersSent"] as? Int == 1, "\(sent.stdout)\(sent.stderr)")
        #expect(try hub.server.psql("fleet", "SELECT module_family || ' ' || template_size FROM fingers").hasPrefix("r30x "))

        do {
            try waitFor("alice's template written into the back door's module") {
                try back.run(["log", "--limit", "1000"]).stdout.contains("a finger from the fleet's hub")
            }
        } catch {
            Issue.record("\(error): \(backService.log)\n\(try back.run(["log", "--limit", "1000"]).stdout)")
            return
        }
        let before = try back.auditEvents().count
        try backService.simulator("touch alice-right-index 1")
        try waitFor("alice let in at the back door") { try back.auditEvents().dropFirst(before).contains("granted") }
        // The hub says where her finger works: both doors told it their reader at their last sync.
        let users = try hub.cli.run(["hub", "users", "--json"])
        let alice = (users.json?["users"] as? [[String: Any]])?.first { $0["name"] as? String == "alice" }
        let reach = (alice?["fingerReach"] as? [[String: Any]])?.first
        #expect(reach?["usableAt"] as? [String] == ["back", "front"] && (reach?["notUsableAt"] as? [Any])?.isEmpty == true, "\(users.stdout)")
        let doors = try hub.cli.run(["hub", "doors"]).stdout
        #expect(doors.contains("reader: a r30x module (512-byte templates)"), "\(doors)")

        _ = try store.deleteUser(named: "alice")
        try waitFor("alice gone from the back door and her template deleted from its module") {
            try Self.userNames(back) == ["bob"] && back.run(["log", "--limit", "1000"]).stdout.contains("finished interrupted delete")
        }
        let after = try back.auditEvents().count
        try backService.simulator("touch alice-right-index 1")
        try waitFor("alice's touch decided") { try back.auditEvents().count > after }
        let events = try back.auditEvents().dropFirst(after)
        #expect(!events.contains("granted") && !events.contains { $0.contains("tamper") }, "\(backService.log)")
    }

    /// A card given at the hub (`fpmod hub add-card`, the number hashed under the fleet's card
    /// key, never stored) opens a running door that follows it; removed at the hub, it opens
    /// nothing there any more. The number is in no file of the hub or the door.
    @Test func aCardGivenAtTheHubOpensTheDoorAndIsTakenBackThere() throws {
        let hub = try RunningHub()
        let store = try HubStore(conninfo: hub.database)
        try store.putUser(HubUser(name: "alice", verifyMode: "card"))
        let door = try Self.joinedDoor(hub, name: "garage")
        let service = try ServiceControlCLITests.RunningService(door, policy: #"{"relayPulseSeconds": 0.3, "pinRequiredAfterEnrolledSetChange": false}"#)
        defer { service.stop() }
        func present(_ number: String) throws -> [String: Any] {
            let reply = try CLI.unixRequest(path: service.sockets + "/control.sock", line: "card \(number)")
            return try #require(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any], "reply: \(reply)")
        }
        // Checked before anything is written: a DESFire card does not travel, nor does a number without its hub's key.
        let desfire = try hub.cli.run(["hub", "add-card", "alice", "desfire:04a1b2c3d4e5f6", "--dir", hub.directory])
        #expect(desfire.status == 64, "\(desfire.stderr)")
        let noKey = try hub.cli.run(["hub", "add-card", "alice", "26:123:4567", "--dir", hub.cli.directory + "/elsewhere"])
        #expect(noKey.status != 0 && noKey.stderr.contains("fpmod hub serve --dir"), "\(noKey.stderr)")

        let added = try hub.cli.run(["hub", "add-card", "alice", "26:123:4567", "--label", "badge", "--dir", hub.directory])
        #expect(added.status == 0 && !added.stdout.contains("4567"), "\(added.stdout)\(added.stderr)")
        #expect(try hub.cli.run(["hub", "users"]).stdout.contains("badge (wiegand)"))
        try waitFor("the card at the door") {
            (try door.run(["card", "list", "--json"]).json?["cards"] as? [Any])?.count == 1
        }
        let opened = try present("26:123:4567")
        #expect(opened["result"] as? String == "unlocked" && opened["user"] as? String == "alice", "\(opened)")
        #expect(try present("26:123:4568")["result"] as? String != "unlocked")

        #expect(try hub.cli.run(["hub", "remove-card", "alice", "badge"]).status == 0)
        try waitFor("the card gone from the door") {
            (try door.run(["card", "list", "--json"]).json?["cards"] as? [Any])?.isEmpty == true
        }
        #expect(try present("26:123:4567")["result"] as? String != "unlocked")
        // The number itself is nowhere: not in the hub's database, not in the door's store.
        #expect(!(try hub.server.psql("fleet", "SELECT string_agg(payload::text, ' ') FROM changes")).contains("4567"))
        let doorBytes = try Data(contentsOf: URL(fileURLWithPath: door.directory + "/store.db"))
        #expect(doorBytes.range(of: Data("26:123:4567".utf8)) == nil && doorBytes.range(of: Data("wiegand26:123:4567".utf8)) == nil)
    }

    /// A door mode set at the hub reaches that door's running service within seconds and is
    /// audited as the hub's; another door gets only the change's revision, and a restart does not
    /// undo a change made at the door afterwards.
    @Test func aDoorModeSetAtTheHubReachesThatDoorOnly() throws {
        let hub = try RunningHub()
        let door = try Self.joinedDoor(hub, name: "garage")
        let porch = try Self.joinedDoor(hub, name: "porch")
        var service = try ServiceControlCLITests.RunningService(door)
        defer { service.stop() }
        try waitFor("the first sync") { service.log.contains("fleet: following the hub") }
        #expect(try hub.cli.run(["hub", "door-mode", "garage", "sideways"]).status == 64)
        #expect(try hub.cli.run(["hub", "door-mode", "nowhere", "lockdown"]).status == 64)
        let set = try hub.cli.run(["hub", "door-mode", "garage", "lockdown"])
        #expect(set.status == 0, "\(set.stderr)")
        let config = ["--config", service.config]
        try waitFor("lockdown at the garage") { try door.run(config + ["door", "mode", "--json"]).json?["doorMode"] as? String == "lockdown" }
        #expect(try door.auditEvents().contains("door-mode"))
        #expect(try door.run(["log", "--json"]).stdout.contains("set by the fleet hub"))

        // The porch sees the revision and nothing of the garage's mode.
        let other = try porch.run(["fleet", "sync", "--json"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(try TemplateStore(databasePath: porch.directory + "/store.db", keyPath: porch.directory + "/key").hubDoorMode() == nil)

        // Set back at the door (as root would), then a restart: the hub's lockdown is not put back.
        let normal = try door.run(config + ["door", "mode", "normal"], environment: [:])
        if normal.status == 0 {
            service.stop()
            service = try ServiceControlCLITests.RunningService(door)
            try waitFor("the first sync again") { service.log.contains("fleet: following the hub") }
            Thread.sleep(forTimeInterval: 6)
            #expect(try door.run(["--config", service.config, "door", "mode", "--json"]).json?["doorMode"] as? String == "normal")
        }
        service.stop()
        #expect(hub.stop() == 0)
    }

    /// A card enrolled at one door for a user of the hub goes up (its hash under the fleet's
    /// card key, never the number) and opens another door; a local user's card stays at its door;
    /// a label the hub gave the user meanwhile moves the door's card to a free label, never loses
    /// it; a number the hub gave another user meanwhile is refused there, audited, not sent again.
    @Test func aCardEnrolledAtOneDoorOpensAnother() throws {
        let hub = try RunningHub()
        let store = try HubStore(conninfo: hub.database)
        try store.putUser(HubUser(name: "alice"))
        try store.putUser(HubUser(name: "bob"))
        let front = try Self.joinedDoor(hub, name: "front"), back = try Self.joinedDoor(hub, name: "back")
        #expect(try front.run(["fleet", "sync"]).status == 0)
        #expect(try back.run(["fleet", "sync"]).status == 0)
        try TemplateStore(databasePath: front.directory + "/store.db", keyPath: front.directory + "/key").addUser(name: "carol")  // this door's only
        for (user, number, label) in [("alice", "26:123:4567", "badge"), ("carol", "26:123:9999", "badge"), ("alice", "26:7:2", "desk"),
                                      ("alice", "26:5:5", "spare")] {
            let added = try front.run(["card", "add", user, number, "--label", label])
            #expect(added.status == 0, "\(added.stderr)")
        }
        // Meanwhile the hub gives alice a desk card of her own and bob the spare's number.
        for (user, number, label) in [("alice", "26:7:1", "desk"), ("bob", "26:5:5", "fob")] {
            let added = try hub.cli.run(["hub", "add-card", user, number, "--label", label, "--dir", hub.directory])
            #expect(added.status == 0, "\(added.stderr)")
        }

        let sent = try front.run(["fleet", "sync", "--json"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.json?["cardsSent"] as? Int == 2, "badge and desk-2: \(sent.stdout)")
        let refused = sent.json?["cardsRefused"] as? [String] ?? []
        #expect(refused.count == 1 && refused.first?.contains("spare") == true && refused.first?.contains("bob") == true, "\(refused)")
        #expect((sent.json?["cardsTaken"] as? [String])?.count == 1, "bob's fob is alice's spare here: \(sent.stdout)")
        let audit = try front.auditEvents()
        #expect(audit.contains("hub-card-refused") && audit.contains("card-renamed"), "\(audit)")
        let atHub = try store.cards(of: "alice"), carolsAtHub = try store.cards(of: "carol")
        #expect(atHub.map(\.label) == ["badge", "desk", "desk-2"] && carolsAtHub.isEmpty, "\(atHub.map(\.label))")
        // The numbers themselves never reached the hub.
        #expect(!(try hub.server.psql("fleet", "SELECT string_agg(payload::text, ' ') FROM changes")).contains("4567"))
        let again = try front.run(["fleet", "sync", "--json"])
        #expect(again.json?["cardsSent"] as? Int == 0 && (again.json?["cardsRefused"] as? [String])?.isEmpty == true, "\(again.stdout)")

        // The back door takes them, and a number read there names its owner.
        let taken = try back.run(["fleet", "sync", "--json"])
        #expect(taken.json?["cardsPut"] as? Int == 4, "\(taken.stdout)")
        let backStore = try TemplateStore(databasePath: back.directory + "/store.db", keyPath: back.directory + "/key")
        func owner(_ store: TemplateStore, _ facility: UInt32, _ number: UInt32) throws -> String? {
            try store.card(matching: CardNumber(wiegandBits: 26, facility: facility, number: number))?.owner.name
        }
        #expect(try owner(backStore, 123, 4567) == "alice" && owner(backStore, 7, 2) == "alice" && owner(backStore, 7, 1) == "alice")
        #expect(try owner(backStore, 123, 9999) == nil && owner(backStore, 5, 5) == "bob")
        // At the front door every card still opens for its owner; the refused spare stays alice's there.
        let frontStore = try TemplateStore(databasePath: front.directory + "/store.db", keyPath: front.directory + "/key")
        #expect(try owner(frontStore, 123, 4567) == "alice" && owner(frontStore, 7, 2) == "alice" && owner(frontStore, 7, 1) == "alice")
        #expect(try owner(frontStore, 123, 9999) == "carol" && owner(frontStore, 5, 5) == "alice")
    }

    /// A card the hub has, switched off or deleted at one door (a lost badge), is switched off or
    /// gone at every door after the next syncs: the change goes up (`POST /v1/cards/update`,
    /// `/v1/cards/remove`, the number's hash naming the card) and comes down to the others.
    @Test func aCardSwitchedOffOrDeletedAtOneDoorIsSoAtEveryDoor() throws {
        let hub = try RunningHub()
        try HubStore(conninfo: hub.database).putUser(HubUser(name: "alice"))
        for (number, label) in [("26:123:4567", "badge"), ("26:7:1", "desk"), ("26:7:2", "visitor")] {
            let added = try hub.cli.run(["hub", "add-card", "alice", number, "--label", label, "--dir", hub.directory])
            #expect(added.status == 0, "\(added.stderr)")
        }
        let front = try Self.joinedDoor(hub, name: "front"), back = try Self.joinedDoor(hub, name: "back")
        #expect(try front.run(["fleet", "sync", "--json"]).json?["cardsPut"] as? Int == 3)
        #expect(try back.run(["fleet", "sync", "--json"]).json?["cardsPut"] as? Int == 3)

        let deleted = try front.run(["card", "delete", "alice", "badge"])
        #expect(deleted.status == 0 && deleted.stdout.contains("every door follows"), "\(deleted.stdout)\(deleted.stderr)")
        let off = try front.run(["card", "disable", "alice", "desk", "--json"])
        #expect(off.status == 0 && off.json?["toHub"] as? Bool == true, "\(off.stdout)\(off.stderr)")
        let dated = try front.run(["card", "validity", "alice", "visitor", "--valid-until", "2027-01-31"])
        #expect(dated.status == 0, "\(dated.stderr)")
        // The lost badge replaced under its label before the sync: the old one leaves the hub first.
        #expect(try front.run(["card", "add", "alice", "26:123:9999", "--label", "badge"]).status == 0)
        let sent = try front.run(["fleet", "sync", "--json"])
        #expect(sent.status == 0 && sent.json?["cardChangesSent"] as? Int == 3 && sent.json?["cardsSent"] as? Int == 1,
                "\(sent.stdout)\(sent.stderr)")
        #expect(try front.run(["fleet", "sync", "--json"]).json?["cardChangesSent"] as? Int == 0)

        let taken = try back.run(["fleet", "sync", "--json"])
        // The hub's log holds each card's latest state: the new badge in place of the old one.
        #expect(taken.json?["cardsPut"] as? Int == 3, "\(taken.stdout)")
        let backStore = try TemplateStore(databasePath: back.directory + "/store.db", keyPath: back.directory + "/key")
        let cards = try backStore.cards(of: "alice")
        #expect(cards.map(\.label) == ["badge", "desk", "visitor"] && cards.first(where: { $0.label == "desk" })?.enabled == false
                && cards.last?.validUntil != nil, "\(cards)")
        #expect(try backStore.card(matching: CardNumber(wiegandBits: 26, facility: 123, number: 4567)) == nil)
        #expect(try backStore.card(matching: CardNumber(wiegandBits: 26, facility: 123, number: 9999))?.card.label == "badge")
        let atHub = try HubStore(conninfo: hub.database).cards(of: "alice")
        #expect(atHub.map(\.label) == ["badge", "desk", "visitor"] && atHub.first(where: { $0.label == "desk" })?.enabled == false
                && atHub.last?.validUntil == cards.last?.validUntil)
        #expect(hub.stop() == 0)
        #expect(hub.process.log.contains("door front removed alice's card badge"), "\(hub.process.log)")
    }
}
