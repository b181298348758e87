import CGnuTLS
import Glibc

/// What GnuTLS refused, naming the call, or what a certificate failed.
public enum FleetTrustError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A GnuTLS call failed (its name and code).
    case gnutls(call: String, code: Int32)
    /// A certificate or request that does not hold: not signed by the fleet's authority, expired,
    /// for another purpose, a key that does not match.
    case refused(String)

    public var description: String {
        switch self {
        case let .gnutls(call, code):
            "\(call): " + (gnutls_strerror(code).map { String(cString: $0) } ?? "error \(code)")
        case let .refused(reason):
            reason
        }
    }
}

/// The X.509 pieces the fleet's trust is made of, through GnuTLS's API: each wrapper names its
/// call in the error it throws.
enum X509 {
    /// The extended key usages: a hub serves (TLS server), a door connects (TLS client).
    static let serverAuth = "1.3.6.1.5.5.7.3.1"
    static let clientAuth = "1.3.6.1.5.5.7.3.2"
    static let commonNameOID = "2.5.4.3"

    static func check(_ result: Int32, _ call: String) throws(FleetTrustError) {
        guard result >= 0 else { throw .gnutls(call: call, code: result) }
    }

    /// A new ECDSA P-256 key.
    static func newKey() throws(FleetTrustError) -> gnutls_x509_privkey_t? {
        var key: gnutls_x509_privkey_t?
        try check(gnutls_x509_privkey_init(&key), "gnutls_x509_privkey_init")
        // GNUTLS_CURVE_TO_BITS(curve), a macro Swift cannot import.
        let curveBits = UInt32(1) << 31 | UInt32(GNUTLS_ECC_CURVE_SECP256R1.rawValue)
        do { try check(gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA, curveBits, 0), "gnutls_x509_privkey_generate") } catch {
            gnutls_x509_privkey_deinit(key)
            throw error
        }
        return key
    }

    /// `body` given a datum over `pem`'s bytes (GnuTLS's import calls take one).
    static func withDatum<T>(_ pem: String, _ body: (inout gnutls_datum_t) -> T) -> T {
        var bytes = Array(pem.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
            return body(&datum)
        }
    }

    static func importCertificate(_ pem: String) throws(FleetTrustError) -> gnutls_x509_crt_t? {
        var certificate: gnutls_x509_crt_t?
        try check(gnutls_x509_crt_init(&certificate), "gnutls_x509_crt_init")
        let imported = withDatum(pem) { gnutls_x509_crt_import(certificate, &$0, GNUTLS_X509_FMT_PEM) }
        guard imported >= 0 else {
            gnutls_x509_crt_deinit(certificate)
            throw .gnutls(call: "gnutls_x509_crt_import", code: imported)
        }
        return certificate
    }

    static func importKey(_ pem: String) throws(FleetTrustError) -> gnutls_x509_privkey_t? {
        var key: gnutls_x509_privkey_t?
        try check(gnutls_x509_privkey_init(&key), "gnutls_x509_privkey_init")
        let imported = withDatum(pem) { gnutls_x509_privkey_import(key, &$0, GNUTLS_X509_FMT_PEM) }
        guard imported >= 0 else {
            gnutls_x509_privkey_deinit(key)
            throw .gnutls(call: "gnutls_x509_privkey_import", code: imported)
        }
        return key
    }

    /// A GnuTLS export into memory, as text (PEM).
    static func export(_ call: String, _ body: (inout gnutls_datum_t) -> Int32) throws(FleetTrustError) -> String {
        var datum = gnutls_datum_t(data: nil, size: 0)
        try check(body(&datum), call)
        // gnutls_free is free(3) unless a program replaces GnuTLS's allocator, which fpmod never does.
        defer { free(datum.data) }
        guard let data = datum.data else { throw .gnutls(call: call, code: -1) }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(datum.size)), as: UTF8.self)
    }

    static func exportKey(_ key: gnutls_x509_privkey_t?) throws(FleetTrustError) -> String {
        try export("gnutls_x509_privkey_export2_pkcs8") {
            gnutls_x509_privkey_export2_pkcs8(key, GNUTLS_X509_FMT_PEM, nil, UInt32(GNUTLS_PKCS_PLAIN.rawValue), &$0)
        }
    }

    static func exportCertificate(_ certificate: gnutls_x509_crt_t?) throws(FleetTrustError) -> String {
        try export("gnutls_x509_crt_export2") { gnutls_x509_crt_export2(certificate, GNUTLS_X509_FMT_PEM, &$0) }
    }

    /// 16 random bytes, the first below 0x80: a positive serial number no one can guess.
    static func newSerial() -> [UInt8] {
        var serial = (0..<16).map { _ in UInt8.random(in: 0...255) }
        serial[0] &= 0x7F
        serial[0] |= 0x01  // never a leading zero byte, so the hex form is one spelling
        return serial
    }

    static func serial(of certificate: gnutls_x509_crt_t?) throws(FleetTrustError) -> String {
        var bytes = [UInt8](repeating: 0, count: 40)
        var size = bytes.count
        try check(gnutls_x509_crt_get_serial(certificate, &bytes, &size), "gnutls_x509_crt_get_serial")
        return hex(bytes.prefix(size))
    }

    static func commonName(of certificate: gnutls_x509_crt_t?) throws(FleetTrustError) -> String {
        var bytes = [UInt8](repeating: 0, count: 256)
        var size = bytes.count
        try check(gnutls_x509_crt_get_dn_by_oid(certificate, commonNameOID, 0, 0, &bytes, &size), "gnutls_x509_crt_get_dn_by_oid")
        return String(decoding: bytes.prefix(size).prefix { $0 != 0 }, as: UTF8.self)
    }

    static func purposes(of certificate: gnutls_x509_crt_t?) -> [String] {
        var found: [String] = []
        for index: UInt32 in 0..<8 {
            var bytes = [UInt8](repeating: 0, count: 128)
            var size = bytes.count
            guard gnutls_x509_crt_get_key_purpose_oid(certificate, index, &bytes, &size, nil) >= 0 else { break }
            found.append(String(decoding: bytes.prefix(size).prefix { $0 != 0 }, as: UTF8.self))
        }
        return found
    }

    static func fingerprint(of certificate: gnutls_x509_crt_t?) throws(FleetTrustError) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var size = digest.count
        try check(gnutls_x509_crt_get_fingerprint(certificate, GNUTLS_DIG_SHA256, &digest, &size), "gnutls_x509_crt_get_fingerprint")
        return digest.prefix(size).map { hexByte($0) }.joined(separator: ":")
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map(hexByte).joined() }

    /// The SHA-256 of `bytes`, in upper-case hex.
    static func sha256(_ bytes: [UInt8]) throws(FleetTrustError) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        try check(gnutls_hash_fast(GNUTLS_DIG_SHA256, bytes, bytes.count, &digest), "gnutls_hash_fast")
        return hex(digest)
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    /// A version 3 certificate with a new serial, its validity from an hour before `now` for
    /// `days`, and `name` as its common name; the caller frees it (`gnutls_x509_crt_deinit`).
    static func newCertificate(name: String, days: Int, now: time_t) throws(FleetTrustError) -> (gnutls_x509_crt_t?, serial: [UInt8]) {
        var certificate: gnutls_x509_crt_t?
        try check(gnutls_x509_crt_init(&certificate), "gnutls_x509_crt_init")
        do {
            try check(gnutls_x509_crt_set_version(certificate, 3), "gnutls_x509_crt_set_version")
            let serial = newSerial()
            try check(gnutls_x509_crt_set_serial(certificate, serial, serial.count), "gnutls_x509_crt_set_serial")
            try setValidity(certificate, days: days, now: now)
            try setCommonName(certificate, name)
            return (certificate, serial)
        } catch {
            gnutls_x509_crt_deinit(certificate)
            throw error
        }
    }

    /// Sets the common name (at most 64 bytes, as X.520 allows).
    static func setCommonName(_ certificate: gnutls_x509_crt_t?, _ name: String) throws(FleetTrustError) {
        let bytes = Array(name.utf8.prefix(64))
        try check(gnutls_x509_crt_set_dn_by_oid(certificate, commonNameOID, 0, bytes, UInt32(bytes.count)), "gnutls_x509_crt_set_dn_by_oid")
    }

    static func setValidity(_ certificate: gnutls_x509_crt_t?, days: Int, now: time_t) throws(FleetTrustError) {
        // An hour back, for a door whose clock runs a little behind the hub's.
        try check(gnutls_x509_crt_set_activation_time(certificate, now - 3_600), "gnutls_x509_crt_set_activation_time")
        try check(gnutls_x509_crt_set_expiration_time(certificate, now + time_t(days) * 86_400), "gnutls_x509_crt_set_expiration_time")
    }

    static func setSubjectKeyID(_ certificate: gnutls_x509_crt_t?) throws(FleetTrustError) {
        var keyID = [UInt8](repeating: 0, count: 64)
        var size = keyID.count
        try check(gnutls_x509_crt_get_key_id(certificate, 0, &keyID, &size), "gnutls_x509_crt_get_key_id")
        try check(gnutls_x509_crt_set_subject_key_id(certificate, keyID, size), "gnutls_x509_crt_set_subject_key_id")
    }
}
