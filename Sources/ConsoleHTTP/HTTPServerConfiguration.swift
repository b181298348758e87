import Foundation

/// How an `HTTPServer` listens and what it bounds. Every limit has a default a door can live with;
/// a test lowers them to see them act.
public struct HTTPServerConfiguration: Sendable {
    /// The IPv4 address to listen on ("0.0.0.0": every interface, "127.0.0.1": this machine only).
    public var bindAddress = "127.0.0.1"
    /// 0: any free port (read it back from `HTTPServer.port`).
    public var port = 0
    /// A certificate and key in PEM: HTTPS, TLS 1.2 and 1.3 only. nil: plain HTTP (the lock
    /// screen's loopback listener).
    public var tls: (certificatePEM: String, privateKeyPEM: String)?
    /// With `tls`: the certificate authority (PEM) whose certificates clients may present (mutual
    /// TLS, the fleet hub's doors). A client is asked for one, not made to: a request carries the
    /// certificate only when GnuTLS verified it against this authority (`HTTPRequest.clientCertificatePEM`),
    /// and the handler decides what needs one. nil: no client certificates.
    public var clientAuthorityPEM: String?
    /// Connections at once, over all clients: each has a thread while it lasts.
    public var maxConnections = 64
    /// Connections at once from one address, so one client cannot take them all.
    public var maxConnectionsPerAddress = 16
    /// A connection that sends or receives nothing for this long is closed (slow headers).
    public var idleTimeoutSeconds = 10
    /// The request line and headers together, about: more is answered 431 (a line alone too
    /// long, 414). libmicrohttpd reads them into half of the connection's memory pool, which is
    /// twice this, so the other half holds the answer's headers.
    public var maxHeaderBytes = 8 * 1024
    /// A request's body; more (by Content-Length, or as it arrives) is answered 413, unread.
    public var maxBodyBytes = 64 * 1024
    /// A whole request, body included, must have arrived by then (a body trickled in is 408).
    public var maxRequestSeconds = 10
    /// Where the server's own messages go (throttled to a few a minute).
    public var log: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data(("console: " + message + "\n").utf8))
    }

    public init() {}
}

public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
