import CSodium
import TemplateStore

/// Why a password is refused; the description names the problem and what to do.
public enum PasswordError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooShort(characters: Int)
    case tooLong(bytes: Int)
    case sameAsName

    public var description: String {
        switch self {
        case .tooShort(let characters):
            "the password has \(characters) characters, fewer than \(Passwords.minimumCharacters); choose a longer one "
                + "(a few unrelated words are easy to remember)"
        case .tooLong(let bytes):
            "the password is \(bytes) bytes long, more than \(Passwords.maximumBytes); choose a shorter one"
        case .sameAsName:
            "the password is the account's name; choose a password nobody can guess from the name"
        }
    }
}

/// Console passwords: Argon2id strings from libsodium's `crypto_pwhash_str`.
///
/// The INTERACTIVE limits (2 passes over 64 MiB): about half a second on a Raspberry Pi 3 or
/// 4, once per login, and within a Pi's memory when a few logins arrive at once; MODERATE's
/// 256 MiB per login would not be. The limits are in the string, so a later change of limits
/// still verifies older hashes.
public enum Passwords {
    public static let minimumCharacters = 10
    /// Bounded so the hash's input (and an attacker's request) stays small.
    public static let maximumBytes = 128

    public static func check(_ password: String, account: String) throws(PasswordError) {
        let bytes = password.utf8.count
        if bytes > maximumBytes { throw PasswordError.tooLong(bytes: bytes) }
        if password.count < minimumCharacters { throw PasswordError.tooShort(characters: password.count) }
        if password == account { throw PasswordError.sameAsName }
    }

    /// A fresh `$argon2id$…` string (random salt inside).
    public static func hash(_ password: String) throws -> String {
        try Secrets.ready()
        var out = [CChar](repeating: 0, count: Int(crypto_pwhash_strbytes()))
        let bytes = password.utf8.map { CChar(bitPattern: $0) }
        let rc = crypto_pwhash_str(&out, bytes, UInt64(bytes.count),
                                   UInt64(crypto_pwhash_opslimit_interactive()), crypto_pwhash_memlimit_interactive())
        guard rc == 0 else { throw StoreError.crypto(detail: "crypto_pwhash_str ran out of memory") }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `crypto_pwhash_str_verify`; false too for a password over the length bound.
    public static func verify(_ password: String, hash: String) -> Bool {
        guard (try? Secrets.ready()) != nil else { return false }
        let bytes = password.utf8.map { CChar(bitPattern: $0) }
        guard bytes.count <= maximumBytes else { return false }
        return crypto_pwhash_str_verify(hash, bytes, UInt64(bytes.count)) == 0
    }

    /// Verified against when the name is no account, so an unknown name costs the same Argon2
    /// time as a wrong password and the answer's timing does not tell which it was.
    static let standIn: String = (try? hash(Secrets.base64url(Secrets.random(24)))) ?? ""
}
