import Foundation
import HubStore
import Testing
import TestSupport
@testable import HubReplica
@testable import TemplateStore

/// A change made at a door to a card the hub has goes up, and the hub makes it for every door
/// (a real `HubStore` on PostgreSQL, a real door store). What travels is what the door changed,
/// of the card with that number: the hub keeps what it changed itself meanwhile and leaves a card
/// it has given the label since alone. `FleetFollowTests` runs the same through `fpmod` and HTTPS.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct ReplicaCardEditTests {
    typealias Fleet = ReplicaApplyTests.Fleet
    static let key = ReplicaCardTests.key
    static let badge = ReplicaCardTests.badge, fob = ReplicaCardTests.fob
    static let newBadge = try! CardNumber(parsing: "26:123:4568")

    /// A fleet whose door took the fleet's card key, with alice's badge and fob from the hub.
    static func fleetWithAlicesCards() throws -> Fleet {
        let fleet = try Fleet()
        try fleet.door.setFleetTemplateKey(Self.key)
        try fleet.hub.putUser(HubUser(name: "alice"))
        try fleet.hub.putCard(ReplicaCardTests.card("alice", "badge", Self.badge))
        try fleet.hub.putCard(ReplicaCardTests.card("alice", "fob", Self.fob))
        #expect(try fleet.sync().cardsPut == 2)
        return fleet
    }

    /// What `FleetLink.uploadCardChanges` sends, made straight at the hub store: each edit's
    /// revision (nil: the hub had no such card), each marked done.
    static func send(_ fleet: Fleet) throws -> [Int64?] {
        var revisions: [Int64?] = []
        for edit in try fleet.door.cardEditsForHub(limit: 100) {
            switch edit.change {
            case .removed: revisions.append(try fleet.hub.deleteCard(user: edit.user, label: edit.label, numberHash: edit.numberHash))
            case .changed(let enabled, let validity):
                revisions.append(try fleet.hub.updateCard(HubCardChange(user: edit.user, label: edit.label, numberHash: edit.numberHash,
                                                                       enabled: enabled, validity: validity)))
            case .nothing: break
            }
            try fleet.door.markCardEditAtHub(edit)
        }
        return revisions
    }

    @Test func aCardSwitchedOffAndOneRemovedAtTheDoorGoUpAndAnotherDoorFollows() throws {
        let fleet = try Self.fleetWithAlicesCards()
        #expect(try fleet.door.setCardEnabled(false, user: "alice", label: "badge"))
        #expect(try fleet.door.deleteCard(user: "alice", label: "fob"))
        let edits = try fleet.door.cardEditsForHub(limit: 100)
        #expect(edits.map(\.change) == [.changed(enabled: false, validity: nil), .removed], "\(edits)")
        #expect(try Self.send(fleet).allSatisfy { $0 != nil })
        #expect(try fleet.door.cardEditsForHub(limit: 100).isEmpty)
        let atHub = try fleet.hub.cards(of: "alice")
        #expect(atHub.map(\.label) == ["badge"] && atHub.first?.enabled == false, "\(atHub)")

        // Another door, from the start: the badge off, the fob nowhere; this door hears its own
        // changes back and is left as it is.
        let other = try TemplateStore(databasePath: fleet.folder.file("other.db"), keyPath: fleet.folder.file("other.key"))
        try other.setFleetTemplateKey(Self.key)
        _ = try ReplicaApply.apply(try fleet.hub.changes(since: 0), to: other)
        #expect(try other.card(matching: Self.badge)?.card.enabled == false && other.card(matching: Self.fob) == nil)
        _ = try fleet.sync()
        #expect(try fleet.door.card(matching: Self.badge)?.card.enabled == false && fleet.door.card(matching: Self.fob) == nil)
        #expect(try fleet.door.cardEditsForHub(limit: 100).isEmpty)
    }

    /// A door's change and the hub's made meanwhile to the same card both stand: the pull does
    /// not undo the door's (a removed card is not put back before its removal goes up), and the
    /// door sends only what it changed.
    @Test func theHubsChangeMadeMeanwhileIsKeptAndDoesNotUndoTheDoors() throws {
        let fleet = try Self.fleetWithAlicesCards()
        try fleet.door.setCardEnabled(false, user: "alice", label: "badge")
        try fleet.door.deleteCard(user: "alice", label: "fob")
        // Meanwhile at the hub: the badge gets an end date, the fob is switched off.
        try fleet.hub.putCard(ReplicaCardTests.card("alice", "badge", Self.badge, until: 1_900_000_000))
        try fleet.hub.putCard(ReplicaCardTests.card("alice", "fob", Self.fob, enabled: false))
        let pulled = try fleet.sync()
        #expect(pulled.cardsPut == 0, "\(pulled)")
        #expect(try fleet.door.card(matching: Self.badge)?.card.enabled == false && fleet.door.card(matching: Self.fob) == nil)

        #expect(try Self.send(fleet).allSatisfy { $0 != nil })
        let badge = try fleet.hub.cards(of: "alice")
        #expect(badge.count == 1 && badge.first?.enabled == false && badge.first?.validUntil == 1_900_000_000, "\(badge)")
        _ = try fleet.sync()
        let here = try fleet.door.card(matching: Self.badge)?.card
        #expect(here?.enabled == false && here?.validUntil == 1_900_000_000)
    }

    /// A label the hub has given another card since the door's change: the change of the old card
    /// is moot when the door pulls first, and the hub refuses it when it arrives first; the hub's
    /// new card stays either way.
    @Test func aCardTheHubReplacedIsNotTouchedByTheDoorsChangeOfTheOldOne() throws {
        let fleet = try Self.fleetWithAlicesCards()
        try fleet.door.deleteCard(user: "alice", label: "badge")
        try fleet.door.setCardValidity(user: "alice", label: "fob", from: nil, until: 1_800_000_000, described: "until then")
        try fleet.hub.putCard(ReplicaCardTests.card("alice", "badge", Self.newBadge))
        // Arriving first: the hub's badge is another number; nothing removed.
        let early = try fleet.door.cardEditsForHub(limit: 100).filter { $0.label == "badge" }
        let removedEarly = try early.map { try fleet.hub.deleteCard(user: $0.user, label: $0.label, numberHash: $0.numberHash) }
        #expect(removedEarly == [nil])
        #expect(try fleet.hub.cards(of: "alice").map(\.label) == ["badge", "fob"])
        // Pulled first: the door takes the new badge and forgets the removal of the old one.
        let pulled = try fleet.sync()
        #expect(pulled.cardsPut == 1, "\(pulled)")
        #expect(try fleet.door.card(matching: Self.newBadge)?.owner.name == "alice" && fleet.door.card(matching: Self.badge) == nil)
        #expect(try fleet.door.cardEditsForHub(limit: 100).map(\.label) == ["fob"])
        // The fob's dates go up; the hub's badge is untouched.
        let revisions = try Self.send(fleet)
        #expect(revisions.count == 1 && revisions.first! != nil, "\(revisions)")
        let atHub = try fleet.hub.cards(of: "alice")
        #expect(atHub.map(\.label) == ["badge", "fob"] && atHub.last?.validUntil == 1_800_000_000 && atHub.first?.numberHash == Self.key.cardHash(Self.newBadge))
    }

    /// Changed again while an upload was under way: the later change is not marked done by the
    /// earlier one's answer, and goes up in turn.
    @Test func aChangeMadeDuringAnUploadGoesUpInTurn() throws {
        let fleet = try Self.fleetWithAlicesCards()
        try fleet.door.setCardEnabled(false, user: "alice", label: "badge")
        let sent = try fleet.door.cardEditsForHub(limit: 100)
        try fleet.door.setCardValidity(user: "alice", label: "badge", from: 1_700_000_000, until: nil, described: "from then")
        for edit in sent { try fleet.door.markCardEditAtHub(edit) }
        let left = try fleet.door.cardEditsForHub(limit: 100)
        #expect(left.map(\.change) == [.changed(enabled: false, validity: CardValidity(from: 1_700_000_000, until: nil))], "\(left)")
    }

    /// Only a card the hub has goes up: not a card of this door's own user, nor one enrolled here
    /// and not at the hub yet (that goes up whole, `cardsForHub`).
    @Test func aCardTheHubDoesNotHaveStaysAtTheDoor() throws {
        let fleet = try Self.fleetWithAlicesCards()
        try fleet.door.addUser(name: UserName(validating: "carol"))
        try fleet.door.addCard(Self.newBadge, label: CardLabel(validating: "badge"), for: UserName(validating: "carol"))
        #expect(try !fleet.door.setCardEnabled(false, user: "carol", label: "badge"))
        #expect(try !fleet.door.deleteCard(user: "carol", label: "badge"))
        try fleet.door.addCard(Self.newBadge, label: CardLabel(validating: "desk"), for: UserName(validating: "alice"))
        #expect(try !fleet.door.setCardEnabled(false, user: "alice", label: "desk"))
        #expect(try fleet.door.cardEditsForHub(limit: 100).isEmpty)
        #expect(try fleet.door.cardsForHub(limit: 100).map(\.enabled) == [false])
    }
}
