/// One HTTP request as the console's handlers see it: the method, the path (percent-decoded
/// once, never containing a NUL), the query, the headers (names lower-cased), the whole body
/// (already bounded by the server) and who sent it. Built by the server; a value a test can make.
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    public var query: [(name: String, value: String)]
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The peer's address as text ("127.0.0.1", "::1", "192.168.1.20").
    public var remoteAddress: String
    /// Whether the request came over TLS.
    public var isSecure: Bool
    /// The client's certificate (PEM), present only when the server has a client authority and
    /// GnuTLS verified the certificate against it in this connection's handshake.
    public var clientCertificatePEM: String?

    public init(method: String, path: String, query: [(name: String, value: String)] = [],
                headers: [(name: String, value: String)] = [], body: [UInt8] = [],
                remoteAddress: String = "127.0.0.1", isSecure: Bool = true, clientCertificatePEM: String? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.isSecure = isSecure
        self.clientCertificatePEM = clientCertificatePEM
    }

    /// The first header of this name (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    /// The first query parameter of this name.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The cookie of this name from the Cookie header(s).
    public func cookie(_ name: String) -> String? {
        for (headerName, value) in headers where headerName == "cookie" {
            for pair in value.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                if trimmed[..<equals] == Substring(name) { return String(trimmed[trimmed.index(after: equals)...]) }
            }
        }
        return nil
    }
}

/// A body the server sends while it is being produced (Server-Sent Events): `next` is called on
/// the server's thread for the connection and returns the next bytes, waiting at most until
/// `deadline`; an empty array means nothing yet (the server calls again), nil means the end.
public protocol HTTPBodyStream: AnyObject, Sendable {
    func next(deadline: ContinuousClock.Instant) -> [UInt8]?
    /// The client went away or the server is stopping: release what the stream holds.
    func close()
}

public enum HTTPBody: Sendable {
    case bytes([UInt8])
    case stream(any HTTPBodyStream)
}

/// What a handler answers. Headers are sent as given, after the server's own security headers.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: HTTPBody

    public init(status: Int, headers: [(name: String, value: String)] = [], body: HTTPBody = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int, contentType: String, text: String, headers: [(name: String, value: String)] = []) {
        self.init(status: status, headers: [("Content-Type", contentType)] + headers, body: .bytes(Array(text.utf8)))
    }
}

/// The console's routes: called on one of the server's threads per request, concurrently.
public protocol HTTPHandler: Sendable {
    func respond(to request: HTTPRequest) -> HTTPResponse
}
