import Administration
import TemplateStore

extension HostReader {
    /// Deletes one finger of a user, or (label nil) every finger and then the user, in one store
    /// transaction (rows and audit rows together, as the module path records them): a cut
    /// leaves the user whole or gone, never with some fingers. Nothing lives on the sensor, so
    /// no intent is needed.
    @discardableResult
    public func delete(user: String, label: String?) throws -> DeleteResult {
        _ = try sensor  // closed means unusable, also for store-only work
        let chosen = try MatchRecording.fingersToDelete(of: user, label: label, in: store)
        do {
            return try store.transaction { try deleteInTransaction(chosen, user: user, label: label) }
        } catch {
            cachedGallery = nil  // it may have let go of fingers the rollback kept
            throw error
        }
    }

    private func deleteInTransaction(_ chosen: [Finger], user: String, label: String?) throws -> DeleteResult {
        var removed: [RemovedFinger] = []
        for finger in chosen {
            // Should anything fail, the next search builds the gallery again from the store.
            let cached = cachedGallery
            cachedGallery = nil
            try failpoint("delete.before-commit")
            let digests = try store.transaction { () -> (before: String, after: String) in
                let before = try store.enrolledSetDigest()
                try store.deleteFinger(atSlot: finger.slot)
                try store.appendAudit(event: "delete", user: user, slot: finger.slot, detail: "deleted \(finger.label)")
                return (before, try store.enrolledSetDigest())
            }
            // Taken out of the gallery in place, when the gallery was the store's set before.
            if let cached, cached.digest == digests.before { cachedGallery = cached.removing(slot: finger.slot, digest: digests.after) }
            removed.append(RemovedFinger(label: finger.label, slot: finger.slot))
        }
        if label == nil {
            try store.transaction {
                try store.deleteUser(user)
                try store.appendAudit(event: "delete-user", user: user, detail: "deleted user \(user)")
            }
        }
        return DeleteResult(user: user, fingers: removed, userRemoved: label == nil)
    }
}
