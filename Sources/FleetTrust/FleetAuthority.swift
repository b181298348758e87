import CGnuTLS
import Glibc
import Posix

/// A certificate the fleet's authority issued.
public struct IssuedCertificate: Sendable, Equatable {
    public var certificatePEM: String
    /// Upper-case hex, as the hub stores it to revoke the certificate later.
    public var serial: String
    /// "AB:CD:…", the SHA-256 fingerprint of the certificate's DER.
    public var sha256Fingerprint: String
}

/// Who a certificate that verified belongs to.
public struct VerifiedPeer: Sendable, Equatable {
    public var commonName: String
    public var serial: String
    /// "AB:CD:…": how the hub knows the door on every request.
    public var sha256Fingerprint: String
}

/// The fleet's own certificate authority, kept by the hub: it signs the hub's server certificate
/// and each door's client certificate, and nothing else. Doors trust this authority alone (not the
/// system's), the hub accepts only certificates it issued: mutual TLS without any outside CA.
///
/// The authority's key is the hub's most precious secret: whoever holds it can make a door.
/// The hub keeps it in a private file (0600) beside its config, never in the database.
public struct FleetAuthority: Sendable {
    public let certificatePEM: String
    public let privateKeyPEM: String

    /// The days a door's certificate is valid: long enough that a door offline for a season
    /// still joins back; revocation, not expiry, is how a door is shut out.
    public static let doorValidityDays = 825

    /// A new authority: an ECDSA P-256 key and a self-signed CA certificate that may sign end
    /// certificates only (path length 0).
    public static func make(name: String, validDays: Int = 7_300, now: time_t = time(nil)) throws(FleetTrustError) -> FleetAuthority {
        let key = try X509.newKey()
        defer { gnutls_x509_privkey_deinit(key) }
        let (certificate, _) = try X509.newCertificate(name: name, days: validDays, now: now)
        defer { gnutls_x509_crt_deinit(certificate) }
        try X509.check(gnutls_x509_crt_set_key(certificate, key), "gnutls_x509_crt_set_key")
        try X509.check(gnutls_x509_crt_set_basic_constraints(certificate, 1, 0), "gnutls_x509_crt_set_basic_constraints")
        try X509.check(gnutls_x509_crt_set_key_usage(certificate, UInt32(GNUTLS_KEY_KEY_CERT_SIGN | GNUTLS_KEY_CRL_SIGN)),
                       "gnutls_x509_crt_set_key_usage")
        try X509.setSubjectKeyID(certificate)
        try X509.check(gnutls_x509_crt_sign2(certificate, certificate, key, GNUTLS_DIG_SHA256, 0), "gnutls_x509_crt_sign2")
        return FleetAuthority(checkedCertificatePEM: try X509.exportCertificate(certificate), privateKeyPEM: try X509.exportKey(key))
    }

    /// The authority as the hub stored it; refused when the key is not the certificate's or the
    /// certificate is no CA.
    public init(certificatePEM: String, privateKeyPEM: String) throws(FleetTrustError) {
        let certificate = try X509.importCertificate(certificatePEM)
        defer { gnutls_x509_crt_deinit(certificate) }
        let key = try X509.importKey(privateKeyPEM)
        defer { gnutls_x509_privkey_deinit(key) }
        var critical: UInt32 = 0
        guard gnutls_x509_crt_get_basic_constraints(certificate, &critical, nil, nil) == 1 else {
            throw .refused("the fleet authority's certificate is not a certificate authority's")
        }
        guard try Self.keyID(ofCertificate: certificate) == Self.keyID(ofKey: key) else {
            throw .refused("the fleet authority's key is not the one its certificate names")
        }
        self.init(checkedCertificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM)
    }

