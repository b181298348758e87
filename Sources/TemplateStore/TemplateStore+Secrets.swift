import CSodium

/// Secrets of the store's own in `store_meta` (the cards' hash key, DESFire's master key), each
/// sealed under the store key with its name as associated data, so a box cannot be moved to
/// another name. A backup carries them unsealed inside its encryption; a restore seals them
/// again under the restoring store's key.
extension TemplateStore {
    /// The secrets a backup carries, when the store holds them. Only these: the store key's own
    /// check ("key-check") belongs to that key and must not travel, and a secret nobody listed
    /// here would be lost by a backup without anyone noticing, so a new one is added here.
    /// "desfire-master-key" is DESFire cards' master key: a card keyed with it opens only with it.
    public static let backedUpSecretNames: [String] = [hashKeyName, "desfire-master-key"]

    /// `Crypto.keyedHash(_:key:context:)` derives from the card-hash key with `crypto_kdf`, whose
    /// keys are this long; a key of another length would stop every card lookup.
    static var cardHashKeyBytes: Int { Int(crypto_kdf_keybytes()) }
    /// A card's `number_hash`.
    static var cardHashBytes: Int { Int(crypto_generichash_bytes()) }

    /// The length a secret must have, where the store relies on one.
    static func requiredLength(ofSecret name: String) -> Int? {
        name == hashKeyName ? cardHashKeyBytes : nil
    }

    /// The secret kept as `name`, unsealed; nil when the store has none.
    func metaSecret(named name: String) throws -> [UInt8]? {
        try locked {
            guard let box = try connection.scalar("SELECT value FROM store_meta WHERE key = ?", [.text(name)]).bytes else {
                return nil
            }
            guard let opened = Crypto.open(box, associatedData: Array(name.utf8), key: key) else {
                throw StoreError.undecryptable(what: "the store's \(name)")
            }
            return opened
        }
    }

    /// Keeps `value` as `name`, sealed, replacing any value kept there.
    func setMetaSecret(_ value: [UInt8], named name: String) throws {
        try locked {
            try connection.query("INSERT OR REPLACE INTO store_meta (key, value) VALUES (?, ?)",
                                 [.text(name), .blob(Crypto.seal(value, associatedData: Array(name.utf8), key: key))])
        }
    }

    /// Every secret of `backedUpSecretNames` the store holds, by name.
    func backedUpSecrets() throws -> [String: [UInt8]] {
        var secrets: [String: [UInt8]] = [:]
        for name in Self.backedUpSecretNames {
            secrets[name] = try metaSecret(named: name)
        }
        return secrets
    }
}
