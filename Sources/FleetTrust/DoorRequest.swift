import CGnuTLS
import Glibc

/// What a door makes when it joins a fleet: its own key pair, which never leaves it, and a
/// certificate request (PKCS #10) carrying the public half and signed by the private one, so the
/// hub can tell the door holds the key it asks a certificate for.
public struct DoorRequest: Sendable {
    /// Kept by the door (mode 0600), never sent.
    public var privateKeyPEM: String
    /// Sent to the hub with the join code.
    public var requestPEM: String

    /// A request for a new key pair, or for `privateKeyPEM` when the door asks again with the key
    /// it kept from a join whose answer it never had (the hub gives that key's certificate again).
    public static func make(privateKeyPEM: String? = nil) throws(FleetTrustError) -> DoorRequest {
        let key: gnutls_x509_privkey_t?
        if let privateKeyPEM { key = try X509.importKey(privateKeyPEM) } else { key = try X509.newKey() }
        defer { gnutls_x509_privkey_deinit(key) }
        var request: gnutls_x509_crq_t?
        try X509.check(gnutls_x509_crq_init(&request), "gnutls_x509_crq_init")
        defer { gnutls_x509_crq_deinit(request) }
        try X509.check(gnutls_x509_crq_set_version(request, 1), "gnutls_x509_crq_set_version")
        // The name is the hub's to give (the door's name in its database); the request's is a placeholder.
        let name = Array("fpmod door".utf8)
        try X509.check(gnutls_x509_crq_set_dn_by_oid(request, X509.commonNameOID, 0, name, UInt32(name.count)), "gnutls_x509_crq_set_dn_by_oid")
        try X509.check(gnutls_x509_crq_set_key(request, key), "gnutls_x509_crq_set_key")
        try X509.check(gnutls_x509_crq_sign2(request, key, GNUTLS_DIG_SHA256, 0), "gnutls_x509_crq_sign2")
        let requestPEM = try X509.export("gnutls_x509_crq_export2") { gnutls_x509_crq_export2(request, GNUTLS_X509_FMT_PEM, &$0) }
        return DoorRequest(privateKeyPEM: try X509.exportKey(key), requestPEM: requestPEM)
    }
}