    private init(checkedCertificatePEM: String, privateKeyPEM: String) {
        self.certificatePEM = checkedCertificatePEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// A door's client certificate for the key in `requestPEM`, named `doorName` by the hub (the
    /// request's own name is ignored). The request must be signed by the key it carries.
    public func issueDoorCertificate(requestPEM: String, doorName: String, now: time_t = time(nil)) throws(FleetTrustError) -> IssuedCertificate {
        let publicKey = try Self.requestedKey(requestPEM)
        defer { gnutls_pubkey_deinit(publicKey) }
        return try issue(name: doorName, purpose: X509.clientAuth, days: Self.doorValidityDays, now: now) { certificate throws(FleetTrustError) in
            try X509.check(gnutls_x509_crt_set_pubkey(certificate, publicKey), "gnutls_x509_crt_set_pubkey")
        }
    }

    /// The SHA-256 (upper-case hex) of the public key a door's certificate request carries, as
    /// DER SubjectPublicKeyInfo; refused like `issueDoorCertificate` when the request is not
    /// signed by that key. How the hub tells a door asking again with the same key (its first
    /// answer lost) from another machine holding the code.
    public static func requestKeySHA256(requestPEM: String) throws(FleetTrustError) -> String {
        let publicKey = try requestedKey(requestPEM)
        defer { gnutls_pubkey_deinit(publicKey) }
        var datum = gnutls_datum_t(data: nil, size: 0)
        try X509.check(gnutls_pubkey_export2(publicKey, GNUTLS_X509_FMT_DER, &datum), "gnutls_pubkey_export2")
        defer { free(datum.data) }
        guard let data = datum.data else { throw .gnutls(call: "gnutls_pubkey_export2", code: -1) }
        return try X509.sha256(Array(UnsafeBufferPointer(start: data, count: Int(datum.size))))
    }

    /// The public key of a certificate request signed by it; the caller frees it (`gnutls_pubkey_deinit`).
    private static func requestedKey(_ requestPEM: String) throws(FleetTrustError) -> gnutls_pubkey_t? {
        var request: gnutls_x509_crq_t?
        try X509.check(gnutls_x509_crq_init(&request), "gnutls_x509_crq_init")
        defer { gnutls_x509_crq_deinit(request) }
        let imported = X509.withDatum(requestPEM) { gnutls_x509_crq_import(request, &$0, GNUTLS_X509_FMT_PEM) }
        guard imported >= 0 else { throw .refused("the door's certificate request does not read (gnutls_x509_crq_import: \(imported))") }
        guard gnutls_x509_crq_verify(request, 0) >= 0 else {
            throw .refused("the door's certificate request is not signed by the key it carries")
        }
        var publicKey: gnutls_pubkey_t?
        try X509.check(gnutls_pubkey_init(&publicKey), "gnutls_pubkey_init")
        do { try X509.check(gnutls_pubkey_import_x509_crq(publicKey, request, 0), "gnutls_pubkey_import_x509_crq") } catch {
            gnutls_pubkey_deinit(publicKey)
            throw error
        }
        return publicKey
    }

    /// The hub's own server certificate and its new key, for the names and addresses doors use
    /// to reach it.
    public func issueHubCertificate(hostNames: [String], ipAddresses: [String], now: time_t = time(nil))
        throws(FleetTrustError) -> (certificate: IssuedCertificate, privateKeyPEM: String) {
        let key = try X509.newKey()
        defer { gnutls_x509_privkey_deinit(key) }
        let issued = try issue(name: hostNames.first ?? ipAddresses.first ?? "fpmod hub", purpose: X509.serverAuth, days: Self.doorValidityDays,
                               now: now) { certificate throws(FleetTrustError) in
            try X509.check(gnutls_x509_crt_set_key(certificate, key), "gnutls_x509_crt_set_key")
            for host in hostNames {
                let bytes = Array(host.utf8)
                try X509.check(gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_DNSNAME, bytes, UInt32(bytes.count),
                                                                    UInt32(GNUTLS_FSAN_APPEND)), "gnutls_x509_crt_set_subject_alt_name")
            }
            for address in ipAddresses {
                guard let bytes = IPAddress.bytes(of: address) else { throw .refused("\(address.debugDescription) is no IP address") }
                try X509.check(gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_IPADDRESS, bytes, UInt32(bytes.count),
                                                                    UInt32(GNUTLS_FSAN_APPEND)), "gnutls_x509_crt_set_subject_alt_name")
            }
        }
        return (issued, try X509.exportKey(key))
    }

    /// "AB:CD:…", the SHA-256 fingerprint of a PEM certificate.
    public static func fingerprint(ofPEM pem: String) throws(FleetTrustError) -> String {
        let certificate = try X509.importCertificate(pem)
        defer { gnutls_x509_crt_deinit(certificate) }
        return try X509.fingerprint(of: certificate)
    }

    /// The peer of a certificate this authority issued for `purpose`, at `now`; refused when
    /// another authority signed it, when it is outside its validity, or when it was issued for
    /// the other side (a door's certificate cannot serve as a hub, nor a hub's join as a door).
    /// Revocation is the hub's list of serials, checked by the caller.
    public func verify(certificatePEM: String, asDoor: Bool, now: time_t = time(nil)) throws(FleetTrustError) -> VerifiedPeer {
        try Self.verify(certificatePEM: certificatePEM, authorityPEM: self.certificatePEM, asDoor: asDoor, now: now)
    }

    /// The same check where only the authority's certificate is known: a door checking its hub.
    public static func verify(certificatePEM: String, authorityPEM: String, asDoor: Bool, now: time_t = time(nil)) throws(FleetTrustError) -> VerifiedPeer {
        let authority = try X509.importCertificate(authorityPEM)
        defer { gnutls_x509_crt_deinit(authority) }
        let certificate: gnutls_x509_crt_t?
        do { certificate = try X509.importCertificate(certificatePEM) } catch { throw .refused("the certificate does not read (\(error))") }
        defer { gnutls_x509_crt_deinit(certificate) }
        var status: UInt32 = 0
        var authorities: [gnutls_x509_crt_t?] = [authority]
        try X509.check(gnutls_x509_crt_verify(certificate, &authorities, 1, 0, &status), "gnutls_x509_crt_verify")
        guard status == 0 else { throw .refused("the certificate is not one this fleet issued (\(Self.reasons(status)))") }
        let activation = gnutls_x509_crt_get_activation_time(certificate)
        let expiration = gnutls_x509_crt_get_expiration_time(certificate)
        guard activation <= now else { throw .refused("the certificate is not valid yet") }
        guard now < expiration else { throw .refused("the certificate expired") }
        let purpose = asDoor ? X509.clientAuth : X509.serverAuth
        guard X509.purposes(of: certificate).contains(purpose) else {
            throw .refused(asDoor ? "the certificate is not a door's" : "the certificate is not a hub's")
        }
        return VerifiedPeer(commonName: try X509.commonName(of: certificate), serial: try X509.serial(of: certificate),
                            sha256Fingerprint: try X509.fingerprint(of: certificate))
    }

    /// An end certificate signed by this authority: `configure` gives it its key and names.
    private func issue(name: String, purpose: String, days: Int, now: time_t,
                       _ configure: (gnutls_x509_crt_t?) throws(FleetTrustError) -> Void) throws(FleetTrustError) -> IssuedCertificate {
        let authority = try X509.importCertificate(certificatePEM)
        defer { gnutls_x509_crt_deinit(authority) }
        let authorityKey = try X509.importKey(privateKeyPEM)
        defer { gnutls_x509_privkey_deinit(authorityKey) }
        let (certificate, serial) = try X509.newCertificate(name: name, days: days, now: now)
        defer { gnutls_x509_crt_deinit(certificate) }
        try configure(certificate)
        try X509.check(gnutls_x509_crt_set_basic_constraints(certificate, 0, -1), "gnutls_x509_crt_set_basic_constraints")
        try X509.check(gnutls_x509_crt_set_key_usage(certificate, UInt32(GNUTLS_KEY_DIGITAL_SIGNATURE)), "gnutls_x509_crt_set_key_usage")
        try X509.check(gnutls_x509_crt_set_key_purpose_oid(certificate, purpose, 0), "gnutls_x509_crt_set_key_purpose_oid")
        try X509.setSubjectKeyID(certificate)
        var authorityKeyID = [UInt8](repeating: 0, count: 64)
        var size = authorityKeyID.count
        if gnutls_x509_crt_get_subject_key_id(authority, &authorityKeyID, &size, nil) >= 0 {
            try X509.check(gnutls_x509_crt_set_authority_key_id(certificate, authorityKeyID, size), "gnutls_x509_crt_set_authority_key_id")
        }
        try X509.check(gnutls_x509_crt_sign2(certificate, authority, authorityKey, GNUTLS_DIG_SHA256, 0), "gnutls_x509_crt_sign2")
        return IssuedCertificate(certificatePEM: try X509.exportCertificate(certificate), serial: X509.hex(serial),
                                 sha256Fingerprint: try X509.fingerprint(of: certificate))
    }

    private static func keyID(ofCertificate certificate: gnutls_x509_crt_t?) throws(FleetTrustError) -> [UInt8] {
        var id = [UInt8](repeating: 0, count: 64)
        var size = id.count
        try X509.check(gnutls_x509_crt_get_key_id(certificate, 0, &id, &size), "gnutls_x509_crt_get_key_id")
        return Array(id.prefix(size))
    }

    private static func keyID(ofKey key: gnutls_x509_privkey_t?) throws(FleetTrustError) -> [UInt8] {
        var id = [UInt8](repeating: 0, count: 64)
        var size = id.count
        try X509.check(gnutls_x509_privkey_get_key_id(key, 0, &id, &size), "gnutls_x509_privkey_get_key_id")
        return Array(id.prefix(size))
    }

    private static func reasons(_ status: UInt32) -> String {
        var names: [String] = []
        if status & GNUTLS_CERT_SIGNER_NOT_FOUND.rawValue != 0 { names.append("signed by another authority") }
        if status & GNUTLS_CERT_SIGNATURE_FAILURE.rawValue != 0 { names.append("its signature does not hold") }
        if status & GNUTLS_CERT_EXPIRED.rawValue != 0 { names.append("expired") }
        if status & GNUTLS_CERT_NOT_ACTIVATED.rawValue != 0 { names.append("not valid yet") }
        if status & GNUTLS_CERT_SIGNER_NOT_CA.rawValue != 0 { names.append("its signer is no authority") }
        return names.isEmpty ? "status \(status)" : names.joined(separator: ", ")
    }

}
