import AccessPolicy
import Foundation
import PrintableText

/// Everything a backup holds: users with their PIN hashes, fingers with plaintext templates,
/// cards with their keyed hashes, and the store's named secrets (the cards' hash key among them)
/// in the raw. It only ever exists in memory or inside the encrypted backup file.
public struct BackupContents: Equatable, Sendable, Codable {
    public var createdAt: Date
    /// The module family the templates were made by; templates only fit a module of the same family.
    public var moduleFamily: String?
    /// The kind of reader the store was marked with (`TemplateStore.readerKindKey`: "module" or
    /// "image-sensor"), so a restore can refuse templates the other kind made. Nil in backups
    /// written before the mark existed, and of stores never marked.
    public var readerKind: String?
    public var users: [BackupUser]
    /// The store's secrets of `TemplateStore.backedUpSecretNames` that it holds, unsealed, by
    /// name. The card-hash key has to travel: the cards' hashes are of it, and the numbers they
    /// hash are nowhere. Empty in backups written before cards existed.
    public var secrets: [String: [UInt8]]
    /// Who may enter when: the store's schedules and holidays (the users' own rules are in
    /// `BackupUser`). Empty in backups written before they existed.
    public var schedules: [BackupSchedule]
    public var holidays: [BackupHoliday]

    public init(createdAt: Date, moduleFamily: String?, readerKind: String? = nil, users: [BackupUser],
                secrets: [String: [UInt8]] = [:], schedules: [BackupSchedule] = [], holidays: [BackupHoliday] = []) {
        self.createdAt = createdAt
        self.moduleFamily = moduleFamily
        self.readerKind = readerKind
        self.users = users
        self.secrets = secrets
        self.schedules = schedules
        self.holidays = holidays
    }

    public var cardCount: Int { users.reduce(0) { $0 + $1.cards.count } }
    public var fingerCount: Int { users.reduce(0) { $0 + $1.fingers.count } }

    /// The file format these contents need: 2 once they hold anything of a card (a card, a
    /// secret, a verify mode, a panel card), so an fpmod that predates them refuses the file
    /// ("unsupported version") instead of reading it and dropping what it does not know (JSON
    /// decoding skips unknown keys). Anything else stays 1, readable by every fpmod.
    /// 3 once they hold access rules (a schedule, a holiday, a user's schedule, validity or
    /// uses): an fpmod without them would restore a guest valid until Sunday as valid for ever.
    var formatVersion: UInt8 {
        let rules = !schedules.isEmpty || !holidays.isEmpty
            || users.contains { $0.schedule != nil || $0.validFrom != nil || $0.validUntil != nil || $0.usesLeft != nil }
            || users.contains { $0.cards.contains { $0.validFrom != nil || $0.validUntil != nil } }
        if rules { return 3 }
        let cardsOrModes = users.contains { !$0.cards.isEmpty || $0.verifyMode != nil || $0.panelCard != nil }
        return cardsOrModes || !secrets.isEmpty ? 2 : 1
    }

    private enum CodingKeys: String, CodingKey { case createdAt, moduleFamily, readerKind, users, secrets, schedules, holidays }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        moduleFamily = try c.decodeIfPresent(String.self, forKey: .moduleFamily)
        readerKind = try c.decodeIfPresent(String.self, forKey: .readerKind)
        users = try c.decode([BackupUser].self, forKey: .users)
        secrets = try c.decodeIfPresent([String: Data].self, forKey: .secrets)?.mapValues { [UInt8]($0) } ?? [:]
        schedules = try c.decodeIfPresent([BackupSchedule].self, forKey: .schedules) ?? []
        holidays = try c.decodeIfPresent([BackupHoliday].self, forKey: .holidays) ?? []
    }

    // Nothing is written for what is absent, so contents without cards encode as version 1 did.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encodeIfPresent(moduleFamily, forKey: .moduleFamily)
        try c.encodeIfPresent(readerKind, forKey: .readerKind)
        try c.encode(users, forKey: .users)
        if !secrets.isEmpty { try c.encode(secrets.mapValues { Data($0) }, forKey: .secrets) }
        if !schedules.isEmpty { try c.encode(schedules, forKey: .schedules) }
        if !holidays.isEmpty { try c.encode(holidays, forKey: .holidays) }
    }
}

