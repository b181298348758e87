import ConsoleHTTP
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// The console's HTTP server against clients nobody here wrote (curl, openssl s_client) and
/// raw sockets: TLS checked by curl against the certificate we made, sizes, bad paths, streams,
/// idle and per-address limits.
@Suite(.serialized) struct ConsoleHTTPTests {
    /// Answers `METHOD PATH?QUERY BODY`; counts its calls.
    final class Echo: HTTPHandler, @unchecked Sendable {
        let lock = NSLock()
        var calls = 0
        func respond(to request: HTTPRequest) -> HTTPResponse {
            lock.withLock { calls += 1 }
            let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            let text = "\(request.method) \(request.path)?\(query) \(String(decoding: request.body, as: UTF8.self)) from \(request.remoteAddress)"
            return HTTPResponse(status: 200, contentType: "text/plain", text: text)
        }
    }

    /// Three pieces, then the end; `close()` is recorded.
    final class Pieces: HTTPBodyStream, @unchecked Sendable {
        let lock = NSLock()
        var left: [String]
        var closed = false
        let forever: Bool
        init(_ pieces: [String], forever: Bool = false) { left = pieces; self.forever = forever }
        func next(deadline: ContinuousClock.Instant) -> [UInt8]? {
            let piece: String? = lock.withLock { left.isEmpty ? nil : left.removeFirst() }
            if let piece { return Array(piece.utf8) }
            if forever {
                usleep(50_000)
                return []
            }
            return nil
        }
        func close() { lock.withLock { closed = true } }
        var isClosed: Bool { lock.withLock { closed } }
    }

    struct Streamer: HTTPHandler {
        let stream: Pieces
        func respond(to request: HTTPRequest) -> HTTPResponse {
            HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")], body: .stream(stream))
        }
    }

    static func run(_ executable: String, _ arguments: [String], input: String? = nil) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let stdin = Pipe()
        process.standardInput = stdin
        guard (try? process.run()) != nil else { return (-1, "cannot run \(executable)") }
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try? stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func tlsServer(_ handler: any HTTPHandler, scratch: ScratchFolder) throws -> (HTTPServer, String, SelfSignedCertificate) {
        let certificate = try SelfSignedCertificate.make(commonName: "fpmod-test", hostNames: ["localhost"], ipAddresses: ["127.0.0.1"])
        let path = scratch.file("cert.pem")
        try certificate.certificatePEM.write(toFile: path, atomically: true, encoding: .utf8)
        var configuration = HTTPServerConfiguration()
        configuration.tls = (certificate.certificatePEM, certificate.privateKeyPEM)
        return (try HTTPServer(configuration: configuration, handler: handler), path, certificate)
    }

