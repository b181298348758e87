import Foundation
import HubStore
import Testing
import TestSupport
@testable import HostMatching
@testable import HubReplica
@testable import TemplateStore

/// Fingers through the change log (a real `HubStore` on PostgreSQL, a real door store): a host
/// template sealed under the fleet's key reaches an image-sensor door; another family's, a box
/// sealed for someone else, or a template that is not the host matcher's never does.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct ReplicaFingerTests {
    typealias Fleet = ReplicaApplyTests.Fleet

    static let key = FleetTemplateKey.generate()

    static func hostTemplate(_ seed: UInt8) -> [UInt8] {
        TemplateEnvelope.wrap(Array(repeating: seed, count: 40), format: TemplateEnvelope.fpmodFormat)
    }

    static func finger(_ user: String, _ label: String = "right-index", family: String = HubFinger.hostFamily, template: [UInt8],
                       sealedFor owner: String? = nil, key: FleetTemplateKey = key) -> HubFinger {
        HubFinger(user: user, label: label, family: family, templateSize: template.count,
                  sealedTemplate: key.seal(template, user: owner ?? user, label: label, family: family), quality: 60)
    }

    static func sync(_ fleet: Fleet, capacity: Int = 1_000) throws -> ReplicaResult {
        try ReplicaApply.apply(try fleet.hub.changes(since: try fleet.door.hubRevision()), to: fleet.door,
                               reader: ReplicaReader(family: HubFinger.hostFamily, capacity: capacity, templateKey: key))
    }

    @Test func aHostFingerReachesTheDoorAndAnotherFamilysDoesNot() throws {
        let fleet = try Fleet()
        try fleet.hub.putUser(HubUser(name: "alice"))
        try fleet.hub.putFinger(Self.finger("alice", template: Self.hostTemplate(1)))
        try fleet.hub.putFinger(Self.finger("alice", family: "r307", template: Array(repeating: 7, count: 768)))
        let result = try Self.sync(fleet)
        #expect(result.usersPut == 1 && result.fingersPut == 1 && result.fingersForOtherReaders == 1)
        let fingers = try fleet.door.fingers(of: "alice")
        #expect(fingers.map(\.label) == ["right-index"])
        #expect(try fleet.door.template(atSlot: fingers[0].slot) == Self.hostTemplate(1))
        #expect(try fleet.door.fingersForHub(limit: 10).isEmpty, "a finger from the hub is not sent back")
        #expect(result.summary.contains("fingers +1 −0") && result.summary.contains("1 finger(s) for another kind of reader"))

        // Enrolled again elsewhere: replaced in its slot. Removed at the hub: removed here.
        try fleet.hub.putFinger(Self.finger("alice", template: Self.hostTemplate(2)))
        #expect(try Self.sync(fleet).fingersPut == 1)
        #expect(try fleet.door.fingers(of: "alice").map(\.slot) == [fingers[0].slot])
        #expect(try fleet.door.template(atSlot: fingers[0].slot) == Self.hostTemplate(2))
        try fleet.hub.deleteFinger(user: "alice", label: "right-index", family: HubFinger.hostFamily)
        #expect(try Self.sync(fleet).fingersRemoved == 1)
        #expect(try fleet.door.fingers(of: "alice").isEmpty)
    }

    @Test func aFingerThatDoesNotOpenOrIsNoHostTemplateStopsTheBatchWhole() throws {
        let fleet = try Fleet()
        try fleet.hub.putUser(HubUser(name: "alice"))
        try fleet.hub.putUser(HubUser(name: "bob"))
        // Sealed for bob, filed as alice's: the binding refuses it.
        try fleet.hub.putFinger(Self.finger("alice", template: Self.hostTemplate(1), sealedFor: "bob"))
        #expect(throws: ReplicaError.self) { try Self.sync(fleet) }
        #expect(try fleet.door.hubRevision() == 0 && fleet.door.users().isEmpty, "nothing of the batch")
        // Sealed under another fleet's key.
        try fleet.hub.putFinger(Self.finger("alice", template: Self.hostTemplate(1), key: .generate()))
        #expect(throws: ReplicaError.self) { try Self.sync(fleet) }
        // Under the right key, but a module's bytes filed as a host template.
        try fleet.hub.putFinger(Self.finger("alice", template: Array(repeating: 9, count: 512)))
        do {
            _ = try Self.sync(fleet)
            Issue.record("a module template filed as a host one was applied")
        } catch {
            #expect("\(error)".contains("not a template of fpmod's host matcher"), "\(error)")
        }
        try fleet.hub.putFinger(Self.finger("alice", template: Self.hostTemplate(3)))
        #expect(try Self.sync(fleet).fingersPut == 1)
    }

    /// A finger enrolled before an upgrade (template format 2) is in the hub's log: an upgraded
    /// door cannot use it, says so, and takes the rest of the log (a revocation behind it); the
    /// finger enrolled again replaces it.
    @Test func aFingerOfAnotherMatcherVersionIsLeftAndTheRestOfTheLogArrives() throws {
        let fleet = try Fleet()
        try fleet.hub.putUser(HubUser(name: "alice"))
        try fleet.hub.putUser(HubUser(name: "bob"))
        let older = TemplateEnvelope.wrap(Array(repeating: 1, count: 40), format: TemplateEnvelope.minutiaeOnlyFormat)
        try fleet.hub.putFinger(Self.finger("alice", template: older))
        _ = try fleet.hub.deleteUser(named: "bob")
        let result = try Self.sync(fleet)
        #expect(result.fingersOfOtherFormats == 1 && result.fingersPut == 0)
        #expect(result.summary.contains("1 finger(s) made by another version's matcher not stored (enroll them again)"))
        #expect(try fleet.door.users().map(\.name) == ["alice"], "bob's removal arrived")
        #expect(try fleet.door.fingers(of: "alice").isEmpty)
        try fleet.hub.putFinger(Self.finger("alice", template: Self.hostTemplate(4)))
        #expect(try Self.sync(fleet).fingersPut == 1)
    }

    @Test func aUserRemovedAtTheHubTakesTheirFingersFromTheLogAndAFullLibraryIsSaid() throws {
        let fleet = try Fleet()
        try fleet.hub.putUser(HubUser(name: "alice"))
        try fleet.hub.putUser(HubUser(name: "bob"))
        try fleet.hub.putFinger(Self.finger("alice", template: Self.hostTemplate(1)))
        try fleet.hub.putFinger(Self.finger("bob", template: Self.hostTemplate(2)))
        let full = try Self.sync(fleet, capacity: 1)
        #expect(full.fingersPut == 1 && full.fingersWithoutRoom == 1)

        _ = try fleet.hub.deleteUser(named: "alice")
        // The log holds no live finger of alice's: a door syncing from the start never sees one.
        let live = try fleet.hub.changes(since: 0).filter { $0.kind == .finger && !$0.isTombstone }
        #expect(live.map(\.key) == ["host:bob:right-index"])
        _ = try Self.sync(fleet)
        #expect(try fleet.door.user(named: "alice") == nil)
    }

    @Test func theHubRefusesAFingerForAUserItDoesNotHaveOrOfAWrongShape() throws {
        let fleet = try Fleet()
        #expect(throws: HubStoreError.unknownUser("alice")) { try fleet.hub.putFinger(Self.finger("alice", template: Self.hostTemplate(1))) }
        try fleet.hub.putUser(HubUser(name: "alice"))
        var bad = Self.finger("alice", template: Self.hostTemplate(1))
        bad.templateSize += 1
        #expect(throws: HubStoreError.self) { try fleet.hub.putFinger(bad) }
        #expect(throws: HubStoreError.self) { try fleet.hub.putFinger(Self.finger("alice", family: "r 307", template: [1, 2, 3])) }
        #expect(try fleet.hub.latestRevision() == 1, "only alice was recorded")
    }

    @Test func aHostTemplateOfFifteenTouchesWithTheirRidgesReachesTheDoor() throws {
        // 15 touches' ridge maps make a host template ~80 KiB (format 4): over the 64 KiB the hub
        // once kept, within its 256 KiB; one byte more than that is refused.
        let fleet = try Fleet()
        try fleet.hub.putUser(HubUser(name: "alice"))
        let large = TemplateEnvelope.wrap(Array(repeating: 5, count: 82_000), format: TemplateEnvelope.fpmodFormat)
        try fleet.hub.putFinger(Self.finger("alice", template: large))
        let result = try Self.sync(fleet)
        #expect(result.fingersPut == 1)
        let fingers = try fleet.door.fingers(of: "alice")
        #expect(fingers.count == 1)
        if let finger = fingers.first { #expect(try fleet.door.template(atSlot: finger.slot) == large) }
        let over = Array(repeating: UInt8(1), count: HubFinger.maximumTemplateSize + 1)
        #expect(throws: HubStoreError.self) { try fleet.hub.putFinger(Self.finger("alice", "left-index", template: over)) }
    }

    @Test func aSealedTemplateOpensOnlyForItsFingerUnderItsKey() {
        let key = FleetTemplateKey.generate()
        let box = key.seal([1, 2, 3], user: "alice", label: "right-index", family: "host")
        #expect(key.open(box, user: "alice", label: "right-index", family: "host") == [1, 2, 3])
        #expect(key.open(box, user: "alice", label: "left-index", family: "host") == nil)
        #expect(key.open(box, user: "alice", label: "right-index", family: "r307") == nil)
        #expect(FleetTemplateKey.generate().open(box, user: "alice", label: "right-index", family: "host") == nil)
        #expect(FleetTemplateKey(hex: key.hex) == key)
        #expect(FleetTemplateKey(hex: "00") == nil && FleetTemplateKey(hex: String(repeating: "g", count: 64)) == nil)
    }

    /// A module door: a hub user enrolled there has templates in the module's flash. Removed at
    /// the hub, their rows go with them, and a delete intent for each slot stays until the
    /// reader deletes the template (the worker's idle upkeep, or the next open's reconcile):
    /// their touch is then a removed finger, refused, never an unknown slot taken for tamper.
    /// An image-sensor door's slots are no flash: nothing stays.
    @Test func aUserRemovedAtTheHubLeavesADeleteIntentForEachTemplateInAModulesFlash() throws {
        let fleet = try Fleet()
        try fleet.hub.putUser(HubUser(name: "alice"))
        try fleet.hub.putUser(HubUser(name: "bob"))
        _ = try fleet.sync()
        try fleet.door.addFinger(user: UserName(validating: "alice"), label: FingerLabel(validating: "right-index"), slot: 3,
                                 template: Array(repeating: 3, count: 768), quality: 70)
        try fleet.door.addFinger(user: UserName(validating: "alice"), label: FingerLabel(validating: "left-index"), slot: 5,
                                 template: Array(repeating: 5, count: 768), quality: 70)
        try fleet.door.addFinger(user: UserName(validating: "bob"), label: FingerLabel(validating: "right-index"), slot: 4,
                                 template: Array(repeating: 4, count: 768), quality: 70)
        _ = try fleet.hub.deleteUser(named: "alice")
        let result = try fleet.sync()
        #expect(result.usersRemoved == 1 && result.fingersLeavingModule == 2)
        #expect(result.summary.contains("2 finger(s) to be deleted from the module"))
        #expect(try fleet.door.user(named: "alice") == nil)
        #expect(try fleet.door.slotsLeavingModule() == [3, 5])
        #expect(try fleet.door.occupiedSlots() == [4], "bob's finger stays")

        // The reconcile of the next open: each template deleted from the module, the intent done.
        let plan = try fleet.door.planReconciliation(moduleOccupied: [3, 4, 5])
        #expect(plan.count == 2)
        for action in plan {
            guard case .finishDelete(_, let slot, let fromModule) = action else {
                Issue.record("not a delete finished: \(action)")
                continue
            }
            #expect([3, 5].contains(slot) && fromModule)
            try fleet.door.applyStoreSide(of: action)
        }
        let leaving = try fleet.door.slotsLeavingModule(), pending = try fleet.door.pendingIntents()
        #expect(leaving.isEmpty && pending.isEmpty)
        #expect(try fleet.door.occupiedSlots() == [4])

        // Bob's fingers at an image-sensor door (marked so by its host reader): no intent.
        try fleet.door.setValue(TemplateStore.imageSensorReaderKind, forKey: TemplateStore.readerKindKey)
        _ = try fleet.hub.deleteUser(named: "bob")
        let sensorResult = try fleet.sync()
        #expect(sensorResult.usersRemoved == 1 && sensorResult.fingersLeavingModule == 0)
        let intentsLeft = try fleet.door.pendingIntents(), slotsLeft = try fleet.door.occupiedSlots()
        #expect(intentsLeft.isEmpty && slotsLeft.isEmpty)
    }

    /// A module door takes its family's fingers of its template size: each stored in a free slot
    /// with a restore intent for that slot (the module gets it from the reader, between touches
    /// or at the next open), replaced in place with one, removed with a delete intent. Another
    /// family's or another size's never arrives; the reconcile writes exactly the slots announced.
    @Test func aModuleDoorTakesItsFamilysFingersAndTheModuleFollowsThroughIntents() throws {
        let fleet = try Fleet()
        try fleet.hub.putUser(HubUser(name: "alice"))
        try fleet.hub.putUser(HubUser(name: "bob"))
        _ = try fleet.sync()
        // Bob's finger enrolled at this door, in slot 0 of its module.
        try fleet.door.addFinger(user: UserName(validating: "bob"), label: FingerLabel(validating: "right-index"), slot: 0,
                                 template: Array(repeating: 9, count: 768), quality: 70)
        try fleet.hub.putFinger(Self.finger("alice", family: "r307", template: Array(repeating: 1, count: 768)))
        try fleet.hub.putFinger(Self.finger("alice", "left-index", family: "r307", template: Array(repeating: 2, count: 512)))
        try fleet.hub.putFinger(Self.finger("alice", "left-thumb", family: "as608", template: Array(repeating: 3, count: 768)))
        try fleet.hub.putFinger(Self.finger("alice", "right-thumb", template: Self.hostTemplate(4)))
        let module = ReplicaReader(family: "r307", templateSize: 768, capacity: 200, templateKey: Self.key)
        func sync() throws -> ReplicaResult {
            try ReplicaApply.apply(try fleet.hub.changes(since: try fleet.door.hubRevision()), to: fleet.door, reader: module)
        }
        let result = try sync()
        #expect(result.fingersPut == 1 && result.fingersEnteringModule == 1 && result.fingersForOtherReaders == 3)
        #expect(result.summary.contains("1 finger(s) to be written to the module"))
        let alice = try fleet.door.fingers(of: "alice")
        #expect(alice.map(\.label) == ["right-index"] && alice.map(\.slot) == [1], "the lowest free slot")
        #expect(try fleet.door.template(atSlot: 1) == Array(repeating: 1, count: 768))
        #expect(try fleet.door.slotsArrivingFromHub() == [1])

        // The next open's reconcile: the announced slot written (not bob's, which the module has).
        let plan = try fleet.door.planReconciliation(moduleOccupied: [0])
        #expect(plan.count == 1)
        guard case .loadFromHub(_, 1)? = plan.first, plan.first?.moduleWork == .writeTemplate(slot: 1) else {
            Issue.record("not slot 1 written: \(plan)")
            return
        }
        try fleet.door.applyStoreSide(of: plan[0])
        let arriving = try fleet.door.slotsArrivingFromHub(), pending = try fleet.door.pendingIntents()
        #expect(arriving.isEmpty && pending.isEmpty)
        #expect(try fleet.door.auditEntries(limit: 5).last?.detail?.contains("a finger from the fleet's hub") == true)

        // Enrolled again at another door: the slot rewritten in place, once however often it changes.
        try fleet.hub.putFinger(Self.finger("alice", family: "r307", template: Array(repeating: 5, count: 768)))
        #expect(try sync().fingersEnteringModule == 1)
        try fleet.hub.putFinger(Self.finger("alice", family: "r307", template: Array(repeating: 6, count: 768)))
        #expect(try sync().fingersEnteringModule == 1)
        #expect(try fleet.door.pendingIntents().count == 1 && fleet.door.slotsArrivingFromHub() == [1])
        #expect(try fleet.door.template(atSlot: 1) == Array(repeating: 6, count: 768))

        // Removed at the hub before the module got it: the row goes, the delete intent holds the
        // slot, and the reconcile drops the write and deletes whatever the slot holds.
        try fleet.hub.deleteFinger(user: "alice", label: "right-index", family: "r307")
        let removed = try sync()
        #expect(removed.fingersRemoved == 1 && removed.fingersLeavingModule == 1)
        #expect(try fleet.door.fingers(of: "alice").isEmpty && fleet.door.slotsLeavingModule() == [1])
        let settle = try fleet.door.planReconciliation(moduleOccupied: [0, 1])
        #expect(settle.map(\.moduleWork) == [nil, .deleteSlot(1)], "\(settle)")
        for action in settle { try fleet.door.applyStoreSide(of: action) }
        let left = try fleet.door.pendingIntents(), slots = try fleet.door.occupiedSlots()
        #expect(left.isEmpty && slots == [0])
    }
}