/// A schedule as a backup carries it: its name and text, read again before a restore.
public struct BackupSchedule: Equatable, Sendable, Codable {
    public var name: String
    public var text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}

/// A holiday as a backup carries it (dates `YYYY-MM-DD`; `hours` nil: closed).
public struct BackupHoliday: Equatable, Sendable, Codable {
    public var name: String
    public var first: String
    public var last: String
    public var yearly: Bool
    public var hours: String?

    public init(name: String, first: String, last: String, yearly: Bool, hours: String?) {
        self.name = name
        self.first = first
        self.last = last
        self.yearly = yearly
        self.hours = hours
    }
}

extension BackupContents {
    /// Everything a restore would write passes today's rules: `StoreError.backupInvalidName`
    /// for a name or label, `StoreError.backupInvalid` for the rest. Called before a restore
    /// changes anything: the store's own constraints would only catch some of it, and only
    /// after a module restore has written its intent.
    public func check() throws(StoreError) {
        do {
            for user in users {
                _ = try UserName(validating: user.name)
                _ = try DisplayName(validating: user.displayName)
                for finger in user.fingers { _ = try FingerLabel(validating: finger.label) }
                for card in user.cards { _ = try CardLabel(validating: card.label) }
            }
        } catch {
            // The do block throws only NameError (typed throws), so `error` is one.
            throw .backupInvalidName(error)
        }
        var owners: [[UInt8]: (user: String, label: String)] = [:]
        for user in users {
            let who = Printable.escaped(user.name)
            if let mode = user.verifyMode, !TemplateStore.verifyModeNames.contains(mode) {
                throw .backupInvalid(detail: "\(who)'s verify mode \(quoted(mode)) is not one this fpmod knows ("
                                     + TemplateStore.verifyModeNames.joined(separator: ", ") + ")")
            }
            // The number is a credential: the message says what is wrong with it, never what it is.
            if let text = user.panelCard, (try? CardNumber(parsing: text))?.kind != .wiegand {
                throw .backupInvalid(detail: "\(who)'s panel card is not a 26- or 34-bit Wiegand card number")
            }
            var labels: Set<String> = []
            for card in user.cards {
                // Compared as the store would keep them (CardLabel's normalisation).
                let label = card.label.precomposedStringWithCanonicalMapping
                let named = "\(who)'s card \(Printable.escaped(card.label))"
                guard labels.insert(label).inserted else {
                    throw .backupInvalid(detail: "\(who) has two cards labelled \(Printable.escaped(card.label))")
                }
                guard CardNumber.Kind(rawValue: card.kind) != nil else {
                    throw .backupInvalid(detail: "\(named) is of kind \(quoted(card.kind)), which this fpmod does not know ("
                                         + CardNumber.Kind.allCases.map(\.rawValue).joined(separator: ", ") + ")")
                }
                guard card.numberHash.count == TemplateStore.cardHashBytes else {
                    throw .backupInvalid(detail: "\(named) has a hash of \(card.numberHash.count) bytes, not \(TemplateStore.cardHashBytes)")
                }
                if let first = owners.updateValue((user.name, card.label), forKey: card.numberHash) {
                    throw .backupInvalid(detail: "\(named) and \(Printable.escaped(first.user))'s card \(Printable.escaped(first.label)) are the same card")
                }
            }
        }
        for (name, value) in secrets.sorted(by: { $0.key < $1.key }) {
            guard TemplateStore.backedUpSecretNames.contains(name) else {
                throw .backupInvalid(detail: "it holds a store secret named \(quoted(name)), which this fpmod does not know")
            }
            let wanted = TemplateStore.requiredLength(ofSecret: name)
            guard !value.isEmpty, wanted == nil || value.count == wanted else {
                throw .backupInvalid(detail: "its store secret \(quoted(name)) is \(value.count) bytes long"
                                     + (wanted.map { ", not \($0)" } ?? ""))
            }
        }
        try checkAccessRules()
        if !owners.isEmpty, secrets[TemplateStore.hashKeyName] == nil {
            throw .backupInvalid(detail: "it holds cards but not the key of their hashes, so none of them would ever match")
        }
    }
}

