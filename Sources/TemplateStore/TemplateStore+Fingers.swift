import Foundation

extension TemplateStore {
    private static let fingerQuery = """
        SELECT f.id, u.name, f.label, f.slot, f.template_digest, f.quality, f.enrolled_at, f.duress
        FROM fingers f JOIN users u ON u.id = f.user_id
        """

    private static func finger(from row: [SQLValue]) -> Finger {
        Finger(id: row[0].int64 ?? 0, user: row[1].string ?? "", label: row[2].string ?? "",
               slot: row[3].int ?? -1, templateDigest: row[4].string ?? "", quality: row[5].int ?? 0,
               enrolledAt: Date(storeValue: row[6]), isDuress: row[7].int == 1)
    }

    static func fingerPurpose(slot: Int) -> String { "finger:\(slot)" }

    /// Records an enrolled finger with its template (encrypted, bound to the slot).
    /// Call it inside the same `transaction` as `completeIntent` for a crash-safe enroll.
    /// `duress`: the finger opens and raises a silent duress alarm.
    @discardableResult
    public func addFinger(user userName: UserName, label fingerLabel: FingerLabel, slot: Int, template: [UInt8], quality: Int,
                          enrolledAt: Date = Date(), duress: Bool = false) throws -> Finger {
        let user = userName.text, label = fingerLabel.text
        guard slot >= 0 else { throw StoreError.invalidSlot(slot) }
        return try transaction {
            let owner = try requireUser(user)
            if let taken = try finger(atSlot: slot) {
                throw StoreError.slotTaken(slot: slot, user: taken.user, label: taken.label)
            }
            if let same = try fingers(of: user).first(where: { $0.label == label }) {
                throw StoreError.fingerLabelTaken(user: user, label: label, slot: same.slot)
            }
            try connection.query("""
                INSERT INTO fingers (user_id, label, slot, template, template_digest, quality, enrolled_at, duress, enrolled_slot)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.integer(owner.id), .text(label), .integer(Int64(slot)),
                      .blob(seal(template, purpose: Self.fingerPurpose(slot: slot))),
                      .text(Crypto.sha256Hex(template)), .integer(Int64(quality)), enrolledAt.storeValue,
                      .integer(duress ? 1 : 0), .integer(Int64(slot))])
            guard let added = try finger(atSlot: slot) else { throw StoreError.unknownSlot(slot) }
            return added
        }
    }

    /// Marks a user's finger as a duress finger, or as an ordinary one again.
    /// Throws `unknownUser`, or `unknownFinger` when the user has no finger with that label.
    public func setDuress(_ duress: Bool, user: String, label: String) throws {
        try transaction {
            let owner = try requireUser(user)
            try connection.query("UPDATE fingers SET duress = ? WHERE user_id = ? AND label = ?",
                                 [.integer(duress ? 1 : 0), .integer(owner.id), .text(label)])
            if connection.changes == 0 { throw StoreError.unknownFinger(user: user, label: label) }
        }
    }

    /// The user's fingers, by slot. Throws `unknownUser` for a name the store does not know.
    public func fingers(of user: String) throws -> [Finger] {
        try locked {
            _ = try requireUser(user)
            return try connection.query("\(Self.fingerQuery) WHERE u.name = ? ORDER BY f.slot", [.text(user)])
                .map(Self.finger(from:))
        }
    }

    /// Every enrolled finger, by slot.
    public func allFingers() throws -> [Finger] {
        try locked { try connection.query("\(Self.fingerQuery) ORDER BY f.slot").map(Self.finger(from:)) }
    }

    /// The finger in this module slot, or nil. A match on a slot with no finger is a tamper finding.
    public func finger(atSlot slot: Int) throws -> Finger? {
        try locked {
            try connection.query("\(Self.fingerQuery) WHERE f.slot = ?", [.integer(Int64(slot))])
                .first.map(Self.finger(from:))
        }
    }

    /// Removes the finger row of this slot. Call it inside the same `transaction` as `completeIntent`.
    public func deleteFinger(atSlot slot: Int) throws {
        try locked {
            try connection.query("DELETE FROM fingers WHERE slot = ?", [.integer(Int64(slot))])
            if connection.changes == 0 { throw StoreError.unknownSlot(slot) }
        }
    }

    /// The decrypted template of this slot, checked against its digest.
    public func template(atSlot slot: Int) throws -> [UInt8] {
        try locked {
            guard let row = try connection.query("SELECT template, template_digest FROM fingers WHERE slot = ?",
                                                 [.integer(Int64(slot))]).first else {
                throw StoreError.unknownSlot(slot)
            }
            let plaintext = try open(row[0].bytes ?? [], purpose: Self.fingerPurpose(slot: slot))
            guard Crypto.sha256Hex(plaintext) == row[1].string else {
                throw StoreError.undecryptable(what: "the template digest of slot \(slot)")
            }
            return plaintext
        }
    }

    /// The module slots the store knows.
    public func occupiedSlots() throws -> Set<Int> {
        try locked { Set(try connection.query("SELECT slot FROM fingers").compactMap { $0[0].int }) }
    }

    /// Slot → template digest, the store's side of a reconciliation.
    public func slotDigests() throws -> [Int: String] {
        try locked {
            var result: [Int: String] = [:]
            for row in try connection.query("SELECT slot, template_digest FROM fingers") {
                if let slot = row[0].int { result[slot] = row[1].string ?? "" }
            }
            return result
        }
    }

    /// SHA-256 (hex) over the sorted "slot:digest" lines, each finger under the slot it was
    /// enrolled in: changes whenever any finger is added, removed or replaced — the policy's
    /// "enrolled set changed" signal — and not when the library layout moves a template.
    public func enrolledSetDigest() throws -> String {
        try locked {
            var digests: [Int: String] = [:]
            var repeated: [String] = []
            for row in try connection.query("SELECT COALESCE(enrolled_slot, slot), template_digest FROM fingers") {
                guard let slot = row[0].int else { continue }
                // Two fingers enrolled in the same slot (one moved away, another enrolled there).
                if digests[slot] != nil { repeated.append("\(slot):\(row[1].string ?? "")") } else { digests[slot] = row[1].string ?? "" }
            }
            guard !repeated.isEmpty else { return Self.enrolledSetDigest(digests) }
            let lines = digests.keys.sorted().map { "\($0):\(digests[$0] ?? "")" } + repeated.sorted()
            return Crypto.sha256Hex(Array(lines.map { $0 + "\n" }.joined().utf8))
        }
    }

    static func enrolledSetDigest(_ digests: [Int: String]) -> String {
        let lines = digests.keys.sorted().map { "\($0):\(digests[$0] ?? "")\n" }.joined()
        return Crypto.sha256Hex(Array(lines.utf8))
    }
}
