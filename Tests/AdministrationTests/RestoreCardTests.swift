import Administration
import Foundation
import Testing
import TemplateStore

/// A module restore brings the cards, verify modes and panel cards back with the users, counts
/// the cards, and refuses a backup whose cards it could not write before its intent is written.
@Suite struct RestoreCardTests {
    static let badge = CardNumber(wiegandBits: 26, facility: 123, number: 4567)
    static let phone = CardNumber(uid: [0x04, 0xa1, 0xb2, 0xc3])

    @Test func cardsComeBackWithTheUsersOntoAFreshModule() throws {
        let source = try Bench()
        let admin = try source.open()
        try source.enroll(admin, "alice")
        try source.store.addCard(Self.badge, label: "badge", for: "alice")
        try source.store.addCard(Self.phone, label: "phone", for: "alice")
        try source.store.setCardEnabled(false, user: "alice", label: "phone")
        try source.store.setVerifyMode("card-and-finger", for: "alice")
        try source.store.setPanelCard(CardNumber(wiegandBits: 26, facility: 9, number: 99), for: "alice")
        let path = source.directory + "/backup.fpb"
        let written = try StoreAdministration.backup(source.store, to: path, passphrase: "correct horse")
        #expect(written.users == 1 && written.fingers == 1 && written.cards == 2)
        #expect(try source.store.auditEntries().last?.detail == "wrote 1 users, 1 fingers and 2 cards to \(path)")

        let target = try Bench()
        let fresh = try target.open()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let result = try fresh.restore(try TemplateStore.importBackup(bytes, passphrase: "correct horse"), replacing: false)
        #expect(result.users == 1 && result.cards == 2 && result.slotsVerified == [0])
        let found = try #require(try target.store.card(matching: Self.badge))
        #expect(found.owner.name == "alice" && found.card.label == "badge" && found.card.enabled)
        #expect(try target.store.card(matching: Self.phone)?.card.enabled == false)
        #expect(try target.store.verifyMode(of: "alice") == "card-and-finger")
        #expect(try target.store.panelCard(of: "alice") == CardNumber(wiegandBits: 26, facility: 9, number: 99))
        let restore = try #require(try target.store.auditEntries().last { $0.event == "restore" })
        #expect(restore.detail?.hasPrefix("restored 1 users, 1 fingers and 2 cards with the store secrets card-hash-key") == true,
                "\(restore.detail ?? "")")
        #expect(try target.identify(fresh, finger: "alice-right-index").matchedUser == "alice")
    }

    @Test func aCardTheStoreCouldNotWriteIsRefusedBeforeTheIntent() throws {
        let source = try Bench()
        let admin = try source.open()
        try source.enroll(admin, "alice")
        try source.store.addCard(Self.badge, label: "badge", for: "alice")
        var contents = try source.store.backupContents()
        contents.users[0].cards[0].kind = "magstripe"

        let target = try Bench()
        let other = try target.open()
        try target.enroll(other, "dave")
        let auditCount = try target.store.auditEntries().count
        #expect {
            try other.restore(contents, replacing: true)
        } throws: { error in
            guard case .backupInvalid(let detail)? = error as? StoreError else { return false }
            return detail.contains("magstripe")
        }
        #expect(try target.store.pendingIntents().isEmpty)
        #expect(try target.store.users().map(\.name) == ["dave"])
        #expect(try target.store.auditEntries().count == auditCount)
        #expect(try target.identify(other, finger: "dave-right-index").matchedUser == "dave")
    }
}
