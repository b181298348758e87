import Foundation
import Testing
@testable import TemplateStore

/// Backups carry cards (their keyed hashes and the key), verify modes, panel cards and the
/// store's named secrets; a restore brings them back exactly into a store with another key,
/// refuses what it could not write before it writes anything, and still reads version 1 files.
@Suite struct BackupCardTests {
    static let badge = CardNumber(wiegandBits: 26, facility: 123, number: 4567)
    static let phone = CardNumber(uid: [0x04, 0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6])
    static let fob = CardNumber(uid: [0x0a, 0x1b, 0x2c, 0x3d])
    static let panel = CardNumber(wiegandBits: 34, facility: 4242, number: 77)
    static let desfireKey: [UInt8] = Array(0x40..<0x50)
    static let epoch = Date(timeIntervalSince1970: 0)

    /// alice: a Wiegand card (on) and a phone's UID (off), her own verify mode and a panel card;
    /// bob: a fob; carol: nothing of a card. And a DESFire master key, as DESFire support keeps it.
    func storeWithCards(_ dir: TemporaryDirectory) throws -> TemplateStore {
        let store = try dir.openStore()
        try store.addUser(name: "alice", displayName: "Alice", role: .admin)
        try store.addUser(name: "bob")
        try store.addUser(name: "carol")
        try store.setPIN("4826", for: "alice")
        try store.addFinger(user: "alice", label: "right-index", slot: 0, template: sampleTemplate(1), quality: 90)
        try store.addCard(Self.badge, label: "badge", for: "alice", addedAt: Date(timeIntervalSince1970: 1_700_000_000.25))
        try store.addCard(Self.phone, label: "phone", for: "alice", addedAt: Date(timeIntervalSince1970: 1_700_000_100))
        try store.setCardEnabled(false, user: "alice", label: "phone")
        try store.addCard(Self.fob, label: "fob", for: "bob")
        try store.setVerifyMode("card-and-finger", for: "alice")
        try store.setPanelCard(Self.panel, for: "alice")
        try store.setMetaSecret(Self.desfireKey, named: "desfire-master-key")
        return store
    }

    @Test func cardsModesPanelCardsAndSecretsComeBackExactlyUnderAnotherStoreKey() throws {
        let source = try TemporaryDirectory(), target = try TemporaryDirectory()
        defer { source.remove(); target.remove() }
        let store = try storeWithCards(source)
        let bytes = try store.exportBackup(passphrase: "correct horse", strength: .interactive)
        #expect(bytes[8] == 2)
        let hashKey = try #require(try store.cardHashKey(create: false))
        #expect(!contains(bytes, hashKey) && !contains(bytes, Self.desfireKey))

        // The target has a card-hash key of its own, and a card under it that the restore removes.
        let restored = try target.openStore()
        try restored.addUser(name: "dave")
        try restored.addCard(Self.fob, label: "old-fob", for: "dave")
        try restored.setMetaSecret(Array(repeating: 1, count: 16), named: "desfire-master-key")
        #expect(try restored.cardHashKey(create: false) != hashKey)

        try restored.replaceAll(with: try TemplateStore.importBackup(bytes, passphrase: "correct horse"))
        #expect(try restored.backupContents(createdAt: Self.epoch) == store.backupContents(createdAt: Self.epoch))
        #expect(try restored.cardHashKey(create: false) == hashKey)
        #expect(try restored.metaSecret(named: "desfire-master-key") == Self.desfireKey)

        // Found by the numbers themselves: the hashes match because the key travelled.
        let badge = try #require(try restored.card(matching: try CardNumber(parsing: "26:123:4567")))
        #expect(badge.owner.name == "alice" && badge.card.label == "badge" && badge.card.kind == .wiegand && badge.card.enabled)
        #expect(badge.card.addedAt == Date(timeIntervalSince1970: 1_700_000_000.25))
        let phone = try #require(try restored.card(matching: Self.phone))
        #expect(phone.owner.name == "alice" && phone.card.kind == .nfcUID && !phone.card.enabled)
        #expect(try restored.card(matching: Self.fob)?.owner.name == "bob")
        #expect(try restored.cards().map(\.label) == ["badge", "phone", "fob"])
        #expect(try restored.verifyMode(of: "alice") == "card-and-finger")
        #expect(try restored.verifyMode(of: "bob") == nil)
        #expect(try restored.panelCard(of: "alice") == Self.panel)
        #expect(try restored.panelCard(of: "carol") == nil)
        #expect(throws: StoreError.cardTaken(user: "alice", label: "badge")) {
            try restored.addCard(Self.badge, label: "copy", for: "carol")
        }

