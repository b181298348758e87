import Administration
import HostMatching
import TemplateStore

extension HostReader {
    /// Restores a backup of an image sensor's store: users, PIN hashes, fingers and cards replace the
    /// store's in one transaction, so on any error nothing changes. The sensor holds nothing, so
    /// there is no device step and no intent; instead every template is checked before the
    /// write (a host template that decodes, a slot inside the library) and read back from the
    /// store after it (decrypted, compared byte for byte). The gallery built by the check is
    /// kept, so the first identify after a restore does not pay for it again.
    @discardableResult
    public func restore(_ contents: BackupContents, replacing: Bool) throws -> RestoreResult {
        _ = try sensor  // closed means unusable, also for store-only work
        try contents.check()
        let fingers = contents.users.flatMap { user in user.fingers.map { (user: user.name, finger: $0) } }
        let gallery = try Self.checkedGallery(of: contents, fingers: fingers, capacity: capacity)
        let existing = try store.users().count
        if existing > 0 && !replacing { throw AdministrationError.restoreNeedsConfirmation(users: existing) }

        cachedGallery = nil
        try failpoint("restore.before-store")
        let digest = try store.transaction {
            try store.replaceAll(with: contents)
            // Every old user is deleted by now: a kill here must leave them all in place.
            try failpoint("restore.inside-transaction")
            try StoreReaderKind.record(.imageSensor, in: store)
            return try store.enrolledSetDigest()
        }
        var verified: [Int] = []
        for (user, finger) in fingers {
            let stored = try store.template(atSlot: finger.slot)
            guard stored == finger.template else {
                throw AdministrationError.verificationFailed(
                    slot: finger.slot, detail: "\(user)'s \(finger.label): the store gave back \(stored.count) bytes, not the \(finger.template.count) restored")
            }
            verified.append(finger.slot)
        }
        cachedGallery = HostGallery(slots: fingers.map(\.finger.slot), gallery: gallery, digest: digest)
        return RestoreResult(users: contents.users.count, cards: contents.cardCount, slotsVerified: verified.sorted())
    }

    /// Refuses a module's backup (marked so, made by a module family, or holding a template
    /// without the host header), a slot beyond the library and a template that does not decode;
    /// returns the gallery of the backup's templates, in `fingers` order.
    static func checkedGallery(of contents: BackupContents, fingers: [(user: String, finger: BackupFinger)],
                               capacity: Int) throws -> MinutiaeGallery {
        // The same signs of a module's fingers as the store guard reads in a store.
        if let reason = HostStoreGuard.moduleReason(kind: contents.readerKind, family: contents.moduleFamily) {
            throw HostReaderError.backupFromModule(reason: reason)
        }
        for (user, finger) in fingers {
            if let reason = HostStoreGuard.moduleReason(slot: finger.slot, user: user, label: finger.label, template: finger.template) {
                throw HostReaderError.backupFromModule(reason: reason)
            }
            guard finger.slot >= 0, finger.slot < capacity else {
                throw AdministrationError.backupDoesNotFit(slot: finger.slot, capacity: capacity)
            }
        }
        do {
            return try MinutiaeGallery(fingers.map { HostTemplate(bytes: $0.finger.template) })
        } catch {
            if case let .unreadableTemplate(index, message) = error, fingers.indices.contains(index) {
                let (user, finger) = fingers[index]
                throw HostReaderError.unreadableBackupTemplate(slot: finger.slot, user: user, label: finger.label, reason: message)
            }
            if case .olderTemplateFormat(let index) = error, fingers.indices.contains(index) {
                let (user, finger) = fingers[index]
                throw HostReaderError.unreadableBackupTemplate(slot: finger.slot, user: user, label: finger.label,
                                                               reason: "it was made by an earlier fpmod matcher (template format 1, 2 or 3); enroll that finger again after restoring without it")
            }
            throw error
        }
    }
}
