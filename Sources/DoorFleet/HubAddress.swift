import Posix

/// Where a door reaches its hub: `https://HOST[:PORT]`, checked before anything is sent. Only
/// HTTPS (the hub speaks nothing else), no user name, path, query or fragment: a door's requests
/// name their own paths, and a URL that carries more was most likely pasted from somewhere else.
public struct HubAddress: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: Int

    public static let defaultPort = 8443

    public init(parsing text: String) throws(FleetJoinError) {
        let usage = "give the hub as https://HOST:PORT, e.g. https://hub.example:8443 (what `fpmod hub serve` prints)"
        guard text.utf8.count <= 300, text.hasPrefix("https://") else { throw .badAddress(usage) }
        var rest = Substring(text.dropFirst("https://".count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.isEmpty, !rest.contains(where: { "/?#@ \\".contains($0) }) else { throw .badAddress(usage) }
        var host = rest
        var port = Self.defaultPort
        if rest.hasPrefix("[") {
            // An IPv6 address, bracketed as in any URL.
            guard let close = rest.firstIndex(of: "]") else { throw .badAddress(usage) }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { throw .badAddress(usage) }
                port = number
            }
            guard IPAddress.bytes(of: String(host))?.count == 16 else { throw .badAddress(usage) }
        } else {
            if let colon = rest.lastIndex(of: ":") {
                guard let number = Int(rest[rest.index(after: colon)...]) else { throw .badAddress(usage) }
                host = rest[..<colon]
                port = number
            }
            let allowed = host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
            guard !host.isEmpty, host.count <= 253, allowed else { throw .badAddress(usage) }
        }
        guard (1...65_535).contains(port) else { throw .badAddress("the port must be 1–65535; " + usage) }
        self.host = String(host)
        self.port = port
    }

    /// The URL requests are made under, e.g. `https://hub.example:8443`.
    public var description: String {
        host.contains(":") ? "https://[\(host)]:\(port)" : "https://\(host):\(port)"
    }
}
