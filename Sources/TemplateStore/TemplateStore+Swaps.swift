import Foundation

/// A swap of two occupied slots (the library layout of a full module) is a `move` intent whose
/// `quality` column counts the module Stores confirmed so far (0, 1, 2): the schema's CHECKs
/// allow only five kinds and three states, and reusing columns avoids a table rebuild. A plain
/// move leaves `quality` NULL. `slot` is slot A, `targetSlot` slot B; `user`/`label` name A's
/// finger and the label also names B's, for a person reading the table. Until the store commits,
/// its mapping (A's finger in A, B's in B) is the truth every repair goes back to.
extension Intent {
    public var isSwap: Bool { kind == .move && quality != nil }
    /// Module Stores confirmed: 1 = slot B holds A's template, 2 = slot A holds B's too.
    public var swapStoresConfirmed: Int { quality ?? 0 }
}

extension TemplateStore {
    /// Writes and commits the swap intent before the module is touched.
    public func beginSwapIntent(_ first: Finger, _ second: Finger, createdAt: Date = Date()) throws -> Int64 {
        try beginIntent(.move, user: first.user, label: "\(first.label) ⇄ \(second.user)/\(second.label)",
                        slot: first.slot, quality: 0, createdAt: createdAt, targetSlot: second.slot)
    }

    /// Records that the module confirmed the `count`th Store of a swap.
    public func recordSwapStore(_ count: Int, _ id: Int64) throws {
        try locked {
            try connection.query("UPDATE intents SET quality = ?, state = ? WHERE id = ?",
                                 [.integer(Int64(count)), .text(Intent.State.moduleWritten.rawValue), .integer(id)])
            if connection.changes == 0 { throw StoreError.unknownIntent(id) }
        }
    }

    /// Exchanges the fingers of two occupied slots in one transaction (each template sealed
    /// again for its new slot).
    public func swapFingers(_ a: Int, _ b: Int) throws {
        try transaction {
            guard try finger(atSlot: a) != nil else { throw StoreError.unknownSlot(a) }
            guard try finger(atSlot: b) != nil else { throw StoreError.unknownSlot(b) }
            let templateA = try template(atSlot: a)
            let templateB = try template(atSlot: b)
            // `slot` is UNIQUE: A's row waits in a slot no module has while B's row takes A.
            let parked = Int64(Self.swapParkingSlot)
            try connection.query("UPDATE fingers SET slot = ? WHERE slot = ?", [.integer(parked), .integer(Int64(a))])
            try connection.query("UPDATE fingers SET slot = ?, template = ? WHERE slot = ?",
                                 [.integer(Int64(a)), .blob(seal(templateB, purpose: Self.fingerPurpose(slot: a))), .integer(Int64(b))])
            try connection.query("UPDATE fingers SET slot = ?, template = ? WHERE slot = ?",
                                 [.integer(Int64(b)), .blob(seal(templateA, purpose: Self.fingerPurpose(slot: b))), .integer(parked)])
        }
    }

    static let swapParkingSlot = 1_000_000_000
}
