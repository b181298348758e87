import CMicroHTTPD
import Foundation

/// A handler's response turned into libmicrohttpd's (a copied buffer, or a content reader for a
/// stream) with the server's security headers, and queued (MHD_queue_response).
enum ResponseSending {
    static func queue(_ response: HTTPResponse, on connection: OpaquePointer, core: HTTPServer.Core) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .stream(let stream):
            let reader = Unmanaged.passRetained(StreamReader(stream: stream, core: core))
            made = MHD_create_response_from_callback(UInt64.max, 4096, readStream, reader.toOpaque(), freeStream)
            if made == nil { reader.release() }
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        var headers = response.headers
        let has = { (name: String) in headers.contains { $0.name.lowercased() == name } }
        if !has("cache-control") { headers.append(("Cache-Control", "no-store")) }
        headers += [("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
                    ("Cross-Origin-Opener-Policy", "same-origin"), ("Cross-Origin-Resource-Policy", "same-origin")]
        if core.configuration.tls != nil { headers.append(("Strict-Transport-Security", "max-age=31536000")) }
        for (name, value) in headers {
            // A line break in a header would start another header: such a value is left out.
            guard !name.contains(where: { $0 == "\r" || $0 == "\n" }), !value.contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
            _ = MHD_add_response_header(made, name, value)
        }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }
}

/// A `.stream` body as libmicrohttpd pulls it: on the connection's own thread, waiting on the
/// stream a second at a time (a thread-per-connection server may not be answered 0 bytes) and
/// giving up when the server stops.
final class StreamReader: @unchecked Sendable {
    let stream: any HTTPBodyStream
    let core: HTTPServer.Core
    // Touched only on the connection's thread.
    var pending: [UInt8] = []

    init(stream: any HTTPBodyStream, core: HTTPServer.Core) {
        self.stream = stream
        self.core = core
    }

    func fill(_ buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        while pending.isEmpty {
            if core.stopping { return MHD_CONTENT_READER_END_WITH_ERROR }
            guard let next = stream.next(deadline: .now + .seconds(1)) else { return MHD_CONTENT_READER_END_OF_STREAM }
            pending = next
        }
        let count = min(max, pending.count)
        pending.withUnsafeBytes { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress!, byteCount: count)
        }
        pending.removeFirst(count)
        return count
    }
}

private let MHD_CONTENT_READER_END_OF_STREAM = -1
private let MHD_CONTENT_READER_END_WITH_ERROR = -2

private let readStream: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return MHD_CONTENT_READER_END_WITH_ERROR }
    return Unmanaged<StreamReader>.fromOpaque(cls).takeUnretainedValue().fill(buffer, max: max)
}

private let freeStream: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let reader = Unmanaged<StreamReader>.fromOpaque(cls)
    reader.takeUnretainedValue().stream.close()
    reader.release()
}
