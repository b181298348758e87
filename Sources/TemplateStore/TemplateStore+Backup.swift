import Foundation

extension TemplateStore {
    /// The kv key of the family whose module made the store's templates (recorded at enroll and
    /// restore), so a backup of an unpaired store still says which modules its templates fit.
    public static let templateFamilyKey = "templates.family"
    /// The kv key of the kind of reader the store's fingers were enrolled with (see
    /// `StoreReaderKind` in Administration, which reads and writes it).
    public static let readerKindKey = "reader.kind"

    /// Every user and finger with decrypted templates, as a backup holds them.
    public func backupContents(createdAt: Date = Date()) throws -> BackupContents {
        try transaction {
            let pinHashes = Dictionary(uniqueKeysWithValues: try connection.query("SELECT name, pin_hash FROM users")
                .map { ($0[0].string ?? "", $0[1].string) })
            let fingers = try allFingers()
            let users = try users().map { user in
                BackupUser(name: user.name, displayName: user.displayName, role: user.role,
                           fingerprintUnlock: user.fingerprintUnlock, pinHash: pinHashes[user.name] ?? nil,
                           createdAt: user.createdAt,
                           fingers: try fingers.filter { $0.user == user.name }.map {
                               BackupFinger(label: $0.label, slot: $0.slot, template: try template(atSlot: $0.slot),
                                            quality: $0.quality, enrolledAt: $0.enrolledAt, isDuress: $0.isDuress)
                           })
            }
            let family = try moduleIdentity()?.family ?? value(forKey: Self.templateFamilyKey)
            return BackupContents(createdAt: createdAt, moduleFamily: family, readerKind: try value(forKey: Self.readerKindKey),
                                  users: users)
        }
    }

    /// The whole store (users, PIN hashes, fingers, templates) in one passphrase-encrypted file.
    public func exportBackup(passphrase: String, strength: BackupStrength = .moderate) throws -> [UInt8] {
        try BackupFile.seal(try backupContents(), passphrase: passphrase, strength: strength)
    }

    /// Checks and decrypts a backup file; see `BackupFile.open`.
    public static func importBackup(_ bytes: [UInt8], passphrase: String) throws -> BackupContents {
        try BackupFile.open(bytes, passphrase: passphrase)
    }

    /// Replaces every user and finger with the backup's, in one transaction: on any error
    /// nothing changes. The module identity, intents and audit log stay; a `restore` audit row is added.
    public func replaceAll(with contents: BackupContents) throws {
        try contents.checkNames()
        try transaction {
            try connection.query("DELETE FROM users")
            for user in contents.users {
                let name = try UserName(validating: user.name)
                try addUser(name: name, displayName: try DisplayName(validating: user.displayName), role: user.role,
                            fingerprintUnlock: user.fingerprintUnlock, createdAt: user.createdAt)
                try connection.query("UPDATE users SET pin_hash = ? WHERE name = ?", [user.pinHash.sql, .text(user.name)])
                for finger in user.fingers {
                    try addFinger(user: name, label: try FingerLabel(validating: finger.label), slot: finger.slot, template: finger.template,
                                  quality: finger.quality, enrolledAt: finger.enrolledAt, duress: finger.isDuress)
                }
            }
            let fingerCount = contents.users.reduce(0) { $0 + $1.fingers.count }
            try appendAudit(event: "restore",
                            detail: "restored \(contents.users.count) users and \(fingerCount) fingers from a backup of \(contents.createdAt)")
        }
    }
}
