import Foundation
import Testing
@testable import TemplateStore

/// Cards as credentials (migration 5): found by a keyed hash of their number, never stored in
/// clear; each change audited in its own transaction.
@Suite struct CardTests {
    @Test func addFindSwitchAndDeleteEachAudited() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "alice")
        try store.addUser(name: "bob")
        let badge = CardNumber(wiegandBits: 26, facility: 123, number: 4567)
        let fob = try CardNumber(parsing: "uid:04:A1:B2:C3:D4:E5:F6")
        try store.addCard(badge, label: "badge", for: "alice", by: "admin root")
        try store.addCard(fob, label: "blue-fob", for: "bob")

        let found = try #require(try store.card(matching: try CardNumber(parsing: "26:123:4567")))
        #expect(found.owner.name == "alice" && found.card.label == "badge" && found.card.kind == .wiegand && found.card.enabled)
        #expect(try store.card(matching: CardNumber(uid: [0x04, 0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6]))?.owner.name == "bob")
        #expect(try store.card(matching: CardNumber(wiegandBits: 26, facility: 123, number: 4568)) == nil)
        #expect(try store.card(matching: CardNumber(wiegandBits: 34, facility: 123, number: 4567)) == nil)
        #expect(try store.cards().map(\.label) == ["badge", "blue-fob"])
        #expect(try store.cards(of: "bob").map(\.kind) == [.nfcUID])

        #expect(throws: StoreError.cardTaken(user: "alice", label: "badge")) {
            try store.addCard(badge, label: "again", for: "bob")
        }
        #expect(throws: StoreError.cardLabelTaken(user: "bob", label: "blue-fob")) {
            try store.addCard(CardNumber(wiegandBits: 26, facility: 1, number: 2), label: "blue-fob", for: "bob")
        }
        #expect(throws: StoreError.unknownUser("carol")) {
            try store.addCard(CardNumber(wiegandBits: 26, facility: 1, number: 3), label: "x", for: "carol")
        }

        try store.setCardEnabled(false, user: "alice", label: "badge")
        #expect(try store.card(matching: badge)?.card.enabled == false)
        try store.setCardEnabled(true, user: "alice", label: "badge")
        #expect(throws: StoreError.unknownCard(user: "alice", label: "nope")) {
            try store.setCardEnabled(false, user: "alice", label: "nope")
        }
        try store.deleteCard(user: "bob", label: "blue-fob")
        #expect(try store.card(matching: fob) == nil)
        try store.deleteUser("alice")
        #expect(try store.cards().isEmpty)

        let audit = try store.auditEntries().map(\.event)
        #expect(audit == ["card-added", "card-added", "card-disabled", "card-enabled", "card-deleted"])
        #expect(try store.auditEntries().first?.detail == "wiegand card badge by admin root")
    }

    /// The file holds neither the canonical text nor the UID bytes; the hash is keyed, so the same
    /// number in another store (another key) hashes differently.
    @Test func numbersAreNeverInTheFile() throws {
        let dir = try TemporaryDirectory(), other = try TemporaryDirectory()
        defer { dir.remove(); other.remove() }
        let uid: [UInt8] = [0x04, 0x9f, 0x3c, 0x71, 0xe2, 0x58, 0x80]
        let number = CardNumber(uid: uid)
        do {
            let store = try dir.openStore()
            try store.addUser(name: "alice")
            try store.addCard(number, label: "fob", for: "alice")
            try store.addCard(CardNumber(wiegandBits: 34, facility: 40_961, number: 51_234), label: "badge", for: "alice")
            let otherStore = try other.openStore()
            #expect(try otherStore.cardHash(number) == nil, "no card, no hash key")
            #expect(try otherStore.cardHash(number, create: true) != store.cardHash(number))
            #expect(try store.cardHash(number) == store.cardHash(CardNumber(uid: uid)))
        }
        let bytes = fileBytes(dir.database) + fileBytes(dir.database + "-wal")
        #expect(!bytes.isEmpty)
        #expect(!contains(bytes, uid))
        #expect(!contains(bytes, Array("uid:049f3c71e25880".utf8)))
        #expect(!contains(bytes, Array("51234".utf8)))
        #expect(!contains(bytes, Array("40961".utf8)))
    }

    @Test func verifyModeIsSetClearedAndChecked() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "alice")
        #expect(try store.verifyMode(of: "alice") == nil)
        try store.setVerifyMode("card-and-finger", for: "alice", by: "admin root")
        #expect(try store.verifyMode(of: "alice") == "card-and-finger")
        #expect(throws: StoreError.self) { try store.setVerifyMode("card-or-finger", for: "alice") }
        #expect(try store.verifyMode(of: "alice") == "card-and-finger")
        try store.setVerifyMode(nil, for: "alice")
        #expect(try store.verifyMode(of: "alice") == nil)
        #expect(try store.auditEntries().map(\.detail) == ["card-and-finger by admin root", "the door's"])
    }

    @Test func cardNumbersAsTyped() throws {
        #expect(try CardNumber(parsing: "26:123:4567") == CardNumber(wiegandBits: 26, facility: 123, number: 4567))
        #expect(try CardNumber(parsing: "UID:04A1B2C3") == CardNumber(uid: [4, 0xa1, 0xb2, 0xc3]))
        #expect(throws: CardNumberError.facilityRange(256, bits: 26, maximum: 255)) { try CardNumber(parsing: "26:256:1") }
        #expect(throws: CardNumberError.numberRange(65_536)) { try CardNumber(parsing: "34:1:65536") }
        #expect(throws: CardNumberError.wiegandLength(37)) { try CardNumber(parsing: "37:1:1") }
        #expect(throws: CardNumberError.uidLength(5)) { try CardNumber(parsing: "uid:0102030405") }
        #expect(throws: CardNumberError.badUID) { try CardNumber(parsing: "uid:0g") }
        #expect(throws: CardNumberError.unrecognised) { try CardNumber(parsing: "4567") }
        #expect(throws: NameError.self) { try CardLabel(validating: "blue fob") }
    }
}