extension BackupContents {
    /// The schedules, holidays and users' rules pass today's rules too: a name, a text that
    /// reads, dates that exist, a user's schedule that the backup has, validity in order.
    func checkAccessRules() throws(StoreError) {
        var names: Set<String> = []
        for schedule in schedules {
            guard (try? RuleName(validating: schedule.name)) != nil, names.insert(schedule.name).inserted else {
                throw .backupInvalid(detail: "its schedule name \(quoted(schedule.name)) is not one this fpmod accepts, or appears twice")
            }
            do { _ = try WeeklySchedule(parsing: schedule.text) } catch {
                throw .backupInvalid(detail: "its schedule \(quoted(schedule.name)) does not read (\(error))")
            }
        }
        var holidayNames: Set<String> = []
        for holiday in holidays {
            guard (try? RuleName(validating: holiday.name)) != nil, holidayNames.insert(holiday.name).inserted,
                  let first = CivilDate(parsing: Substring(holiday.first)), let last = CivilDate(parsing: Substring(holiday.last)),
                  holiday.yearly || first <= last,
                  holiday.hours.map({ (try? WeeklySchedule(parsing: $0)) != nil }) ?? true else {
                throw .backupInvalid(detail: "its holiday \(quoted(holiday.name)) does not read (name, dates or hours)")
            }
        }
        for user in users {
            if let schedule = user.schedule, !names.contains(schedule) {
                throw .backupInvalid(detail: "\(Printable.escaped(user.name))'s schedule \(quoted(schedule)) is not among its schedules")
            }
            if let from = user.validFrom, let until = user.validUntil, until <= from {
                throw .backupInvalid(detail: "\(Printable.escaped(user.name))'s validity ends before it starts")
            }
            if let left = user.usesLeft, left < 0 {
                throw .backupInvalid(detail: "\(Printable.escaped(user.name)) has a negative number of uses left")
            }
        }
    }
}

// The contents hold the store's secrets, panel card numbers and PIN hashes in the raw: a
// description that reached a log or an error message must not carry them.
extension BackupContents: CustomStringConvertible {
    public var description: String {
        "a backup of \(createdAt): \(users.count) users, \(fingerCount) fingers, \(cardCount) cards"
            + (secrets.isEmpty ? "" : ", secrets " + secrets.keys.sorted().joined(separator: ", "))
    }
}

extension BackupUser: CustomStringConvertible {
    public var description: String {
        "\(Printable.escaped(name)): \(fingers.count) fingers, \(cards.count) cards"
            + (verifyMode.map { ", verify mode \($0)" } ?? "") + (panelCard == nil ? "" : ", a panel card")
    }
}

private func quoted(_ text: String) -> String { "\"" + Printable.escaped(text) + "\"" }

/// A user's card as a backup carries it: the keyed hash of its number (the number is never
/// stored), which matches only under the backup's card-hash key.
public struct BackupCard: Equatable, Sendable, Codable {
    public var label: String
    /// A `CardNumber.Kind` raw value; kept as text so a kind this fpmod does not know is refused
    /// by `BackupContents.check()` with its name, not as a damaged file.
    public var kind: String
    public var enabled: Bool
    public var addedAt: Date
    public var numberHash: [UInt8]
    /// The card's own validity (UTC seconds); nil: no bound.
    public var validFrom: Int64?
    public var validUntil: Int64?

    public init(label: String, kind: String, enabled: Bool, addedAt: Date, numberHash: [UInt8],
                validFrom: Int64? = nil, validUntil: Int64? = nil) {
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.label = label
        self.kind = kind
        self.enabled = enabled
        self.addedAt = addedAt
        self.numberHash = numberHash
    }

    private enum CodingKeys: String, CodingKey { case label, kind, enabled, addedAt, numberHash, validFrom, validUntil }

