import CSodium
import Foundation
import TemplateStore

/// The console's wall clock, Unix seconds; tests pass a fake one.
public typealias WallClock = @Sendable () -> Double

/// The real wall clock.
public let systemWallClock: WallClock = { Date().timeIntervalSince1970 }

/// libsodium for tokens, codes and their hashes.
enum Secrets {
    static func ready() throws {
        guard sodiumReady else { throw StoreError.crypto(detail: "sodium_init failed") }
    }

    /// `randombytes_buf`.
    static func random(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, count) }
        return bytes
    }

    /// 32 random bytes, base64url without padding: 256 bits, safe in a cookie and a header.
    static func token() -> String { base64url(random(32)) }

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// SHA-256 of the text: what the store keeps of a token or code. Unkeyed is enough, as
    /// every input has at least 80 random bits, too many to guess back from the hash.
    static func hash(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_bytes()))
        _ = crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        return digest
    }

    /// `sodium_memcmp`: the time taken does not tell how many leading bytes matched.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && sodium_memcmp(a, b, a.count) == 0
    }

    /// Texts of different length compared through their hashes, so neither the length nor
    /// the first differing byte shows in the time taken.
    static func equal(_ a: String, _ b: String) -> Bool { equal(hash(a), hash(b)) }
}

private let sodiumReady: Bool = sodium_init() >= 0
