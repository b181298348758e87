import Foundation

extension TemplateStore {
    /// Gives the finger in slot `from` the slot `to`, re-sealing its template (the seal is bound
    /// to the slot, so a row copied to another slot does not decrypt). Call it in the same
    /// `transaction` as the move intent's `storeCommitted` (or its completion).
    /// Throws `unknownSlot` when `from` has no finger, `slotTaken` when `to` has one.
    @discardableResult
    public func moveFinger(from: Int, to: Int) throws -> Finger {
        guard to >= 0 else { throw StoreError.invalidSlot(to) }
        return try transaction {
            if let taken = try finger(atSlot: to) {
                throw StoreError.slotTaken(slot: to, user: taken.user, label: taken.label)
            }
            let template = try template(atSlot: from)
            try connection.query("UPDATE fingers SET slot = ?, template = ? WHERE slot = ?",
                                 [.integer(Int64(to)), .blob(seal(template, purpose: Self.fingerPurpose(slot: to))),
                                  .integer(Int64(from))])
            guard let moved = try finger(atSlot: to) else { throw StoreError.unknownSlot(to) }
            return moved
        }
    }
}
