import Administration
import TemplateStore

extension HostReader {
    /// Deletes one finger of a user, or (label nil) every finger and then the user: one store
    /// transaction per finger (row and audit row together), as the module path records it.
    /// Nothing lives on the sensor, so no intent is needed.
    @discardableResult
    public func delete(user: String, label: String?) throws -> DeleteResult {
        _ = try sensor  // closed means unusable, also for store-only work
        let chosen = try MatchRecording.fingersToDelete(of: user, label: label, in: store)
        // Whatever happens below, the gallery is read again before the next search.
        defer { cachedGallery = nil }
        var removed: [RemovedFinger] = []
        for finger in chosen {
            try failpoint("delete.before-commit")
            try store.transaction {
                try store.deleteFinger(atSlot: finger.slot)
                try store.appendAudit(event: "delete", user: user, slot: finger.slot, detail: "deleted \(finger.label)")
            }
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
