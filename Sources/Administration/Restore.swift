import FingerprintModule
import FingerprintProtocol
import TemplateStore

/// What a restore wrote.
public struct RestoreResult: Equatable, Sendable {
    public var users: Int
    /// Cards restored with the users (their keyed hashes; no device holds them).
    public var cards: Int
    /// Slots written and read back: from a module, LoadChar then UpChar compared byte for byte;
    /// on a host reader, from the store (decrypted) compared byte for byte.
    public var slotsVerified: [Int]

    public init(users: Int, cards: Int = 0, slotsVerified: [Int]) {
        self.users = users
        self.cards = cards
        self.slotsVerified = slotsVerified
    }
}

extension Administrator {
    /// Restores a backup into the store and the module: every template is downloaded again
    /// (DownChar + Store) and checked by LoadChar and an UpChar compare. Works onto an empty or a
    /// different module of the same family; templates of another family or size are refused
    /// before anything changes.
    /// Crash-safe through a `.restore` intent: an interrupted restore is redone by `reconcile()`.
    @discardableResult
    public func restore(_ contents: BackupContents, replacing: Bool) throws -> RestoreResult {
        if contents.readerKind == ReaderDescription.Kind.imageSensor.rawValue { throw AdministrationError.backupFromImageSensor }
        // A name, card or verify mode refused today would fail the store's replace after the
        // restore intent is written: refused here, before anything changes.
        try contents.check()
        // Another family's or another size's templates would be written, read back wrong and
        // never match: refused before the store or the module changes.
        let templates = contents.users.flatMap { $0.fingers.map { (slot: $0.slot, bytes: $0.template.count) } }
        try checkTemplatesFit(templates, family: contents.moduleFamily, holder: "this backup")
        let capacity = try capacity
        for user in contents.users {
            for finger in user.fingers where finger.slot >= capacity {
                throw AdministrationError.backupDoesNotFit(slot: finger.slot, capacity: capacity)
            }
        }
        let existing = try store.users().count
        if existing > 0 && !replacing { throw AdministrationError.restoreNeedsConfirmation(users: existing) }

        let intent = try store.beginIntent(.restore)
        try failpoint("restore.before-store")
        try store.replaceAll(with: contents)
        try failpoint("restore.before-module-write")
        try moduleStep("restore") { try module.emptyLibrary() }
        var verified: [Int] = []
        for finger in try store.allFingers() {
            let template = try store.template(atSlot: finger.slot)
            try moduleStep("restore of slot \(finger.slot)") {
                try writeTemplate(template, slot: finger.slot)
                try module.loadTemplate(buffer: CharBuffer.one, slot: finger.slot)
                let readBack = try module.uploadTemplate(buffer: CharBuffer.one)
                guard readBack == template else {
                    throw AdministrationError.verificationFailed(
                        slot: finger.slot, detail: "\(readBack.count) bytes read back, \(template.count) written, contents differ")
                }
            }
            verified.append(finger.slot)
        }
        try store.markIntentModuleWritten(intent)
        try store.transaction {
            try store.completeIntent(intent)
            try store.appendAudit(event: "restore-module", detail: "wrote and verified \(verified.count) template(s) in the module")
        }
        if let family = contents.moduleFamily ?? module.family?.rawValue {
            try store.setValue(family, forKey: TemplateStore.templateFamilyKey)
        }
        try recordSlotTable()
        return RestoreResult(users: contents.users.count, cards: contents.cardCount, slotsVerified: verified)
    }
}
