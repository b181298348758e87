/// The DESFire master key: fpmod derives each enrolled DESFire card's AES key from it (NXP
/// AN10922, with the card's UID), so it is what makes a card this store's. Random, made at the
/// first `fpmod card enroll`, kept in `store_meta` sealed under the store key with its name as
/// associated data, like the cards' hash key. Backups carry it by this name: a store restored
/// without it could not authenticate one of its cards.
extension TemplateStore {
    public static let desfireMasterKeyName = "desfire-master-key"
    public static let desfireMasterKeyBytes = 16

    /// The key; nil when no DESFire card was ever enrolled and `create` is false.
    public func desfireMasterKey(create: Bool) throws -> [UInt8]? {
        let associated = Array(Self.desfireMasterKeyName.utf8)
        let read = { () throws -> [UInt8]? in
            guard let box = try self.connection.scalar("SELECT value FROM store_meta WHERE key = ?",
                                                       [.text(Self.desfireMasterKeyName)]).bytes else { return nil }
            guard let opened = Crypto.open(box, associatedData: associated, key: self.key),
                  opened.count == Self.desfireMasterKeyBytes else {
                throw StoreError.undecryptable(what: "the DESFire master key")
            }
            return opened
        }
        guard create else { return try locked(read) }
        return try transaction {
            if let existing = try read() { return existing }
            let fresh = Crypto.randomBytes(Self.desfireMasterKeyBytes)
            try connection.query("INSERT INTO store_meta (key, value) VALUES (?, ?)",
                                 [.text(Self.desfireMasterKeyName), .blob(Crypto.seal(fresh, associatedData: associated, key: key))])
            try appendAudit(event: "desfire-master-key-created", user: nil, detail: "for fpmod card enroll")
            return fresh
        }
    }
}
