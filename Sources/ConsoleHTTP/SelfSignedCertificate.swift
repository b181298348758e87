import CGnuTLS
import Foundation
import Glibc
import Posix

/// What a GnuTLS call refused, naming the call.
public struct CertificateError: Error, CustomStringConvertible, Sendable {
    public var call: String
    public var code: Int32
    public var description: String {
        let text = gnutls_strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return "\(call): \(text)"
    }
}

/// A self-signed server certificate made with GnuTLS's X.509 API: an ECDSA P-256 key, the
/// machine's names and addresses as subject alternative names, server authentication only,
/// signed with SHA-256. Its SHA-256 fingerprint is what a person compares with the browser's.
public struct SelfSignedCertificate: Sendable {
    public var certificatePEM: String
    public var privateKeyPEM: String
    /// "AB:CD:…", over the certificate's DER, as browsers and `openssl x509 -fingerprint -sha256` show it.
    public var sha256Fingerprint: String

    public static func make(commonName: String, hostNames: [String], ipAddresses: [String],
                            validDays: Int = 3650) throws(CertificateError) -> SelfSignedCertificate {
        var key: gnutls_x509_privkey_t?
        try check(gnutls_x509_privkey_init(&key), "gnutls_x509_privkey_init")
        defer { gnutls_x509_privkey_deinit(key) }
        // GNUTLS_CURVE_TO_BITS(curve), a macro Swift cannot import.
        let curveBits = UInt32(1) << 31 | UInt32(GNUTLS_ECC_CURVE_SECP256R1.rawValue)
        try check(gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA, curveBits, 0), "gnutls_x509_privkey_generate")

        var certificate: gnutls_x509_crt_t?
        try check(gnutls_x509_crt_init(&certificate), "gnutls_x509_crt_init")
        defer { gnutls_x509_crt_deinit(certificate) }
        try check(gnutls_x509_crt_set_version(certificate, 3), "gnutls_x509_crt_set_version")
        var serial = (0..<16).map { _ in UInt8.random(in: 0...255) }
        serial[0] &= 0x7F  // a positive serial number
        try check(gnutls_x509_crt_set_serial(certificate, serial, serial.count), "gnutls_x509_crt_set_serial")
        let now = time(nil)
        try check(gnutls_x509_crt_set_activation_time(certificate, now - 86_400), "gnutls_x509_crt_set_activation_time")
        try check(gnutls_x509_crt_set_expiration_time(certificate, now + time_t(validDays) * 86_400), "gnutls_x509_crt_set_expiration_time")
        let name = Array(commonName.utf8.prefix(64))
        try check(gnutls_x509_crt_set_dn_by_oid(certificate, "2.5.4.3", 0, name, UInt32(name.count)), "gnutls_x509_crt_set_dn_by_oid")
        for host in hostNames {
            let bytes = Array(host.utf8)
            try check(gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_DNSNAME, bytes, UInt32(bytes.count), UInt32(GNUTLS_FSAN_APPEND)),
                      "gnutls_x509_crt_set_subject_alt_name")
        }
        for address in ipAddresses {
            guard let bytes = IPAddress.bytes(of: address) else { continue }
            try check(gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_IPADDRESS, bytes, UInt32(bytes.count), UInt32(GNUTLS_FSAN_APPEND)),
                      "gnutls_x509_crt_set_subject_alt_name")
        }
        try check(gnutls_x509_crt_set_key(certificate, key), "gnutls_x509_crt_set_key")
        try check(gnutls_x509_crt_set_basic_constraints(certificate, 0, -1), "gnutls_x509_crt_set_basic_constraints")
        try check(gnutls_x509_crt_set_key_usage(certificate, UInt32(GNUTLS_KEY_DIGITAL_SIGNATURE)), "gnutls_x509_crt_set_key_usage")
        try check(gnutls_x509_crt_set_key_purpose_oid(certificate, "1.3.6.1.5.5.7.3.1", 0), "gnutls_x509_crt_set_key_purpose_oid")
        var keyID = [UInt8](repeating: 0, count: 64)
        var keyIDSize = keyID.count
        if gnutls_x509_crt_get_key_id(certificate, 0, &keyID, &keyIDSize) == 0 {
            try check(gnutls_x509_crt_set_subject_key_id(certificate, keyID, keyIDSize), "gnutls_x509_crt_set_subject_key_id")
        }
        try check(gnutls_x509_crt_sign2(certificate, certificate, key, GNUTLS_DIG_SHA256, 0), "gnutls_x509_crt_sign2")

        let certificatePEM = try export("gnutls_x509_crt_export2") { gnutls_x509_crt_export2(certificate, GNUTLS_X509_FMT_PEM, &$0) }
        let keyPEM = try export("gnutls_x509_privkey_export2_pkcs8") {
            gnutls_x509_privkey_export2_pkcs8(key, GNUTLS_X509_FMT_PEM, nil, UInt32(GNUTLS_PKCS_PLAIN.rawValue), &$0)
        }
        return SelfSignedCertificate(certificatePEM: certificatePEM, privateKeyPEM: keyPEM,
                                     sha256Fingerprint: try fingerprint(of: certificate))
    }

    /// The SHA-256 fingerprint of a PEM certificate (the user's own, named in the config).
    public static func fingerprint(ofPEM pem: String) throws(CertificateError) -> String {
        var certificate: gnutls_x509_crt_t?
        try check(gnutls_x509_crt_init(&certificate), "gnutls_x509_crt_init")
        defer { gnutls_x509_crt_deinit(certificate) }
        var bytes = Array(pem.utf8)
        let imported = bytes.withUnsafeMutableBufferPointer { buffer in
            var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
            return gnutls_x509_crt_import(certificate, &datum, GNUTLS_X509_FMT_PEM)
        }
        try check(imported, "gnutls_x509_crt_import")
        return try fingerprint(of: certificate)
    }

    static func fingerprint(of certificate: gnutls_x509_crt_t?) throws(CertificateError) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var size = digest.count
        try check(gnutls_x509_crt_get_fingerprint(certificate, GNUTLS_DIG_SHA256, &digest, &size), "gnutls_x509_crt_get_fingerprint")
        return digest.prefix(size).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    private static func export(_ call: String, _ body: (inout gnutls_datum_t) -> Int32) throws(CertificateError) -> String {
        var datum = gnutls_datum_t(data: nil, size: 0)
        try check(body(&datum), call)
        // gnutls_free is free(3) unless a program replaces GnuTLS's allocator, which fpmod never does.
        defer { free(datum.data) }
        guard let data = datum.data else { throw CertificateError(call: call, code: -1) }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(datum.size)), as: UTF8.self)
    }


    private static func check(_ result: Int32, _ call: String) throws(CertificateError) {
        guard result >= 0 else { throw CertificateError(call: call, code: result) }
    }
}
