import CGnuTLS
import CMicroHTTPD
import CMicroHTTPDShim
import Foundation

/// A request's parts read from libmicrohttpd (MHD_get_connection_values and friends) and
/// decoded here: the path and query as sent, percent-decoded once, refusing what no browser
/// sends to a console (a NUL, text that is not UTF-8, a path that does not start with "/").
enum RequestReading {
    struct Refusal: Error {
        var message: String
    }

    static func request(_ connection: OpaquePointer, method: String, rawPath: String, body: [UInt8], secure: Bool,
                        clientCertificates: Bool) -> Result<HTTPRequest, Refusal> {
        let pathPart = rawPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? rawPath
        guard let path = PercentDecoding.decode(pathPart, plusIsSpace: false), path.hasPrefix("/") else {
            return .failure(Refusal(message: "The path is not valid (a NUL, bad escapes, or not UTF-8)."))
        }
        var query: [(name: String, value: String)] = []
        for (name, value) in values(connection, .GET_ARGUMENT_KIND) {
            guard let decodedName = PercentDecoding.decode(name, plusIsSpace: true),
                  let decodedValue = PercentDecoding.decode(value, plusIsSpace: true) else {
                return .failure(Refusal(message: "A query parameter is not valid (a NUL, bad escapes, or not UTF-8)."))
            }
            query.append((decodedName, decodedValue))
        }
        let headers = values(connection, .HEADER_KIND).map { (name: $0.name.lowercased(), value: $0.value) }
        return .success(HTTPRequest(method: method, path: path, query: query, headers: headers, body: body,
                                    remoteAddress: clientAddress(connection), isSecure: secure,
                                    clientCertificatePEM: clientCertificates ? verifiedClientCertificate(connection) : nil))
    }

    /// The client's certificate when GnuTLS verified it against the server's client authority
    /// (gnutls_certificate_verify_peers2 on the connection's session, then the first of
    /// gnutls_certificate_get_peers as PEM); nil when none was sent or it did not verify.
    static func verifiedClientCertificate(_ connection: OpaquePointer) -> String? {
        guard let session = fpmod_mhd_tls_session(connection) else { return nil }
        let tls = OpaquePointer(session)
        var status: UInt32 = 0
        guard gnutls_certificate_verify_peers2(tls, &status) == 0, status == 0 else { return nil }
        var count: UInt32 = 0
        guard let peers = gnutls_certificate_get_peers(tls, &count), count > 0 else { return nil }
        var certificate: gnutls_x509_crt_t?
        guard gnutls_x509_crt_init(&certificate) >= 0 else { return nil }
        defer { gnutls_x509_crt_deinit(certificate) }
        var der = peers[0]
        guard gnutls_x509_crt_import(certificate, &der, GNUTLS_X509_FMT_DER) >= 0 else { return nil }
        var pem = gnutls_datum_t(data: nil, size: 0)
        guard gnutls_x509_crt_export2(certificate, GNUTLS_X509_FMT_PEM, &pem) >= 0, let data = pem.data else { return nil }
        // gnutls_free is free(3) unless a program replaces GnuTLS's allocator, which fpmod never does.
        defer { free(data) }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(pem.size)), as: UTF8.self)
    }

    /// The header's first value (MHD_lookup_connection_value), case-insensitively.
    static func header(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    /// Every value of a kind, in the order they came (MHD_get_connection_values).
    static func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(name: String, value: String)] {
        final class Collected { var pairs: [(name: String, value: String)] = [] }
        let collected = Collected()
        let iterator: MHD_KeyValueIterator = { cls, _, key, value in
            guard let cls, let key else { return .YES }
            let list = Unmanaged<Collected>.fromOpaque(cls).takeUnretainedValue()
            list.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
            return .YES
        }
        withExtendedLifetime(collected) {
            _ = MHD_get_connection_values(connection, kind, iterator, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.pairs
    }

    static func clientAddress(_ connection: OpaquePointer) -> String {
        var text = [CChar](repeating: 0, count: 64)
        guard fpmod_mhd_client_address(connection, &text, text.count) == 0 else { return "" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Percent-decoding done once, strictly: nil for a bad escape, an encoded NUL, or bytes that are
/// not UTF-8.
public enum PercentDecoding {
    public static func decode(_ text: String, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
