import Foundation

extension TemplateStore {
    private static let passwordPurpose = "module:password"

    /// The paired module, or nil before `fpmod pair`.
    public func moduleIdentity() throws -> ModuleIdentity? {
        try locked {
            guard let row = try connection.query("""
                SELECT family, address, password, capacity, product_info, slot_table_digest, paired_at
                FROM module_identity WHERE id = 1
                """).first else { return nil }
            let password = try open(row[2].bytes ?? [], purpose: Self.passwordPurpose)
            guard password.count == 4 else { throw StoreError.undecryptable(what: "the stored module password") }
            return ModuleIdentity(
                family: row[0].string ?? "", address: UInt32(truncatingIfNeeded: row[1].int64 ?? 0),
                password: password.reduce(0) { $0 << 8 | UInt32($1) }, capacity: row[3].int ?? 0,
                productInfo: row[4].string, slotTableDigest: row[5].string, pairedAt: Date(storeValue: row[6]))
        }
    }

    /// Replaces the paired module's identity; nil forgets the pairing.
    public func setModuleIdentity(_ identity: ModuleIdentity?) throws {
        try locked {
            guard let identity else {
                try connection.query("DELETE FROM module_identity")
                return
            }
            let p = identity.password
            let password = [UInt8(p >> 24), UInt8(p >> 16 & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p & 0xFF)]
            try connection.query("""
                INSERT OR REPLACE INTO module_identity
                    (id, family, address, password, capacity, product_info, slot_table_digest, paired_at)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(identity.family), .integer(Int64(identity.address)),
                      .blob(seal(password, purpose: Self.passwordPurpose)), .integer(Int64(identity.capacity)),
                      identity.productInfo.sql, identity.slotTableDigest.sql, identity.pairedAt.storeValue])
        }
    }
}
