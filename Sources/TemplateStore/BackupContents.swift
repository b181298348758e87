import Foundation

/// Everything a backup holds: users with their PIN hashes and fingers with plaintext templates.
/// It only ever exists in memory or inside the encrypted backup file.
public struct BackupContents: Equatable, Sendable, Codable {
    public var createdAt: Date
    /// The module family the templates were made by; templates only fit a module of the same family.
    public var moduleFamily: String?
    /// The kind of reader the store was marked with (`TemplateStore.readerKindKey`: "module" or
    /// "image-sensor"), so a restore can refuse templates the other kind made. Nil in backups
    /// written before the mark existed, and of stores never marked.
    public var readerKind: String?
    public var users: [BackupUser]

    public init(createdAt: Date, moduleFamily: String?, readerKind: String? = nil, users: [BackupUser]) {
        self.createdAt = createdAt
        self.moduleFamily = moduleFamily
        self.readerKind = readerKind
        self.users = users
    }
}

extension BackupContents {
    /// Every user name, display name and finger label of the backup passes today's rules;
    /// else `StoreError.backupInvalidName`, before a restore changes anything.
    public func checkNames() throws(StoreError) {
        do {
            for user in users {
                _ = try UserName(validating: user.name)
                _ = try DisplayName(validating: user.displayName)
                for finger in user.fingers { _ = try FingerLabel(validating: finger.label) }
            }
        } catch {
            // The do block throws only NameError (typed throws), so `error` is one.
            throw .backupInvalidName(error)
        }
    }
}

public struct BackupUser: Equatable, Sendable, Codable {
    public var name: String
    public var displayName: String
    public var role: Role
    public var fingerprintUnlock: Bool
    /// The `crypto_pwhash_str` hash, carried as is.
    public var pinHash: String?
    public var createdAt: Date
    public var fingers: [BackupFinger]

    public init(name: String, displayName: String, role: Role, fingerprintUnlock: Bool, pinHash: String?,
                createdAt: Date, fingers: [BackupFinger]) {
        self.name = name
        self.displayName = displayName
        self.role = role
        self.fingerprintUnlock = fingerprintUnlock
        self.pinHash = pinHash
        self.createdAt = createdAt
        self.fingers = fingers
    }
}

public struct BackupFinger: Equatable, Sendable, Codable {
    public var label: String
    public var slot: Int
    public var template: [UInt8]
    public var quality: Int
    public var enrolledAt: Date
    /// A duress finger (see `Finger.isDuress`).
    public var isDuress: Bool

    public init(label: String, slot: Int, template: [UInt8], quality: Int, enrolledAt: Date, isDuress: Bool = false) {
        self.label = label
        self.slot = slot
        self.template = template
        self.quality = quality
        self.enrolledAt = enrolledAt
        self.isDuress = isDuress
    }

    private enum CodingKeys: String, CodingKey { case label, slot, template, quality, enrolledAt, duress }

    // Templates travel as base64, not as an array of numbers.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        label = try c.decode(String.self, forKey: .label)
        slot = try c.decode(Int.self, forKey: .slot)
        template = [UInt8](try c.decode(Data.self, forKey: .template))
        quality = try c.decode(Int.self, forKey: .quality)
        enrolledAt = try c.decode(Date.self, forKey: .enrolledAt)
        // Backups written before the flag existed used the label convention, as migration 3 does.
        isDuress = try c.decodeIfPresent(Bool.self, forKey: .duress) ?? label.lowercased().hasPrefix("duress")
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(label, forKey: .label)
        try c.encode(slot, forKey: .slot)
        try c.encode(Data(template), forKey: .template)
        try c.encode(quality, forKey: .quality)
        try c.encode(enrolledAt, forKey: .enrolledAt)
        try c.encode(isDuress, forKey: .duress)
    }
}
