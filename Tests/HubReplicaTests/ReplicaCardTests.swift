import Foundation
import HubStore
import Testing
import TestSupport
@testable import HubReplica
@testable import TemplateStore

/// Cards through the change log (a real `HubStore` on PostgreSQL, a real door store): the hub
/// keeps a card's hash under the fleet's card key, never its number; a door matches a card read
/// there against it, whether it took the fleet's card key as its own or kept its own from before.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct ReplicaCardTests {
    typealias Fleet = ReplicaApplyTests.Fleet

    static let key = FleetTemplateKey.generate()
    static let badge = try! CardNumber(parsing: "26:123:4567")
    static let fob = try! CardNumber(parsing: "uid:04a1b2c3d4e5f6")

    static func card(_ user: String, _ label: String, _ number: CardNumber, enabled: Bool = true, until: Int64? = nil) -> HubCard {
        HubCard(user: user, label: label, kind: number.kind, numberHash: key.cardHash(number), enabled: enabled, validUntil: until)
    }

    @Test func aCardAddedAtTheHubMatchesAtADoorThatTookTheFleetsCardKey() throws {
        let fleet = try Fleet()
        try fleet.door.setFleetTemplateKey(Self.key)
        try fleet.hub.putUser(HubUser(name: "alice"))
        try fleet.hub.putCard(Self.card("alice", "badge", Self.badge))
        let result = try fleet.sync()
        #expect(result.usersPut == 1 && result.cardsPut == 1, "\(result)")
        #expect(result.summary.contains("cards +1 −0"))
        let found = try fleet.door.card(matching: Self.badge)
        #expect(found?.owner.name == "alice" && found?.card.label == "badge" && found?.card.kind == .wiegand)
        #expect(try fleet.door.card(matching: Self.fob) == nil)
        // One key: a card added here for a user is hashed alike, and the same number is refused.
        try fleet.door.addUser(name: UserName(validating: "carol"))
        #expect(throws: StoreError.cardTaken(user: "alice", label: "badge")) {
            try fleet.door.addCard(Self.badge, label: CardLabel(validating: "card"), for: UserName(validating: "carol"))
        }

        // Switched off with a date at the hub: replaced in place; the same again changes nothing.
        try fleet.hub.putCard(Self.card("alice", "badge", Self.badge, enabled: false, until: 1_900_000_000))
        #expect(try fleet.sync().cardsPut == 1)
        let off = try fleet.door.card(matching: Self.badge)?.card
        #expect(off?.enabled == false && off?.validUntil == 1_900_000_000)
        let again = try ReplicaApply.apply(try fleet.hub.changes(since: 0), to: fleet.door, fromStart: true)
        #expect(again.cardsPut == 0)

        // A lost card removed at the hub, a user removed with her cards: gone from the door.
        try fleet.hub.putCard(Self.card("alice", "fob", Self.fob))
        #expect(try fleet.sync().cardsPut == 1)
        #expect(try fleet.hub.deleteCard(user: "alice", label: "badge") != nil)
        #expect(try fleet.sync().cardsRemoved == 1)
        #expect(try fleet.door.card(matching: Self.badge) == nil && fleet.door.card(matching: Self.fob) != nil)
        _ = try fleet.hub.deleteUser(named: "alice")
        _ = try fleet.sync()
        #expect(try fleet.door.card(matching: Self.fob) == nil)
        // The log's own record of it: a door from the start gets no card of a user it never sees.
        let fresh = try TemplateStore(databasePath: fleet.folder.file("fresh.db"), keyPath: fleet.folder.file("fresh.key"))
        let whole = try ReplicaApply.apply(try fleet.hub.changes(since: 0), to: fresh)
        let freshCards = try fresh.cards()
        #expect(whole.cardsPut == 0 && whole.ignored == 0 && freshCards.isEmpty, "\(whole)")
    }

    /// A door that had cards of its own before it followed a hub keeps its own card key (the
    /// numbers are not kept, so nothing can be hashed again): the hub's cards match through the
    /// fleet's key beside it. A hub card with the number of a local user's card cannot be seen
    /// when it comes (two keys); the number is refused at the door until one of them is removed.
    @Test func aDoorWithCardsOfItsOwnMatchesTheHubsToo() throws {
        let fleet = try Fleet()
        try fleet.door.addUser(name: UserName(validating: "carol"))
        try fleet.door.addCard(Self.fob, label: CardLabel(validating: "fob"), for: UserName(validating: "carol"))
        try fleet.door.setFleetTemplateKey(Self.key)
        try fleet.hub.putUser(HubUser(name: "alice"))
        try fleet.hub.putUser(HubUser(name: "bob"))
        try fleet.hub.putCard(Self.card("alice", "badge", Self.badge))
        try fleet.hub.putCard(Self.card("bob", "fob", Self.fob))
        let result = try fleet.sync()
        #expect(result.cardsPut == 2, "\(result)")
        #expect(try fleet.door.card(matching: Self.badge)?.owner.name == "alice")
        #expect(throws: StoreError.cardOfTwo(["carol's fob", "bob's fob"])) { try fleet.door.card(matching: Self.fob) }
        try fleet.door.deleteCard(user: "carol", label: "fob")
        #expect(try fleet.door.card(matching: Self.fob)?.owner.name == "bob")
        // A card added here after the door took the fleet's key is checked under both keys.
        #expect(throws: StoreError.cardTaken(user: "alice", label: "badge")) {
            try fleet.door.addCard(Self.badge, label: CardLabel(validating: "card"), for: UserName(validating: "carol"))
        }
    }

    /// The hub checks a card before it writes: the user is the hub's, the number is nobody else's,
    /// a DESFire card (keyed to the door that enrolled it) does not travel.
    @Test func theHubRefusesACardNoDoorCouldUse() throws {
        let fleet = try Fleet()
        try fleet.hub.putUser(HubUser(name: "alice"))
        try fleet.hub.putUser(HubUser(name: "bob"))
        try fleet.hub.putCard(Self.card("alice", "badge", Self.badge))
        #expect(throws: HubStoreError.unknownUser("nobody")) { try fleet.hub.putCard(Self.card("nobody", "badge", Self.fob)) }
        #expect(throws: HubStoreError.self) { try fleet.hub.putCard(Self.card("bob", "badge", Self.badge)) }
        let desfire = HubCard(user: "bob", label: "secure", kind: .desfire, numberHash: Self.key.cardHash(CardNumber(desfireUID: [1, 2, 3, 4, 5, 6, 7])))
        #expect(throws: HubStoreError.self) { try fleet.hub.putCard(desfire) }
        #expect(try fleet.hub.cards(of: "bob").isEmpty && fleet.hub.cards(of: "alice").count == 1)
        // Moved to another user in one batch: the old owner's goes first, the new one's is taken.
        _ = try fleet.sync()
        #expect(try fleet.hub.deleteCard(user: "alice", label: "badge") != nil)
        try fleet.hub.putCard(Self.card("bob", "badge", Self.badge))
        let moved = try fleet.sync()
        #expect(moved.cardsRemoved == 1 && moved.cardsPut == 1 && moved.cardsTaken.isEmpty, "\(moved)")
        #expect(try fleet.door.card(matching: Self.badge) == nil, "the door has no fleet key: a hub card matches nothing")
    }
}
