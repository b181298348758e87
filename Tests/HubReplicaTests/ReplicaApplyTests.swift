import AccessPolicy
import Foundation
import HubStore
import JSONValue
import Testing
import TestSupport
@testable import HubReplica
@testable import TemplateStore

/// The hub's changes, made by a real `HubStore` on a real PostgreSQL, applied to a real door
/// store (SQLite file): what a door that follows the hub ends up with.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct ReplicaApplyTests {
    /// A hub (migrated, empty) and a door's store in a scratch folder.
    final class Fleet {
        let server: TemporaryPostgres
        let hub: HubStore
        let folder = ScratchFolder(prefix: "fpmod-replica")
        let door: TemplateStore

        init() throws {
            server = try TemporaryPostgres()
            let database = try server.newDatabase("hub")
            try HubStore.migrate(conninfo: database)
            hub = try HubStore(conninfo: database)
            door = try TemplateStore(databasePath: folder.file("door.db"), keyPath: folder.file("store.key"))
        }

        deinit { folder.remove() }

        /// What the door would pull: everything since its revision.
        func sync() throws -> ReplicaResult {
            try ReplicaApply.apply(try hub.changes(since: try door.hubRevision()), to: door)
        }
    }

    @Test func aFirstSyncGivesTheDoorTheHubsUsersSchedulesAndPINs() throws {
        let fleet = try Fleet()
        let pinHash = try Crypto.hashPIN("4711")
        try fleet.hub.putSchedule(name: "office", text: "mon-fri 07:00-19:00")
        try fleet.hub.putUser(HubUser(name: "alice", displayName: "Alice Liddell", role: .admin, pinHash: pinHash,
                                      verifyMode: "finger-and-pin", schedule: "office", validFrom: 1_700_000_000,
                                      validUntil: 1_900_000_000, usesLeft: 7))
        try fleet.hub.putUser(HubUser(name: "bob", fingerprintUnlock: false))

        let result = try fleet.sync()
        let latest = try fleet.hub.latestRevision()
        #expect(result.from == 0 && result.to == latest)
        #expect(result.usersPut == 2 && result.schedulesPut == 1 && result.ignored == 0)
        let alice = try #require(try fleet.door.user(named: "alice"))
        #expect(alice.displayName == "Alice Liddell" && alice.role == .admin && alice.fingerprintUnlock && alice.verifyMode == "finger-and-pin")
        #expect(try fleet.door.verifyPIN("4711", for: "alice"))
        #expect(try !fleet.door.verifyPIN("4712", for: "alice"))
        #expect(try fleet.door.access(of: "alice") == UserAccess(schedule: "office", validFrom: 1_700_000_000, validUntil: 1_900_000_000, usesLeft: 7))
        #expect(try fleet.door.schedules().map(\.name) == ["office"])
        #expect(try fleet.door.user(named: "bob")?.fingerprintUnlock == false)
        #expect(try fleet.door.hubRevision() == result.to)
        let audit = try fleet.door.auditEntries(limit: 5).filter { $0.event == ReplicaApply.auditEvent }
        #expect(audit.count == 1)
        #expect(audit.first?.detail?.contains("revision 0 to \(result.to)") == true, "\(audit)")

        // Nothing new: nothing written, not even an audit record.
        let again = try fleet.sync()
        #expect(again == ReplicaResult(from: result.to, to: result.to))
        #expect(try fleet.door.auditEntries(limit: 5).filter { $0.event == ReplicaApply.auditEvent }.count == 1)
    }

    @Test func aChangeAtTheHubReachesTheDoorAndALocalUserStays() throws {
        let fleet = try Fleet()
        try fleet.hub.putUser(HubUser(name: "alice"))
        _ = try fleet.sync()
        // A user the door had before it followed a hub is the door's own; the hub does not know it.
        try fleet.door.addUser(name: try UserName(validating: "carol"))
        try fleet.hub.putUser(HubUser(name: "alice", displayName: "Alice L.", role: .admin))
        let result = try fleet.sync()
        #expect(result.usersPut == 1)
        #expect(try fleet.door.user(named: "alice")?.role == .admin)
        #expect(try fleet.door.users().map(\.name) == ["alice", "carol"])
    }

    /// Revoked at the hub while the door was away: the door, back, has no such user after one sync.
    @Test func aRemovedUserIsGoneAfterOneSyncAndAScheduleALocalUserHasIsKept() throws {
        let fleet = try Fleet()
        try fleet.hub.putSchedule(name: "office", text: "mon-fri 07:00-19:00")
        try fleet.hub.putUser(HubUser(name: "alice", schedule: "office"))
        try fleet.hub.putUser(HubUser(name: "mallory"))
        _ = try fleet.sync()
        try fleet.door.addUser(name: try UserName(validating: "carol"))
        try fleet.door.setAccess(of: "carol", schedule: .set("office"))

        // Away for a while: mallory revoked, alice changed then removed, the schedule removed.
        try fleet.hub.deleteUser(named: "mallory")
        try fleet.hub.putUser(HubUser(name: "alice", role: .admin))
        try fleet.hub.deleteUser(named: "alice")
        try fleet.hub.deleteSchedule(named: "office")
        let result = try fleet.sync()
        #expect(result.usersRemoved == 2 && result.usersPut == 0)
        #expect(try fleet.door.users().map(\.name) == ["carol"])
        // Taking carol's schedule away would let her in at every hour: kept, and said.
        #expect(result.kept == ["office"] && result.schedulesRemoved == 0)
        #expect(try fleet.door.access(of: "carol").schedule == "office")
        let details = try fleet.door.auditEntries(limit: 5).filter { $0.event == ReplicaApply.auditEvent }.compactMap(\.detail)
        #expect(details.count == 2 && details.contains { $0.contains("kept office: a user of this door has it") }, "\(details)")
    }

    @Test func aReplayedOrReorderedChangeIsIgnored() throws {
        let fleet = try Fleet()
        try fleet.hub.putUser(HubUser(name: "alice"))
        let firstBatch = try fleet.hub.changes(since: 0)
        _ = try ReplicaApply.apply(firstBatch, to: fleet.door)
        try fleet.hub.deleteUser(named: "alice")
        let removal = try fleet.hub.changes(since: try fleet.door.hubRevision())
        #expect(try ReplicaApply.apply(removal, to: fleet.door).usersRemoved == 1)

        // The old batch again (a replay, or a retry that arrived late): it is history.
        let replay = try ReplicaApply.apply(firstBatch, to: fleet.door)
        #expect(replay.ignored == firstBatch.count && replay.usersPut == 0)
        #expect(try fleet.door.user(named: "alice") == nil)

        // One batch with an older state of a thing after a newer one: the newer wins.
        let newer = HubChange(revision: 20, kind: .user, key: "dave", state: nil)
        let older = HubChange(revision: 19, kind: .user, key: "dave", state: .object([
            "name": .string("dave"), "displayName": .string("dave"), "role": .string("user"), "fingerprintUnlock": .bool(true),
            "pinHash": .null, "verifyMode": .null, "schedule": .null, "validFrom": .null, "validUntil": .null, "usesLeft": .null,
        ]))
        let reordered = try ReplicaApply.apply([newer, older], to: fleet.door)
        #expect(reordered.ignored == 1 && reordered.to == 20)
        #expect(try fleet.door.user(named: "dave") == nil)
    }

    @Test func aChangeTheDoorCannotReadLeavesTheStoreAsItWas() throws {
        let fleet = try Fleet()
        try fleet.hub.putUser(HubUser(name: "alice"))
        var batch = try fleet.hub.changes(since: 0)
        let good = batch.count
        func user(_ revision: Int64, _ state: JSONValue) -> HubChange { HubChange(revision: revision, kind: .user, key: "eve", state: state) }
        let bad: [(HubChange, String)] = [
            (user(50, .object(["name": .string("eve")])), "no role"),
            (user(51, .object(["name": .string("eve"), "displayName": .string("Eve"), "role": .string("root"), "fingerprintUnlock": .bool(true),
                               "pinHash": .null, "verifyMode": .null, "schedule": .null, "validFrom": .null, "validUntil": .null, "usesLeft": .null])),
             "an unknown role"),
            (user(52, .object(["name": .string("eve"), "displayName": .string("Eve"), "role": .string("user"), "fingerprintUnlock": .bool(true),
                               "pinHash": .string("4711"), "verifyMode": .null, "schedule": .null, "validFrom": .null, "validUntil": .null,
                               "usesLeft": .null])), "Argon2"),
            (HubChange(revision: 53, kind: .schedule, key: "night", state: .object(["name": .string("night"), "text": .string("someday")])),
             "does not read"),
            (HubChange(revision: 54, kind: .schedule, key: "night", state: .object(["name": .string("day"), "text": .string("mon 08:00-09:00")])),
             "not its key"),
        ]
        for (change, problem) in bad {
            batch = Array(batch.prefix(good)) + [change]
            do {
                _ = try ReplicaApply.apply(batch, to: fleet.door)
                Issue.record("applied \(change)")
            } catch {
                guard case let .unreadable(_, _, revision, found) = error else { Issue.record("\(error)"); continue }
                #expect(revision == change.revision)
                #expect(found.contains(problem), "\(found)")
                #expect(error.description.contains("Nothing of this sync was applied"))
            }
            // Not even the good part of the batch: the door stays where it was.
            #expect(try fleet.door.users().isEmpty)
            #expect(try fleet.door.hubRevision() == 0)
        }
        // A card the door cannot read is refused whole too, never skipped past.
        let card = HubChange(revision: 60, kind: .card, key: "alice/1", state: .object([:]))
        #expect(throws: ReplicaError.unreadable(kind: "card", key: "alice/1", revision: 60, problem: "it is not a card as the hub sends one")) {
            try ReplicaApply.apply(batch.prefix(good) + [card], to: fleet.door)
        }
        #expect(try fleet.door.hubRevision() == 0)
    }

    /// What a door could never apply is refused at the hub, before it is written: else every
    /// door would stop following at that change.
    @Test func theHubRefusesWhatADoorCouldNotApply() throws {
        let fleet = try Fleet()
        #expect(throws: HubStoreError.self) { try fleet.hub.putSchedule(name: "night", text: "someday 25:00-26:00") }
        #expect(throws: HubStoreError.self) { try fleet.hub.putUser(HubUser(name: "alice", schedule: "nowhere")) }
        try fleet.hub.putSchedule(name: "office", text: "mon-fri 07:00-19:00")
        try fleet.hub.putUser(HubUser(name: "alice", schedule: "office"))
        #expect(throws: HubStoreError.self) { try fleet.hub.deleteSchedule(named: "office") }
        let result = try fleet.sync()
        #expect(result.usersPut == 1 && result.schedulesPut == 1)
    }
}
