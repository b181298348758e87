import DoorFleet
import FleetSync
import Foundation
import Glibc
import HubStore
import TemplateStore
import Testing
import TestSupport

/// One enrollment, every door: a finger enrolled at the front door (a simulated FPC1020 fed real
/// impressions, FVC2002 DB1_B finger 101, touches 1–5) reaches the hub sealed under the fleet's
/// key, and the back door, which never saw that finger, names its owner from touches 6–8. Every
/// part a real process: `fpmod hub serve` on a real PostgreSQL, each door `fpmod` on its store.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct FleetEnrollmentTests {
    /// The folder the simulated sensors read: a finger's touches under `NAME/1.png …`.
    final class Touches {
        let directory = NSTemporaryDirectory() + "fpmod-touches-\(UUID().uuidString)"

        init() throws { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: directory) }

        /// `name` touches the sensor with DB1_B finger `finger`'s `impressions`, in order.
        func add(_ name: String, finger: Int, impressions: [Int]) throws {
            let folder = directory + "/" + name
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (index, impression) in impressions.enumerated() {
                try FileManager.default.createSymbolicLink(atPath: "\(folder)/\(index + 1).png",
                                                           withDestinationPath: "\(FVC2002.directory)/DB1_B/\(finger)_\(impression).png")
            }
        }
    }

    /// A hub with alice, the front and back doors joined, and alice's first five touches.
    static func frontAndBack() throws -> (RunningHub, HubStore, CLI, CLI, Touches) {
        let hub = try RunningHub()
        let store = try HubStore(conninfo: hub.database)
        try store.putUser(HubUser(name: "alice"))
        let front = try FleetFollowTests.joinedDoor(hub, name: "front")
        let back = try FleetFollowTests.joinedDoor(hub, name: "back")
        let touches = try Touches()
        try touches.add("alice-right-index", finger: 101, impressions: [1, 2, 3, 4, 5])
        return (hub, store, front, back, touches)
    }

    static func sensor(_ touches: Touches) -> [String] { ["--sim", "--sim-profile", "fpc1020", "--sim-images", touches.directory] }

    static func identify(_ door: CLI, _ touches: Touches, _ name: String) throws -> String? {
        let result = try door.run(sensor(touches) + ["--json", "identify", "--sim-finger", name])
        return result.json?["user"] as? String
    }

    @Test(.enabled(if: !FVC2002.skipped, FVC2002.skipReason))
    func aFingerEnrolledAtOneDoorOpensAnother() throws {
        let (hub, store, front, back, touches) = try Self.frontAndBack()
        try touches.add("carol-right-index", finger: 102, impressions: [1, 2, 3, 4, 5])
        for impression in [6, 7, 8] { try touches.add("later-\(impression)", finger: 101, impressions: [impression]) }
        try touches.add("stranger", finger: 105, impressions: [1])

        // The front door has alice from the hub, and carol of its own.
        #expect(try front.run(Self.sensor(touches) + ["fleet", "sync"]).status == 0)
        for user in ["alice", "carol"] {
            let enrolled = try front.run(Self.sensor(touches) + ["enroll", user, "--finger", "right-index", "--captures", "5"])
            try #require(enrolled.status == 0, "\(enrolled.stderr)")
        }

        // Alice's finger goes up (carol is the front door's own: hers stays there).
        let sent = try front.run(Self.sensor(touches) + ["fleet", "sync", "--json"])
        #expect(sent.status == 0 && sent.json?["fingersSent"] as? Int == 1, "\(sent.stdout)\(sent.stderr)")
        let atHub = try store.fingers(of: "alice")
        #expect(atHub.map(\.family) == ["host"] && atHub.map(\.label) == ["right-index"])
        // Sealed at rest: the host template's header is nowhere in the hub's copy.
        #expect(try hub.server.psql("fleet", "SELECT position('\\x46504d48'::bytea IN sealed_template) FROM fingers") == "0")
        #expect(try store.fingers(of: "carol").isEmpty)

        // The back door takes it, and names alice from touches the front door never saw.
        let taken = try back.run(Self.sensor(touches) + ["fleet", "sync", "--json"])
        #expect(taken.status == 0 && taken.json?["fingersPut"] as? Int == 1, "\(taken.stdout)\(taken.stderr)")
        for impression in [6, 7, 8] {
            #expect(try Self.identify(back, touches, "later-\(impression)") == "alice", "touch \(impression)")
        }
        #expect(try Self.identify(back, touches, "stranger") == nil)
        #expect(try Self.identify(back, touches, "carol-right-index") == nil)

        // The front door gets its own finger back as the hub's: nothing changes, nothing is sent again.
        let again = try front.run(Self.sensor(touches) + ["fleet", "sync", "--json"])
        #expect(again.status == 0 && again.json?["fingersPut"] as? Int == 0 && again.json?["fingersSent"] as? Int == 0, "\(again.stdout)")

        // A module door (the simulated R307) cannot use a host template: it says so and stores none.
        let garage = try FleetFollowTests.joinedDoor(hub, name: "garage")
        let module = try garage.run(["--sim", "fleet", "sync", "--json"])
        #expect(module.status == 0 && module.json?["fingersForOtherReaders"] as? Int == 1 && module.json?["fingersPut"] as? Int == 0,
                "\(module.stdout)\(module.stderr)")
        // The hub says so: the two image-sensor doors use it, the garage cannot yet.
        let listed = try hub.cli.run(["hub", "users"]).stdout
        #expect(listed.contains("right-index (host) not at garage: its reader is not known yet") && !listed.contains("not at back"), "\(listed)")
        // Given an image sensor later, that door takes what it left by itself: the whole log
        // again, once (the family it took is kept), and nothing twice.
        let whole = try garage.run(Self.sensor(touches) + ["fleet", "sync", "--json"])
        #expect(whole.status == 0 && whole.json?["fingersPut"] as? Int == 1 && whole.json?["usersPut"] as? Int == 1, "\(whole.stdout)\(whole.stderr)")
        let nothingNew = try garage.run(Self.sensor(touches) + ["fleet", "sync", "--json"])
        #expect(nothingNew.json?["fingersPut"] as? Int == 0 && nothingNew.json?["usersPut"] as? Int == 0, "\(nothingNew.stdout)")
        #expect(try Self.identify(garage, touches, "later-6") == "alice")

        // Removed at the hub: gone from the back door with her user.
        _ = try store.deleteUser(named: "alice")
        #expect(try back.run(Self.sensor(touches) + ["fleet", "sync"]).status == 0)
        #expect(try Self.identify(back, touches, "later-6") == nil)
        #expect(hub.stop() == 0)
    }

    @Test func aFingerForAUserTheHubNoLongerHasIsRefusedOnceAndKeptAtTheDoor() throws {
        let hub = try RunningHub()
        let store = try HubStore(conninfo: hub.database)
        try store.putUser(HubUser(name: "alice"))
        let door = try FleetFollowTests.joinedDoor(hub, name: "front")
        let sensor = ["--sim", "--sim-profile", "fpc1020"]
        #expect(try door.run(sensor + ["fleet", "sync"]).status == 0)
        // Enrolled with the simulator's generated finger (no folder of images for it).
        let enrolled = try door.run(sensor + ["enroll", "alice", "--finger", "right-index"])
        try #require(enrolled.status == 0, "\(enrolled.stderr)")
        // Removed at the hub before the door sent her finger (its tombstone not pulled yet).
        _ = try store.deleteUser(named: "alice")
        let local = try TemplateStore(databasePath: door.directory + "/store.db", keyPath: door.directory + "/key")
        let link = try FleetLink(files: FleetFiles(storeDatabase: door.directory + "/store.db"), store: local, reader: .imageSensor(capacity: 1_000))
        var report = FleetSyncReport(at: 0)
        try link.uploadFingers(into: &report)
        #expect(report.fingersSent == 0 && report.fingersRefused == ["alice's right-index"])
        #expect(try local.auditEntries(limit: 5).contains { $0.event == "hub-finger-refused" })
        // Not sent again; the next sync's pull removes her here as well.
        var second = FleetSyncReport(at: 0)
        try link.uploadFingers(into: &second)
        #expect(second.fingersSent == 0 && second.fingersRefused.isEmpty)
        #expect(try door.run(sensor + ["fleet", "sync"]).status == 0)
        #expect(try local.user(named: "alice") == nil)
        #expect(try store.fingers(of: "alice").isEmpty)
        #expect(hub.stop() == 0)
    }

    /// The back door's service (`fpmod run` on the simulated FPC1020) hears of the finger while
    /// its long poll waits and opens for alice's later touch: the hub is not asked at the touch.
    @Test(.enabled(if: !FVC2002.skipped, FVC2002.skipReason))
    func theBackDoorsServiceOpensForAFingerEnrolledAtTheFront() throws {
        let (hub, _, front, back, touches) = try Self.frontAndBack()
        try touches.add("later-8", finger: 101, impressions: [8])
        try touches.add("stranger", finger: 105, impressions: [1])
        let service = try ImageSensorServiceTests.SensorService(back, run: ["--sim-images", touches.directory])
        defer { service.stop() }
        try waitFor("alice at the back door") { try FleetFollowTests.userNames(back) == ["alice"] }

        #expect(try front.run(Self.sensor(touches) + ["fleet", "sync"]).status == 0)
        let enrolled = try front.run(Self.sensor(touches) + ["enroll", "alice", "--finger", "right-index", "--captures", "5"])
        try #require(enrolled.status == 0, "\(enrolled.stderr)")
        #expect(try front.run(Self.sensor(touches) + ["fleet", "sync"]).status == 0)
        try waitFor("alice's finger at the back door") {
            try TemplateStore(databasePath: back.directory + "/store.db", keyPath: back.directory + "/key").allFingers().count == 1
        }
        let alice = try service.scan("later-8")
        #expect(alice.decision["event"] as? String == "match" && alice.decision["user"] as? String == "alice", "\(alice.events)\n\(service.log)")
        // The hub's change of the enrolled set is recorded as the hub's: no PIN asked for it.
        #expect(service.events.contains { $0["event"] as? String == "enrolled-set-changed" && $0["source"] as? String == "hub" },
                "\(service.events)")
        let stranger = try service.scan("stranger")
        #expect(stranger.decision["event"] as? String == "no-match", "\(stranger.events)")
        service.stop()
        #expect(hub.stop() == 0)
    }
}
