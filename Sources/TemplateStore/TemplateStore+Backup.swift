import AccessPolicy
import Foundation
import PrintableText

extension TemplateStore {
    /// The kv key of the family whose module made the store's templates (recorded at enroll and
    /// restore), so a backup of an unpaired store still says which modules its templates fit.
    public static let templateFamilyKey = "templates.family"
    /// The kv key of the kind of reader the store's fingers were enrolled with (see
    /// `StoreReaderKind` in Administration, which reads and writes it).
    public static let readerKindKey = "reader.kind"
    /// Its value for an image sensor's store (`ReaderDescription.Kind.imageSensor`): slots are
    /// places in the host's library, not a module's flash pages.
    public static let imageSensorReaderKind = "image-sensor"

    /// The verify modes `users.verify_mode` takes (migration 5's CHECK): `VerifyMode`'s raw
    /// values, which this module cannot see. A restore checks a backup's modes against them
    /// before it writes anything.
    public static let verifyModeNames = [
        "finger", "pin", "card", "finger-or-pin", "card-and-finger", "finger-and-pin", "card-and-pin",
    ]

    /// Every user with their fingers (templates decrypted), cards (keyed hashes), verify mode
    /// and panel card (unsealed), and the store's secrets of `backedUpSecretNames`: as a backup
    /// holds them.
    public func backupContents(createdAt: Date = Date()) throws -> BackupContents {
        try transaction {
            let pinHashes = Dictionary(uniqueKeysWithValues: try connection.query("SELECT name, pin_hash FROM users")
                .map { ($0[0].string ?? "", $0[1].string) })
            let fingers = try allFingers()
            let cards = Dictionary(grouping: try connection.query("""
                SELECT users.name, cards.label, cards.kind, cards.enabled, cards.added_at, cards.number_hash,
                       cards.valid_from, cards.valid_until
                FROM cards JOIN users ON users.id = cards.user_id ORDER BY users.name, cards.label
                """), by: { $0[0].string ?? "" })
            let users = try users().map { user in
                BackupUser(name: user.name, displayName: user.displayName, role: user.role,
                           fingerprintUnlock: user.fingerprintUnlock, pinHash: pinHashes[user.name] ?? nil,
                           createdAt: user.createdAt,
                           fingers: try fingers.filter { $0.user == user.name }.map {
                               BackupFinger(label: $0.label, slot: $0.slot, template: try template(atSlot: $0.slot),
                                            quality: $0.quality, enrolledAt: $0.enrolledAt, isDuress: $0.isDuress)
                           },
                           verifyMode: try verifyMode(of: user.name),
                           // As the service reads it: a sealed text that is no card number is no panel card.
                           panelCard: try panelCard(of: user.name)?.typed,
                           cards: (cards[user.name] ?? []).map {
                               BackupCard(label: $0[1].string ?? "", kind: $0[2].string ?? "", enabled: $0[3].int64 == 1,
                                          addedAt: Date(storeValue: $0[4]), numberHash: $0[5].bytes ?? [],
                                          validFrom: $0[6].int64, validUntil: $0[7].int64)
                           }).withAccess(try access(of: user.name))
            }
            let family = try moduleIdentity()?.family ?? value(forKey: Self.templateFamilyKey)
            return BackupContents(createdAt: createdAt, moduleFamily: family, readerKind: try value(forKey: Self.readerKindKey),
                                  users: users, secrets: try backedUpSecrets(),
                                  schedules: try schedules().map { BackupSchedule(name: $0.name, text: $0.text) },
                                  holidays: try holidays().map { BackupHoliday(name: $0.name, first: $0.first, last: $0.last,
                                                                               yearly: $0.yearly, hours: $0.hours) })
        }
    }

    /// The whole store (users, PIN hashes, fingers, templates, cards, the store's secrets) in one
    /// passphrase-encrypted file.
    public func exportBackup(passphrase: String, strength: BackupStrength = .moderate) throws -> [UInt8] {
        try BackupFile.seal(try backupContents(), passphrase: passphrase, strength: strength)
    }

    /// Checks and decrypts a backup file; see `BackupFile.open`.
    public static func importBackup(_ bytes: [UInt8], passphrase: String) throws -> BackupContents {
        try BackupFile.open(bytes, passphrase: passphrase)
    }

