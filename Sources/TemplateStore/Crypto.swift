import CSodium

/// libsodium primitives the store uses, with Swift arrays in and out.
enum Crypto {
    /// `sodium_init` runs once per process; a global `let` is initialised exactly once.
    static func ready() throws {
        guard sodiumInitialised else { throw StoreError.crypto(detail: "sodium_init failed") }
    }

    static let keyBytes = Int(crypto_aead_xchacha20poly1305_ietf_keybytes())
    static let nonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_npubbytes())
    static let tagBytes = Int(crypto_aead_xchacha20poly1305_ietf_abytes())

    /// `randombytes_buf`.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, count) }
        return bytes
    }

    /// `crypto_hash_sha256`, lowercase hex.
    static func sha256Hex(_ data: [UInt8]) -> String {
        hex(sha256(data))
    }

    static func sha256(_ data: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_bytes()))
        _ = crypto_hash_sha256(&digest, data, UInt64(data.count))
        return digest
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// `crypto_aead_xchacha20poly1305_ietf_encrypt` with a fresh random nonce; returns nonce ‖ ciphertext.
    static func seal(_ plaintext: [UInt8], associatedData: [UInt8], key: [UInt8]) -> [UInt8] {
        let nonce = randomBytes(nonceBytes)
        return nonce + sealed(plaintext, associatedData: associatedData, nonce: nonce, key: key)
    }

    /// The same cipher with a caller-chosen nonce (the backup envelope keeps its nonce in the header).
    static func sealed(_ plaintext: [UInt8], associatedData: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8] {
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + tagBytes)
        var length: UInt64 = 0
        _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
            &ciphertext, &length, plaintext, UInt64(plaintext.count),
            associatedData, UInt64(associatedData.count), nil, nonce, key)
        return Array(ciphertext.prefix(Int(length)))
    }

    /// Opens nonce ‖ ciphertext; nil when authentication fails.
    static func open(_ box: [UInt8], associatedData: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard box.count >= nonceBytes + tagBytes else { return nil }
        return opened(Array(box.dropFirst(nonceBytes)), associatedData: associatedData,
                      nonce: Array(box.prefix(nonceBytes)), key: key)
    }

    static func opened(_ ciphertext: [UInt8], associatedData: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard ciphertext.count >= tagBytes, nonce.count == nonceBytes, key.count == keyBytes else { return nil }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count - tagBytes)
        var length: UInt64 = 0
        let rc = crypto_aead_xchacha20poly1305_ietf_decrypt(
            &plaintext, &length, nil, ciphertext, UInt64(ciphertext.count),
            associatedData, UInt64(associatedData.count), nonce, key)
        return rc == 0 ? Array(plaintext.prefix(Int(length))) : nil
    }

    /// `crypto_pwhash_str` with the interactive limits: a memory-hard PIN hash in one string.
    static func hashPIN(_ pin: String) throws -> String {
        var out = [CChar](repeating: 0, count: Int(crypto_pwhash_strbytes()))
        let chars = Array(pin.utf8CString)  // NUL-terminated, so never empty
        let rc = crypto_pwhash_str(&out, chars, UInt64(chars.count - 1),
                                   UInt64(crypto_pwhash_opslimit_interactive()),
                                   crypto_pwhash_memlimit_interactive())
        guard rc == 0 else { throw StoreError.crypto(detail: "crypto_pwhash_str ran out of memory") }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `crypto_pwhash_str_verify`.
    static func verifyPIN(_ pin: String, hash: String) -> Bool {
        let chars = Array(pin.utf8CString)
        return crypto_pwhash_str_verify(hash, chars, UInt64(chars.count - 1)) == 0
    }

    /// `crypto_pwhash` (Argon2id) deriving a cipher key from a passphrase.
    static func deriveKey(passphrase: String, salt: [UInt8], opsLimit: UInt64, memLimit: UInt64) throws -> [UInt8] {
        var key = [UInt8](repeating: 0, count: keyBytes)
        let chars = Array(passphrase.utf8CString)
        let rc = crypto_pwhash(&key, UInt64(keyBytes), chars, UInt64(chars.count - 1), salt,
                               opsLimit, Int(memLimit), crypto_pwhash_alg_argon2id13())
        guard rc == 0 else { throw StoreError.crypto(detail: "crypto_pwhash could not derive the key (out of memory?)") }
        return key
    }

    /// `crypto_generichash` (BLAKE2b) keyed, `count` bytes.
    static func keyedHash(_ message: [UInt8], key: [UInt8], count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        _ = crypto_generichash(&out, count, message, UInt64(message.count), key, key.count)
        return out
    }

    /// `sodium_memcmp`: constant-time equality.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && sodium_memcmp(a, b, a.count) == 0
    }
}

private let sodiumInitialised: Bool = sodium_init() >= 0

extension Crypto {
    /// A keyed BLAKE2b-256 (`crypto_generichash`) of `message` under a subkey of `key` for
    /// `context` (`crypto_kdf_derive_from_key`, 8 characters): equal inputs give equal hashes
    /// (found by equality), and without the store key the hash says nothing about its input.
    static func keyedHash(_ message: [UInt8], key: [UInt8], context: String, subkeyID: UInt64 = 1) -> [UInt8] {
        precondition(context.utf8.count == Int(crypto_kdf_contextbytes()) && key.count == Int(crypto_kdf_keybytes()))
        var subkey = [UInt8](repeating: 0, count: Int(crypto_generichash_keybytes()))
        _ = crypto_kdf_derive_from_key(&subkey, subkey.count, subkeyID, context, key)
        defer { sodium_memzero(&subkey, subkey.count) }
        var digest = [UInt8](repeating: 0, count: Int(crypto_generichash_bytes()))
        _ = crypto_generichash(&digest, digest.count, message, UInt64(message.count), subkey, subkey.count)
        return digest
    }

    /// A key of `count` bytes derived from `key` for `context` (8 characters) and `id`
    /// (`crypto_kdf_derive_from_key`): one secret, several keys that say nothing of each other.
    static func derivedKey(_ key: [UInt8], context: String, id: UInt64, count: Int = Int(crypto_kdf_keybytes())) -> [UInt8] {
        precondition(context.utf8.count == Int(crypto_kdf_contextbytes()) && key.count == Int(crypto_kdf_keybytes()))
        var derived = [UInt8](repeating: 0, count: count)
        _ = crypto_kdf_derive_from_key(&derived, count, id, context, key)
        return derived
    }
}
