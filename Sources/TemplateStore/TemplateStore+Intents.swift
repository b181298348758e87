import Foundation

extension TemplateStore {
    static func intentPurpose(id: Int64) -> String { "intent:\(id)" }

    /// Writes and commits an enroll about to be written to the module, before the module is
    /// touched. It carries the uploaded template, so a crash after the module write can be
    /// finished; the name and label are checked types, so only an enroll that can commit is announced.
    public func beginEnrollIntent(user: UserName, label: FingerLabel, slot: Int, template: [UInt8]? = nil,
                                  quality: Int? = nil, createdAt: Date = Date()) throws -> Int64 {
        try insertIntent(.enroll, user: user.text, label: label.text, slot: slot, template: template, quality: quality,
                         createdAt: createdAt, targetSlot: nil)
    }

    /// Writes and commits what is about to be done to the module (a delete, wipe, restore or
    /// move), before the module is touched. Enrolls go through `beginEnrollIntent`.
    public func beginIntent(_ kind: Intent.Kind, user: String? = nil, label: String? = nil, slot: Int? = nil,
                            quality: Int? = nil, createdAt: Date = Date(), targetSlot: Int? = nil) throws -> Int64 {
        precondition(kind != .enroll, "an enroll intent is begun with beginEnrollIntent, with a checked name and label")
        return try insertIntent(kind, user: user, label: label, slot: slot, template: nil, quality: quality,
                                createdAt: createdAt, targetSlot: targetSlot)
    }

    private func insertIntent(_ kind: Intent.Kind, user: String?, label: String?, slot: Int?, template: [UInt8]?,
                              quality: Int?, createdAt: Date, targetSlot: Int?) throws -> Int64 {
        try transaction {
            try connection.query("""
                INSERT INTO intents (kind, user, label, slot, quality, created_at, target_slot) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.text(kind.rawValue), user.sql, label.sql, slot.sql, quality.sql, createdAt.storeValue, targetSlot.sql])
            let id = connection.lastInsertRowID
            if let template {
                // The id is only known after the insert; the template is bound to it.
                try connection.query("UPDATE intents SET template = ? WHERE id = ?",
                                     [.blob(seal(template, purpose: Self.intentPurpose(id: id))), .integer(id)])
            }
            return id
        }
    }

    /// Records that the module confirmed the write (or delete).
    public func markIntentModuleWritten(_ id: Int64) throws {
        try setIntentState(.moduleWritten, id)
    }

    /// Moves an intent to `state` (a move's `storeCommitted` goes in the same `transaction` as
    /// the finger's new slot).
    public func setIntentState(_ state: Intent.State, _ id: Int64) throws {
        try locked {
            try connection.query("UPDATE intents SET state = ? WHERE id = ?", [.text(state.rawValue), .integer(id)])
            if connection.changes == 0 { throw StoreError.unknownIntent(id) }
        }
    }

    /// Every slot a pending intent may write or free: an enroll's or delete's slot, both ends
    /// of a move. No new enroll or move may pick one of them.
    public func slotsHeldByIntents() throws -> Set<Int> {
        Set(try pendingIntents().flatMap { [$0.slot, $0.targetSlot].compactMap { $0 } })
    }

    /// Slots whose finger is gone from the store while a delete intent still holds them: a user
    /// removed at the fleet hub, whose templates the module keeps until the reader deletes them.
    /// A match on one of them is that removed finger, refused, not a module changed behind our back.
    public func slotsLeavingModule() throws -> Set<Int> {
        let occupied = try occupiedSlots()
        return Set(try pendingIntents().filter { $0.kind == .delete }.compactMap(\.slot).filter { !occupied.contains($0) })
    }

    /// Slots holding a finger from the fleet's hub that the module does not have yet (a restore
    /// intent of one slot each, written in the batch that stored the finger): until the reader
    /// writes it, the module cannot match that finger, or still holds the template it replaced.
    public func slotsArrivingFromHub() throws -> Set<Int> {
        Set(try pendingIntents().filter { $0.kind == .restore }.compactMap(\.slot))
    }

    /// Removes a finished intent. Call it in the same `transaction` as the finger row change.
    public func completeIntent(_ id: Int64) throws {
        try locked {
            try connection.query("DELETE FROM intents WHERE id = ?", [.integer(id)])
            if connection.changes == 0 { throw StoreError.unknownIntent(id) }
        }
    }

    /// Intents an interrupted process left behind, oldest first, templates decrypted.
    public func pendingIntents() throws -> [Intent] {
        try locked {
            try connection.query("""
                SELECT id, kind, user, label, slot, template, quality, state, created_at, target_slot FROM intents ORDER BY id
                """).map { row in
                let id = row[0].int64 ?? 0
                let template = try row[5].bytes.map { try open($0, purpose: Self.intentPurpose(id: id)) }
                return Intent(id: id, kind: Intent.Kind(rawValue: row[1].string ?? "") ?? .enroll,
                              user: row[2].string, label: row[3].string, slot: row[4].int, template: template,
                              quality: row[6].int, state: Intent.State(rawValue: row[7].string ?? "") ?? .pending,
                              createdAt: Date(storeValue: row[8]), targetSlot: row[9].int)
            }
        }
    }
}