    /// Replaces every user, finger and card with the backup's, in one transaction: on any error
    /// nothing changes. Each secret the backup carries replaces the store's: the cards it was
    /// hashed for are deleted with their users, and the backup's cards match only under the
    /// backup's key. A secret the backup lacks (one written before it existed) is kept. The
    /// module identity, intents and audit log stay; a `restore` audit row is added.
    public func replaceAll(with contents: BackupContents) throws {
        try contents.check()
        try transaction {
            try connection.query("DELETE FROM users")
            // The backup's rules replace the store's, as its users do.
            try connection.query("DELETE FROM schedules")
            try connection.query("DELETE FROM holidays")
            for schedule in contents.schedules {
                try connection.query("INSERT INTO schedules (name, text, created_at) VALUES (?, ?, ?)",
                                     [.text(schedule.name), .text(schedule.text), Date().storeValue])
            }
            for holiday in contents.holidays {
                try connection.query("INSERT INTO holidays (name, first, last, yearly, hours, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                                     [.text(holiday.name), .text(holiday.first), .text(holiday.last), .integer(holiday.yearly ? 1 : 0),
                                      holiday.hours.sql, Date().storeValue])
            }
            for user in contents.users {
                let name = try UserName(validating: user.name)
                try addUser(name: name, displayName: try DisplayName(validating: user.displayName), role: user.role,
                            fingerprintUnlock: user.fingerprintUnlock, createdAt: user.createdAt)
                let panelCard = try user.panelCard.map { text in
                    guard let number = try? CardNumber(parsing: text) else {
                        throw StoreError.backupInvalid(detail: "\(Printable.escaped(user.name))'s panel card is not a card number")
                    }
                    return SQLValue.blob(Crypto.seal(Array(number.typed.utf8), associatedData: Self.panelCardData, key: key))
                }
                try connection.query("""
                    UPDATE users SET pin_hash = ?, verify_mode = ?, panel_card = ?, schedule = ?, valid_from = ?, valid_until = ?,
                    uses_left = ? WHERE name = ?
                    """, [user.pinHash.sql, user.verifyMode.sql, panelCard ?? .null, user.schedule.sql,
                          user.validFrom.map { .integer($0) } ?? .null, user.validUntil.map { .integer($0) } ?? .null,
                          user.usesLeft.sql, .text(user.name)])
                for finger in user.fingers {
                    try addFinger(user: name, label: try FingerLabel(validating: finger.label), slot: finger.slot, template: finger.template,
                                  quality: finger.quality, enrolledAt: finger.enrolledAt, duress: finger.isDuress)
                }
                for card in user.cards {
                    try connection.query("""
                        INSERT INTO cards (user_id, label, kind, number_hash, enabled, added_at, valid_from, valid_until)
                        VALUES ((SELECT id FROM users WHERE name = ?), ?, ?, ?, ?, ?, ?, ?)
                        """, [.text(user.name), .text(try CardLabel(validating: card.label).text), .text(card.kind),
                              .blob(card.numberHash), .integer(card.enabled ? 1 : 0), card.addedAt.storeValue,
                              card.validFrom.map { .integer($0) } ?? .null, card.validUntil.map { .integer($0) } ?? .null])
                }
            }
            let secrets = Self.backedUpSecretNames.filter { contents.secrets[$0] != nil }
            for name in secrets {
                try setMetaSecret(contents.secrets[name] ?? [], named: name)
            }
            try appendAudit(event: "restore",
                            detail: "restored \(contents.users.count) users, \(contents.fingerCount) fingers and \(contents.cardCount) cards"
                                + (contents.schedules.isEmpty && contents.holidays.isEmpty ? ""
                                   : ", \(contents.schedules.count) schedules and \(contents.holidays.count) holidays")
                                + (secrets.isEmpty ? "" : " with the store secrets \(secrets.joined(separator: ", "))")
                                + " from a backup of \(contents.createdAt)")
        }
    }
}

extension BackupUser {
    /// The same user with their access rules.
    func withAccess(_ access: UserAccess) -> BackupUser {
        var user = self
        user.schedule = access.schedule
        user.validFrom = access.validFrom
        user.validUntil = access.validUntil
        user.usesLeft = access.usesLeft
        return user
    }
}
