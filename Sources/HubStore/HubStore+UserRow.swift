/// A user read back whole from the row a change wrote, so a change of one field (a schedule, a
/// validity) records the user as a door must replace it.
extension HubStore {
    /// A `users` row's columns in the order `user(_:)` reads them, for the changes that record
    /// the whole user again.
    static let userColumns = "name, display_name, role, fingerprint_unlock, pin_hash, verify_mode, schedule, valid_from, valid_until, uses_left"

    /// A `users` row in `userColumns`' order.
    static func user(_ row: [String?]) throws(HubStoreError) -> HubUser {
        guard row.count == 10, let name = row[0], let display = row[1], let role = row[2].flatMap(HubUser.Role.init(rawValue:)),
              let unlock = row[3] else {
            throw .unexpectedReply("a user row")
        }
        func number(_ text: String?) throws(HubStoreError) -> Int64? {
            guard let text else { return nil }
            guard let value = Int64(text) else { throw .unexpectedReply("a user's number \(text)") }
            return value
        }
        return HubUser(name: name, displayName: display, role: role, fingerprintUnlock: unlock == "t", pinHash: row[4], verifyMode: row[5],
                       schedule: row[6], validFrom: try number(row[7]), validUntil: try number(row[8]), usesLeft: try number(row[9]).map { Int($0) })
    }
}