    /// A plain TCP connection to 127.0.0.1:port, from `source` when given.
    static func connect(_ port: Int, from source: String? = nil) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        func address(_ text: String, _ port: Int) -> sockaddr_in {
            var value = sockaddr_in()
            value.sin_family = sa_family_t(AF_INET)
            value.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, text, &value.sin_addr)
            return value
        }
        if let source {
            var local = address(source, 0)
            guard withUnsafePointer(to: &local, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }) == 0 else {
                close(descriptor)
                return nil
            }
        }
        var remote = address("127.0.0.1", port)
        guard withUnsafePointer(to: &remote, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Sends `text`, then reads until the peer closes (or the timeout); the reply's text.
    static func exchange(_ port: Int, _ text: String, from source: String? = nil) -> String {
        guard let descriptor = connect(port, from: source) else { return "(no connection)" }
        defer { close(descriptor) }
        _ = text.utf8CString.withUnsafeBufferPointer { send(descriptor, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            reply += buffer[0..<count]
            if String(decoding: reply, as: UTF8.self).contains("\r\n\r\n"), !text.hasPrefix("KEEP") { break }
        }
        return String(decoding: reply, as: UTF8.self)
    }

    static func plainServer(_ handler: any HTTPHandler, _ change: (inout HTTPServerConfiguration) -> Void = { _ in }) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration()
        change(&configuration)
        return try HTTPServer(configuration: configuration, handler: handler)
    }

    @Test func curlVerifiesTheCertificateAndGetsTheAnswer() throws {
        let scratch = ScratchFolder(prefix: "fpmod-http")
        defer { scratch.remove() }
        let (server, certificate, _) = try Self.tlsServer(Echo(), scratch: scratch)
        defer { server.stop() }
        let get = Self.run("/usr/bin/curl", ["--silent", "--show-error", "--cacert", certificate, "https://127.0.0.1:\(server.port)/a%20b?x=1&y=%C3%A9"])
        #expect(get.status == 0 && get.output.hasPrefix("GET /a b?x=1&y=é  from 127.0.0.1"), "\(get.output)")
        let post = Self.run("/usr/bin/curl", ["--silent", "--cacert", certificate, "--data", "hello", "https://localhost:\(server.port)/p"])
        #expect(post.output.hasPrefix("POST /p? hello"), "\(post.output)")
        let headers = Self.run("/usr/bin/curl", ["--silent", "--include", "--cacert", certificate, "https://127.0.0.1:\(server.port)/"])
        for header in ["X-Content-Type-Options: nosniff", "X-Frame-Options: DENY", "Strict-Transport-Security", "Cache-Control: no-store"] {
            #expect(headers.output.contains(header), "\(header)")
        }
        // Another name than the certificate's: curl refuses, as a browser would.
        let wrongName = Self.run("/usr/bin/curl", ["--silent", "--cacert", certificate, "--resolve", "door.example:\(server.port):127.0.0.1",
                                                   "https://door.example:\(server.port)/"])
        #expect(wrongName.status != 0)
    }

    @Test func theFingerprintIsOpenSSLs() throws {
        let scratch = ScratchFolder(prefix: "fpmod-http")
        defer { scratch.remove() }
        let certificate = try SelfSignedCertificate.make(commonName: "door", hostNames: ["door.local"], ipAddresses: ["192.0.2.1"])
        let path = scratch.file("cert.pem")
        try certificate.certificatePEM.write(toFile: path, atomically: true, encoding: .utf8)
        let openssl = Self.run("/usr/bin/openssl", ["x509", "-noout", "-fingerprint", "-sha256", "-in", path])
        #expect(openssl.output.uppercased().contains(certificate.sha256Fingerprint), "\(openssl.output)")
        #expect(try SelfSignedCertificate.fingerprint(ofPEM: certificate.certificatePEM) == certificate.sha256Fingerprint)
        let text = Self.run("/usr/bin/openssl", ["x509", "-noout", "-text", "-in", path]).output
        #expect(text.contains("DNS:door.local") && text.contains("IP Address:192.0.2.1") && text.contains("TLS Web Server Authentication"))
    }

    @Test func tlsBelowOnePointTwoIsRefused() throws {
        let scratch = ScratchFolder(prefix: "fpmod-http")
        defer { scratch.remove() }
        let (server, _, _) = try Self.tlsServer(Echo(), scratch: scratch)
        defer { server.stop() }
        let old = Self.run("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"], input: "")
        #expect(old.status != 0, "\(old.output.suffix(300))")
        let current = Self.run("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-tls1_2"], input: "")
        #expect(current.status == 0 && current.output.contains("TLSv1.2"), "\(current.output.suffix(300))")
    }

    @Test func oversizedHeadersAre431() throws {
        let echo = Echo()
        let server = try Self.plainServer(echo)
        defer { server.stop() }
        let reply = Self.exchange(server.port, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n")
        #expect(reply.hasPrefix("HTTP/1.1 431"), "\(reply.prefix(80))")
        #expect(echo.calls == 0)
        // A big cookie is still a request: 7 kB of headers fit.
        let big = Self.exchange(server.port, "GET / HTTP/1.1\r\nHost: x\r\nCookie: \(String(repeating: "c", count: 7_000))\r\n\r\n")
        #expect(big.hasPrefix("HTTP/1.1 200"), "\(big.prefix(80))")
    }

    @Test func oversizedBodiesAre413AndNeverReachTheHandler() throws {
        let echo = Echo()
        let server = try Self.plainServer(echo)
        defer { server.stop() }
        let declared = Self.exchange(server.port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{")
        #expect(declared.hasPrefix("HTTP/1.1 413"), "\(declared.prefix(80))")
        let chunk = "2000\r\n" + String(repeating: " ", count: 0x2000) + "\r\n"
        let chunked = Self.exchange(server.port, "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                                        + String(repeating: chunk, count: 9) + "0\r\n\r\n")
        #expect(chunked.hasPrefix("HTTP/1.1 413"), "\(chunked.prefix(80))")
        #expect(echo.calls == 0)
        let small = Self.exchange(server.port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok")
        #expect(small.hasPrefix("HTTP/1.1 200") && echo.calls == 1)
    }

    @Test func aNULOrBadEscapeInThePathIs400() throws {
        let echo = Echo()
        let server = try Self.plainServer(echo)
        defer { server.stop() }
        for path in ["/assets/console.js%00.png", "/a%zz", "/%C3%28", "/x?q=%00"] {
            let reply = Self.exchange(server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(reply.hasPrefix("HTTP/1.1 400"), "\(path): \(reply.prefix(60))")
        }
        #expect(echo.calls == 0)
        #expect(PercentDecoding.decode("/a%2Fb+c", plusIsSpace: false) == "/a/b+c")
        #expect(PercentDecoding.decode("a+b", plusIsSpace: true) == "a b")
    }

    @Test func aStreamArrivesAsItIsProducedAndIsClosedAtTheEnd() throws {
        let pieces = Pieces(["data: 1\n\n", "data: 2\n\n", "data: 3\n\n"])
        let server = try Self.plainServer(Streamer(stream: pieces))
        defer { server.stop() }
        let reply = Self.run("/usr/bin/curl", ["--silent", "--no-buffer", "http://127.0.0.1:\(server.port)/events"])
        #expect(reply.output == "data: 1\n\ndata: 2\n\ndata: 3\n\n")
        #expect(pieces.isClosed)
    }

    @Test func stoppingEndsAStreamThatNeverEnds() throws {
        let pieces = Pieces(["data: hello\n\n"], forever: true)
        let server = try Self.plainServer(Streamer(stream: pieces))
        let descriptor = try #require(Self.connect(server.port))
        defer { close(descriptor) }
        let request = "GET /events HTTP/1.1\r\nHost: x\r\n\r\n"
        _ = request.utf8CString.withUnsafeBufferPointer { send(descriptor, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        #expect(recv(descriptor, &buffer, buffer.count, 0) > 0)
        server.stop()
        #expect(pieces.isClosed)
    }

    @Test func anIdleConnectionIsClosedByTheServer() throws {
        let server = try Self.plainServer(Echo()) { $0.idleTimeoutSeconds = 1 }
        defer { server.stop() }
        let descriptor = try #require(Self.connect(server.port))
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 16)
        // Nothing sent: the server hangs up (0) rather than the 20 s receive timeout expiring (-1).
        #expect(recv(descriptor, &buffer, buffer.count, 0) == 0)
    }

    @Test func oneAddressCannotTakeEveryConnection() throws {
        let server = try Self.plainServer(Echo()) {
            $0.maxConnections = 32
            $0.maxConnectionsPerAddress = 4
        }
        defer { server.stop() }
        var idle: [Int32] = []
        defer { idle.forEach { close($0) } }
        for _ in 0..<200 {
            if let descriptor = Self.connect(server.port) { idle.append(descriptor) }
        }
        let reply = Self.exchange(server.port, "GET /other HTTP/1.1\r\nHost: x\r\n\r\n", from: "127.0.0.2")
        #expect(reply.hasPrefix("HTTP/1.1 200") && reply.contains("from 127.0.0.2"), "\(reply.prefix(80))")
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
        #expect(threads < 200, "threads: \(threads)")
    }
}
