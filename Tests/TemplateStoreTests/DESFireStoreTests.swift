import Foundation
import Testing
@testable import TemplateStore

/// DESFire secure cards in the store: the master key sealed in store_meta, and the `desfire`
/// kind of card (migration 6), hashed like the others.
@Suite struct DESFireStoreTests {
    @Test func theMasterKeyIsMadeOnceSealedAndKeptAcrossOpenings() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        #expect(try store.desfireMasterKey(create: false) == nil)
        let key = try #require(try store.desfireMasterKey(create: true))
        #expect(key.count == 16)
        #expect(try store.desfireMasterKey(create: true) == key)
        #expect(try store.desfireMasterKey(create: false) == key)
        #expect(try store.auditEntries(limit: 10).contains { $0.event == "desfire-master-key-created" })
        let reopened = try dir.openStore()
        #expect(try reopened.desfireMasterKey(create: false) == key)
        // Sealed: the database file does not hold the key in clear.
        #expect(!contains(fileBytes(dir.database), key))
    }

    @Test func aDESFireCardIsItsOwnKindAndNotTypedByHand() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "alice")
        let uid: [UInt8] = [0x04, 0x52, 0x7A, 0x92, 0xC1, 0x5E, 0x80]
        try store.addCard(CardNumber(desfireUID: uid), label: "badge", for: "alice")
        #expect(try store.cards().map(\.kind) == [.desfire])
        #expect(try store.card(matching: CardNumber(desfireUID: uid))?.card.label == "badge")
        // The same UID read as a plain UID is another credential: a copy of the UID is not the card.
        #expect(try store.card(matching: CardNumber(uid: uid)) == nil)
        #expect(throws: CardNumberError.desfireNotTyped) { try CardNumber(parsing: "desfire:04527A92C15E80") }
    }
}