    // The hash travels as base64, not as an array of numbers.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        label = try c.decode(String.self, forKey: .label)
        kind = try c.decode(String.self, forKey: .kind)
        enabled = try c.decode(Bool.self, forKey: .enabled)
        addedAt = try c.decode(Date.self, forKey: .addedAt)
        numberHash = [UInt8](try c.decode(Data.self, forKey: .numberHash))
        validFrom = try c.decodeIfPresent(Int64.self, forKey: .validFrom)
        validUntil = try c.decodeIfPresent(Int64.self, forKey: .validUntil)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(label, forKey: .label)
        try c.encode(kind, forKey: .kind)
        try c.encode(enabled, forKey: .enabled)
        try c.encode(addedAt, forKey: .addedAt)
        try c.encode(Data(numberHash), forKey: .numberHash)
        try c.encodeIfPresent(validFrom, forKey: .validFrom)
        try c.encodeIfPresent(validUntil, forKey: .validUntil)
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
    /// The user's own verify mode (a `VerifyMode` raw value); nil: the door's.
    public var verifyMode: String?
    /// The card number sent to an access panel after a grant, as `CardNumber.typed` spells it:
    /// unsealed here, sealed again under the restoring store's key.
    public var panelCard: String?
    public var cards: [BackupCard]
    /// The user's own access rules: a schedule's name, validity (UTC seconds) and uses left.
    public var schedule: String?
    public var validFrom: Int64?
    public var validUntil: Int64?
    public var usesLeft: Int?

    public init(name: String, displayName: String, role: Role, fingerprintUnlock: Bool, pinHash: String?,
                createdAt: Date, fingers: [BackupFinger], verifyMode: String? = nil, panelCard: String? = nil,
                cards: [BackupCard] = [], schedule: String? = nil, validFrom: Int64? = nil, validUntil: Int64? = nil,
                usesLeft: Int? = nil) {
        self.schedule = schedule
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.usesLeft = usesLeft
        self.name = name
        self.displayName = displayName
        self.role = role
        self.fingerprintUnlock = fingerprintUnlock
        self.pinHash = pinHash
        self.createdAt = createdAt
        self.fingers = fingers
        self.verifyMode = verifyMode
        self.panelCard = panelCard
        self.cards = cards
    }

    private enum CodingKeys: String, CodingKey {
        case name, displayName, role, fingerprintUnlock, pinHash, createdAt, fingers, verifyMode, panelCard, cards
        case schedule, validFrom, validUntil, usesLeft
    }

    // Backups written before cards existed have no verifyMode, panelCard or cards.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        displayName = try c.decode(String.self, forKey: .displayName)
        role = try c.decode(Role.self, forKey: .role)
        fingerprintUnlock = try c.decode(Bool.self, forKey: .fingerprintUnlock)
        pinHash = try c.decodeIfPresent(String.self, forKey: .pinHash)
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        fingers = try c.decode([BackupFinger].self, forKey: .fingers)
        verifyMode = try c.decodeIfPresent(String.self, forKey: .verifyMode)
        panelCard = try c.decodeIfPresent(String.self, forKey: .panelCard)
        cards = try c.decodeIfPresent([BackupCard].self, forKey: .cards) ?? []
        schedule = try c.decodeIfPresent(String.self, forKey: .schedule)
        validFrom = try c.decodeIfPresent(Int64.self, forKey: .validFrom)
        validUntil = try c.decodeIfPresent(Int64.self, forKey: .validUntil)
        usesLeft = try c.decodeIfPresent(Int.self, forKey: .usesLeft)
    }

    // Nothing is written for what is absent, so a user without cards encodes as version 1 did.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(role, forKey: .role)
        try c.encode(fingerprintUnlock, forKey: .fingerprintUnlock)
        try c.encodeIfPresent(pinHash, forKey: .pinHash)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(fingers, forKey: .fingers)
        try c.encodeIfPresent(verifyMode, forKey: .verifyMode)
        try c.encodeIfPresent(panelCard, forKey: .panelCard)
        if !cards.isEmpty { try c.encode(cards, forKey: .cards) }
        try c.encodeIfPresent(schedule, forKey: .schedule)
        try c.encodeIfPresent(validFrom, forKey: .validFrom)
        try c.encodeIfPresent(validUntil, forKey: .validUntil)
        try c.encodeIfPresent(usesLeft, forKey: .usesLeft)
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
