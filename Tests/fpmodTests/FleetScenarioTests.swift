import Foundation
import Glibc
import HubStore
import JSONValue
import TemplateStore
import Testing
import TestSupport

/// The fleet as it fails in the field, every part a real process: a hub (`fpmod hub serve` on a
/// real PostgreSQL) and three doors (`fpmod fleet sync` on their own stores); a door offline
/// during a revocation, the hub killed in the middle of a sync and of an upload, PostgreSQL
/// restarted under the hub.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct FleetScenarioTests {
    static func sync(_ door: CLI) throws -> CLI.Result {
        try door.run(["fleet", "sync", "--json"])
    }

    static func chainedRecords(_ door: CLI) throws -> Int {
        try TemplateStore(databasePath: door.directory + "/store.db", keyPath: door.directory + "/key")
            .chainedAuditRecords(after: 0, limit: 1_000_000).count
    }

    @Test func aRevocationMadeWhileADoorWasOfflineReachesItInOneSync() throws {
        let hub = try RunningHub()
        let store = try HubStore(conninfo: hub.database)
        try store.putUser(HubUser(name: "alice"))
        try store.putUser(HubUser(name: "bob"))
        let doors = try ["front", "back", "garage"].map { try FleetFollowTests.joinedDoor(hub, name: $0) }
        for door in doors { #expect(try Self.sync(door).status == 0) }
        for door in doors { #expect(try FleetFollowTests.userNames(door) == ["alice", "bob"]) }

        // The garage is offline (it does not sync) while bob is revoked at the hub.
        _ = try store.deleteUser(named: "bob")
        for door in doors.prefix(2) {
            #expect(try Self.sync(door).status == 0)
            #expect(try FleetFollowTests.userNames(door) == ["alice"])
        }
        #expect(try FleetFollowTests.userNames(doors[2]) == ["alice", "bob"])
        // Back online: one sync, and bob is gone there too.
        let back = try Self.sync(doors[2])
        #expect(back.status == 0 && back.json?["usersRemoved"] as? Int == 1, "\(back.stdout) \(back.stderr)")
        #expect(try FleetFollowTests.userNames(doors[2]) == ["alice"])
        // Every door's records are at the hub, each once.
        for door in doors {
            let name = try #require(try door.run(["fleet", "status", "--json"]).json?["door"] as? String)
            let kept = try hub.server.psql("fleet", "SELECT count(*) FROM door_events e JOIN doors d ON d.id = e.door_id WHERE d.name = '\(name)'")
            let chained = try Self.chainedRecords(door)
            #expect(kept == String(chained), "\(name)")
        }
    }

    @Test func aHubKilledDuringASyncAndDuringAnUploadLosesNothingAndDuplicatesNothing() throws {
        let hub = try RunningHub()
        let store = try HubStore(conninfo: hub.database)
        for index in 0..<2_000 { try store.putUser(HubUser(name: "user\(index)")) }
        let door = try FleetFollowTests.joinedDoor(hub, name: "front")
        let doorStore = try TemplateStore(databasePath: door.directory + "/store.db", keyPath: door.directory + "/key")
        for index in 0..<2_500 { try doorStore.appendAudit(event: "granted", user: "user\(index % 2_000)") }

        // Killed while the door pulls and uploads, at a few moments; each sync either finished
        // or left the door's store at a revision it had whole.
        for delay in [30_000, 120_000, 300_000] as [useconds_t] {
            let syncing = try LoggedProcess(door, arguments: ["fleet", "sync"], logPath: door.directory + "/sync-\(delay).log")
            usleep(delay)
            try hub.crashAndRestart()
            syncing.waitUntilExit()
            let status = syncing.process.terminationStatus
            #expect(status == 0 || status == 69, "\(syncing.log)")
            let names = try FleetFollowTests.userNames(door)
            #expect(names.isEmpty || names.count == 2_000, "a page is applied whole or not at all: \(names.count)")
        }
        // Once the hub stays up: everything, once.
        let final = try Self.sync(door)
        #expect(final.status == 0, "\(final.stderr)")
        #expect(try FleetFollowTests.userNames(door).count == 2_000)
        let latest = try store.latestRevision()
        #expect(try doorStore.hubRevision() == latest)
        #expect(final.json?["eventsMissing"] as? [Any] == nil || (final.json?["eventsMissing"] as? [Any])?.isEmpty == true, "\(final.stdout)")
        let kept = try hub.server.psql("fleet", "SELECT count(*), count(DISTINCT sequence) FROM door_events")
        let chained = try Self.chainedRecords(door)
        #expect(kept == "\(chained)|\(chained)", "no record lost, none twice")
    }

    @Test func postgreSQLRestartedUnderTheHubIsReconnectedAndWaitingDoorsStillWake() throws {
        let hub = try RunningHub()
        let store = try HubStore(conninfo: hub.database)
        try store.putUser(HubUser(name: "alice"))
        let door = try FleetFollowTests.joinedDoor(hub, name: "front")
        #expect(try Self.sync(door).status == 0)

        try hub.server.kill()
        // While PostgreSQL is down the hub answers with an error, never a page it made up.
        let during = try Self.sync(door)
        #expect(during.status != 0, "\(during.stdout)")
        try hub.server.start()

        // Back: the hub's connections come back by themselves.
        let writer = try HubStore(conninfo: hub.database)
        try writer.putUser(HubUser(name: "bob"))
        let after = try Self.sync(door)
        #expect(after.status == 0, "\(after.stderr) \(hub.process.log) \(hub.server.serverLog.suffix(3000))")
        #expect(try FleetFollowTests.userNames(door) == ["alice", "bob"])

        // A service waiting on the hub hears the next change as it commits, after the restart too.
        let service = try ServiceControlCLITests.RunningService(door)
        defer { service.stop() }
        try waitFor("the service's first sync") { service.log.contains("fleet: following the hub") }
        usleep(500_000)
        try writer.putUser(HubUser(name: "carol"))
        try waitFor("carol at the door", timeout: .seconds(20)) { try FleetFollowTests.userNames(door) == ["alice", "bob", "carol"] }
        #expect(hub.stop() == 0)
    }
}
