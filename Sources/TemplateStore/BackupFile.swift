import CSodium
import Foundation

/// How hard the passphrase is to guess offline: libsodium's Argon2id limit presets.
public enum BackupStrength: Sendable {
    /// OPSLIMIT/MEMLIMIT_INTERACTIVE (64 MiB).
    case interactive
    /// OPSLIMIT/MEMLIMIT_MODERATE (256 MiB); the default for `fpmod backup`.
    case moderate

    var limits: (ops: UInt64, mem: UInt64) {
        switch self {
        case .interactive: return (UInt64(crypto_pwhash_opslimit_interactive()), UInt64(crypto_pwhash_memlimit_interactive()))
        case .moderate: return (UInt64(crypto_pwhash_opslimit_moderate()), UInt64(crypto_pwhash_memlimit_moderate()))
        }
    }
}

/// The backup file format, versions 1 to 3:
///
///     header   "FPMODBK1" | version u8 | KDF id u8 (2 = Argon2id13) | opslimit u64 BE | memlimit u64 BE
///              | salt 16 | nonce 24 | passphrase check 16 (BLAKE2b keyed with the derived key)
///     digest   SHA-256 of the header
///     body     XChaCha20-Poly1305 of the JSON `BackupContents`, associated data = header ‖ digest
///
/// The digest tells a damaged header from a wrong passphrase, the check tells a wrong passphrase
/// from a damaged body, and the cipher's tag catches any change to the body.
///
/// The versions differ in the JSON only: version 2 is written when the contents hold cards,
/// verify modes, panel cards or store secrets (`BackupContents.formatVersion`), so an fpmod that
/// knows only version 1 refuses such a file rather than restoring it without them. Without
/// them the file is version 1 as before, readable by every fpmod. Version 3 adds access rules
/// (schedules, holidays, a user's schedule, validity and uses), written only when there are any.
public enum BackupFile {
    static let magic = Array("FPMODBK1".utf8)
    static let versions: ClosedRange<UInt8> = 1...3
    static let argon2id: UInt8 = 2
    static let saltBytes = Int(crypto_pwhash_saltbytes())
    static let checkBytes = 16
    static let headerBytes = 8 + 1 + 1 + 8 + 8 + saltBytes + Crypto.nonceBytes + checkBytes
    static let digestBytes = 32
    private static let checkMessage = Array("fpmod backup passphrase check".utf8)
    /// Limits a file may ask for; beyond them it is damaged (or hostile), not slow.
    private static let maxOps: UInt64 = 64
    private static let maxMem: UInt64 = 4 << 30

    /// Encrypts `contents` under a key derived from `passphrase`.
    public static func seal(_ contents: BackupContents, passphrase: String,
                            strength: BackupStrength = .moderate) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        return try seal(json: [UInt8](try encoder.encode(contents)), version: contents.formatVersion,
                        passphrase: passphrase, strength: strength)
    }

    /// Encrypts a JSON body as a file of `version` (tests write the older shapes through it).
    static func seal(json: [UInt8], version: UInt8, passphrase: String, strength: BackupStrength) throws -> [UInt8] {
        try Crypto.ready()
        guard !passphrase.isEmpty else { throw StoreError.backupEmptyPassphrase }
        let (ops, mem) = strength.limits
        let salt = Crypto.randomBytes(saltBytes)
        let nonce = Crypto.randomBytes(Crypto.nonceBytes)
        let key = try Crypto.deriveKey(passphrase: passphrase, salt: salt, opsLimit: ops, memLimit: mem)
        var header = magic + [version, argon2id] + bigEndian(ops) + bigEndian(mem) + salt + nonce
        header += Crypto.keyedHash(checkMessage, key: key, count: checkBytes)
        let authenticated = header + Crypto.sha256(header)
        return authenticated + Crypto.sealed(json, associatedData: authenticated, nonce: nonce, key: key)
    }

    /// Checks and decrypts a backup. Throws `backupNotABackup`, `backupUnsupportedVersion`,
    /// `backupCorrupted` or `backupWrongPassphrase`; it never changes anything.
    public static func open(_ bytes: [UInt8], passphrase: String) throws -> BackupContents {
        try Crypto.ready()
        guard bytes.count >= magic.count, Array(bytes.prefix(magic.count)) == magic else { throw StoreError.backupNotABackup }
        guard bytes.count > magic.count else { throw StoreError.backupCorrupted(detail: "the file is truncated") }
        guard versions.contains(bytes[8]) else { throw StoreError.backupUnsupportedVersion(Int(bytes[8])) }
        guard bytes.count >= headerBytes + digestBytes + Crypto.tagBytes else {
            throw StoreError.backupCorrupted(detail: "the file is truncated")
        }
        let header = Array(bytes[0..<headerBytes])
        let authenticated = Array(bytes[0..<(headerBytes + digestBytes)])
        guard Crypto.sha256(header) == Array(authenticated.suffix(digestBytes)) else {
            throw StoreError.backupCorrupted(detail: "the header checksum does not match")
        }
        var offset = 10
        func take(_ count: Int) -> [UInt8] { defer { offset += count }; return Array(header[offset..<(offset + count)]) }
        let ops = take(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let mem = take(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let salt = take(saltBytes)
        let nonce = take(Crypto.nonceBytes)
        let check = take(checkBytes)
        guard header[9] == argon2id, ops >= 1, ops <= maxOps, mem >= 8192, mem <= maxMem else {
            throw StoreError.backupCorrupted(detail: "the key derivation parameters are out of range")
        }
        let key = try Crypto.deriveKey(passphrase: passphrase, salt: salt, opsLimit: ops, memLimit: mem)
        guard Crypto.equal(Crypto.keyedHash(checkMessage, key: key, count: checkBytes), check) else {
            throw StoreError.backupWrongPassphrase
        }
        guard let json = Crypto.opened(Array(bytes[(headerBytes + digestBytes)...]), associatedData: authenticated,
                                       nonce: nonce, key: key) else {
            throw StoreError.backupCorrupted(detail: "the encrypted body failed authentication")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return try decoder.decode(BackupContents.self, from: Data(json))
        } catch {
            throw StoreError.backupCorrupted(detail: "the contents cannot be read (\(error))")
        }
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}