        let audit = try #require(try restored.auditEntries().last)
        #expect(audit.event == "restore")
        #expect(audit.detail?.hasPrefix("restored 3 users, 1 fingers and 3 cards with the store secrets card-hash-key, desfire-master-key") == true,
                "\(audit.detail ?? "")")
    }

    /// A backup with no card, mode, panel card or secret is the version 1 file older fpmod reads.
    @Test func onlyWhatCardsAddMakesAVersion2File() throws {
        let user = BackupUser(name: "a", displayName: "A", role: .user, fingerprintUnlock: true, pinHash: nil,
                              createdAt: Self.epoch, fingers: [])
        let plain = BackupContents(createdAt: Self.epoch, moduleFamily: nil, users: [user])
        #expect(try BackupFile.seal(plain, passphrase: "p", strength: .interactive)[8] == 1)
        let json = String(decoding: try JSONEncoder().encode(plain), as: UTF8.self)
        for key in ["cards", "secrets", "verifyMode", "panelCard"] { #expect(!json.contains(key), "\(key) in \(json)") }

        var mode = user
        mode.verifyMode = "pin"
        var panel = user
        panel.panelCard = "26:1:2"
        var card = user
        card.cards = [BackupCard(label: "c", kind: "wiegand", enabled: true, addedAt: Self.epoch, numberHash: Array(repeating: 7, count: 32))]
        for changed in [[mode], [panel], [card]] {
            let contents = BackupContents(createdAt: Self.epoch, moduleFamily: nil, users: changed)
            #expect(try BackupFile.seal(contents, passphrase: "p", strength: .interactive)[8] == 2)
        }
        let secret = BackupContents(createdAt: Self.epoch, moduleFamily: nil, users: [user],
                                    secrets: ["desfire-master-key": [1, 2, 3]])
        let sealed = try BackupFile.seal(secret, passphrase: "p", strength: .interactive)
        #expect(sealed[8] == 2)
        #expect(try BackupFile.open(sealed, passphrase: "p") == secret)

        let future = try BackupFile.seal(json: Array("{}".utf8), version: 4, passphrase: "p", strength: .interactive)
        #expect(throws: StoreError.backupUnsupportedVersion(4)) { _ = try BackupFile.open(future, passphrase: "p") }
    }

    // The JSON of a version 1 backup, as fpmod wrote it before cards existed.
    private struct V1Contents: Encodable {
        var createdAt: Date
        var moduleFamily: String?
        var users: [V1User]
    }
    private struct V1User: Encodable {
        var name: String, displayName: String, role: String, fingerprintUnlock: Bool, pinHash: String?, createdAt: Date
        var fingers: [V1Finger]
    }
    private struct V1Finger: Encodable {
        var label: String, slot: Int, template: Data, quality: Int, enrolledAt: Date, duress: Bool
    }

    @Test func aVersion1BackupRestoresAndKeepsTheStoresSecrets() throws {
        let source = try TemporaryDirectory(), target = try TemporaryDirectory()
        defer { source.remove(); target.remove() }
        let pinHash = try {
            let store = try source.openStore()
            try store.addUser(name: "erin")
            try store.setPIN("4826", for: "erin")
            return try store.backupContents().users[0].pinHash
        }()
        let old = V1Contents(createdAt: Date(timeIntervalSince1970: 1_600_000_000), moduleFamily: "r30x", users: [
            V1User(name: "erin", displayName: "Erin", role: "admin", fingerprintUnlock: false, pinHash: pinHash,
                   createdAt: Date(timeIntervalSince1970: 1_600_000_001),
                   fingers: [V1Finger(label: "left-ring", slot: 4, template: Data(sampleTemplate(9)), quality: 70,
                                      enrolledAt: Date(timeIntervalSince1970: 1_600_000_002), duress: true)]),
        ])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let bytes = try BackupFile.seal(json: [UInt8](try encoder.encode(old)), version: 1, passphrase: "p", strength: .interactive)

        let store = try target.openStore()
        try store.addUser(name: "dave")
        try store.addCard(Self.badge, label: "badge", for: "dave")
        try store.setVerifyMode("card", for: "dave")
        try store.setMetaSecret(Self.desfireKey, named: "desfire-master-key")
        let hashKey = try store.cardHashKey(create: false)

        let contents = try TemplateStore.importBackup(bytes, passphrase: "p")
        #expect(contents.secrets.isEmpty && contents.users[0].cards.isEmpty && contents.users[0].verifyMode == nil)
        try store.replaceAll(with: contents)
        #expect(try store.users().map(\.name) == ["erin"])
        #expect(try store.user(named: "erin")?.role == .admin)
        #expect(try store.verifyPIN("4826", for: "erin"))
        #expect(try store.template(atSlot: 4) == sampleTemplate(9))
        #expect(try store.finger(atSlot: 4)?.isDuress == true)
        #expect(try store.cards().isEmpty && store.card(matching: Self.badge) == nil)
        #expect(try store.verifyMode(of: "erin") == nil && store.panelCard(of: "erin") == nil)
        // A secret the backup does not carry stays: no card needs it now, but cards keyed with it may come back.
        #expect(try store.cardHashKey(create: false) == hashKey)
        #expect(try store.metaSecret(named: "desfire-master-key") == Self.desfireKey)
        #expect(try store.auditEntries().last?.detail?.hasPrefix("restored 1 users, 1 fingers and 0 cards from a backup of") == true)
    }

    /// Each field a restore could not write as it is, changed in an otherwise good backup: refused
    /// with a StoreError naming it, and the store (users, cards, modes, panel cards, secrets,
    /// audit log) as it was.
    @Test func anInvalidFieldIsRefusedBeforeAnythingChanges() throws {
        let source = try TemporaryDirectory(), target = try TemporaryDirectory()
        defer { source.remove(); target.remove() }
        let good = try storeWithCards(source).backupContents()
        let store = try target.openStore()
        try store.addUser(name: "dave")
        try store.addCard(Self.fob, label: "fob", for: "dave")
        try store.setVerifyMode("pin", for: "dave")
        try store.setPanelCard(Self.badge, for: "dave")
        let before = try store.backupContents(createdAt: Self.epoch)
        let auditCount = try store.auditEntries().count

        func alice(_ change: (inout BackupUser) -> Void) -> BackupContents {
            var contents = good
            change(&contents.users[0])
            return contents
        }
        var sameCard = good
        sameCard.users[1].cards[0].numberHash = good.users[0].cards[0].numberHash
        var shortKey = good
        shortKey.secrets["card-hash-key"] = Array(repeating: 9, count: 16)
        var noKey = good
        noKey.secrets["card-hash-key"] = nil
        var unknownSecret = good
        unknownSecret.secrets["door-master-key"] = [1]
        var emptySecret = good
        emptySecret.secrets["desfire-master-key"] = []

        let cases: [(String, BackupContents, [String])] = [
            ("card kind", alice { $0.cards[0].kind = "magstripe" }, ["alice's card badge", "\"magstripe\"", "does not know"]),
            ("verify mode", alice { $0.verifyMode = "card-or-finger" }, ["alice's verify mode \"card-or-finger\""]),
            ("UID panel card", alice { $0.panelCard = "uid:04a1b2c3" }, ["alice's panel card is not"]),
            ("out-of-range panel card", alice { $0.panelCard = "26:300:4242" }, ["alice's panel card is not"]),
            ("two cards one label", alice { $0.cards[1].label = "badge" }, ["alice has two cards labelled badge"]),
            ("hash length", alice { $0.cards[0].numberHash.removeLast() }, ["alice's card badge has a hash of 31 bytes, not 32"]),
            ("one card twice", sameCard, ["bob's card fob and alice's card badge are the same card"]),
            ("card-hash-key length", shortKey, ["\"card-hash-key\" is 16 bytes long, not 32"]),
            ("no card-hash-key", noKey, ["holds cards but not the key of their hashes"]),
            ("unknown secret", unknownSecret, ["\"door-master-key\", which this fpmod does not know"]),
            ("empty secret", emptySecret, ["\"desfire-master-key\" is 0 bytes long"]),
        ]
        for (what, contents, words) in cases {
            #expect {
                try store.replaceAll(with: contents)
            } throws: { error in
                guard case .backupInvalid? = error as? StoreError else { return false }
                let message = "\(error)"
                // A panel card's number is a credential: never in a message.
                return words.allSatisfy(message.contains) && !message.contains("4242")
            }
            #expect(try store.backupContents(createdAt: Self.epoch) == before, "\(what)")
        }

        let badLabel = alice { $0.cards[0].label = "blue fob" }
        #expect {
            try store.replaceAll(with: badLabel)
        } throws: { error in
            guard case .backupInvalidName(let name)? = error as? StoreError else { return false }
            return name.field == .cardLabel && name.text == "blue fob"
        }
        #expect(try store.backupContents(createdAt: Self.epoch) == before)
        #expect(try store.auditEntries().count == auditCount)
        #expect(try store.card(matching: Self.fob)?.owner.name == "dave")

        // The same backup unchanged goes in.
        try store.replaceAll(with: good)
        #expect(try store.card(matching: Self.fob)?.owner.name == "bob")
    }

    /// The names a backup's verify mode is checked against are the ones the store's CHECK takes.
    @Test func everyVerifyModeNameIsOneTheStoreTakes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "alice")
        for name in TemplateStore.verifyModeNames {
            try store.setVerifyMode(name, for: "alice")
            #expect(try store.verifyMode(of: "alice") == name)
        }
        #expect(throws: StoreError.self) { try store.setVerifyMode("card-or-finger", for: "alice") }
    }
}

extension BackupCardTests {
    /// Interpolated into a log line or an error by mistake, the contents name no secret.
    @Test func aDescriptionCarriesNoSecret() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let contents = try storeWithCards(dir).backupContents()
        let hashKey = try #require(contents.secrets["card-hash-key"])
        for text in ["\(contents)", "\(contents.users)", String(describing: contents)] {
            #expect(text.contains("3 users") || text.contains("alice"), "\(text)")
            for secret in [Self.desfireKey, hashKey, contents.users[0].cards[0].numberHash] {
                #expect(!text.contains(Data(secret).base64EncodedString()) && !text.contains("\(secret)"), "\(text)")
            }
            #expect(!text.contains("4242") && !text.contains("$argon2"), "\(text)")
        }
    }
}
