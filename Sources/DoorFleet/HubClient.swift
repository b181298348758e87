import CLibcurl
import Glibc
import JSONValue
import PrintableText

/// What a door trusts when it speaks to its hub.
public enum HubTrust: Sendable, Equatable {
    /// No check of the hub's certificate. Only to fetch the fleet's authority before joining,
    /// which is then trusted only once its fingerprint matched the one the hub printed.
    case unverified
    /// Only a certificate the fleet's authority (the PEM file at this path) issued, for the
    /// address's host; the system's certificate authorities are never consulted.
    case authority(path: String)
}

/// A door's own certificate and key (PEM files) for mutual TLS.
public struct HubIdentity: Sendable, Equatable {
    public var certificatePath: String
    public var keyPath: String

    public init(certificatePath: String, keyPath: String) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
    }
}

public struct HubResponse: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]

    /// A refusal in the hub's own words (its JSON `error`), bounded and escaped: it reaches a terminal.
    public var refusalMessage: String {
        let text = String(decoding: body.prefix(2_000), as: UTF8.self)
        return Printable.escaped((try? JSONValue(parsing: text))?["error"]?.stringValue ?? "no reason given")
    }
}

/// Why a request to the hub did not get an answer.
public enum HubClientError: Error, Equatable, CustomStringConvertible {
    /// libcurl's own error (could not connect, TLS refused, timed out), with its words.
    case transfer(code: Int, message: String)
    /// The answer was longer than the request allows (a hub does not send that much).
    case tooLarge(limit: Int)
    case setup(String)
    /// `shouldStop` said so.
    case stopped

    public var description: String {
        switch self {
        case .transfer(_, let message): message
        case .tooLarge(let limit): "the hub's answer was longer than \(limit) bytes"
        case .setup(let what): "libcurl could not be set up: \(what)"
        case .stopped: "stopped"
        }
    }
}

/// A door's HTTPS client of its hub, through Debian's libcurl (GnuTLS flavour): one easy handle,
/// so consecutive requests reuse the connection. Only `https`, no redirects, deadlines on
/// connecting and on the whole request, answers bounded in size. Not for sharing between
/// threads: each thread that talks to the hub makes its own.
public final class HubClient {
    public let address: HubAddress
    private let trust: HubTrust
    private let identity: HubIdentity?
    private let handle: UnsafeMutableRawPointer
    /// Asked about once a second while a request is under way (a long poll waits up to 30 s);
    /// true ends it at once with `.stopped`, so a service stops without waiting for the hub.
    public var shouldStop: (@Sendable () -> Bool)?
    /// The answers' bytes so far (bodies, not headers or TLS), for the fleet's benchmark.
    public private(set) var bytesReceived = 0

    /// `curl_global_init` once per process, before the first handle (it is not thread-safe).
    private static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    public init(address: HubAddress, trust: HubTrust, identity: HubIdentity? = nil) throws(HubClientError) {
        guard Self.initialised else { throw .setup("curl_global_init failed") }
        guard let handle = curl_easy_init() else { throw .setup("curl_easy_init failed") }
        self.address = address
        self.trust = trust
        self.identity = identity
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }

    /// `method` `path` (e.g. "GET", "/v1/changes?since=4"), with `body` as JSON when given.
    /// Any HTTP status is an answer; only a transfer that failed throws.
    public func send(_ method: String, _ path: String, json body: [UInt8]? = nil,
                     timeout: Duration = .seconds(30), maxBytes: Int = 16 << 20) throws(HubClientError) -> HubResponse {
        curl_easy_reset(handle)
        let sink = ResponseSink(limit: maxBytes, shouldStop: shouldStop)
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        // libcurl writes its own words about a failure here; freed only after it is told to stop.
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorText.deallocate() }
        let code: CURLcode
        do throws(HubClientError) {
            try configure(method, path, timeout: timeout)
            if let body {
                headers = curl_slist_append(headers, "Content-Type: application/json")
                // No "100 Continue" round trip before a body the hub bounds anyway.
                headers = curl_slist_append(headers, "Expect:")
                try check(fpmod_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers)), "CURLOPT_HTTPHEADER")
                try set(CURLOPT_POSTFIELDSIZE, body.count)
                // COPYPOSTFIELDS copies: the buffer need not outlive this call.
                let copied = body.withUnsafeBytes { bytes in
                    fpmod_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                }
                try check(copied, "CURLOPT_COPYPOSTFIELDS")
            }
            try check(fpmod_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorText), "CURLOPT_ERRORBUFFER")
            try check(fpmod_curl_setopt_write_function(handle, { data, size, count, context in
                let sink = Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue()
                return sink.take(data, size * count)
            }), "CURLOPT_WRITEFUNCTION")
            try check(fpmod_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque()), "CURLOPT_WRITEDATA")
            if shouldStop != nil {
                try set(CURLOPT_NOPROGRESS, 0)
                try check(fpmod_curl_setopt_progress_function(handle, { context, _, _, _, _ in
                    let sink = Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue()
                    return sink.shouldStop?() == true ? 1 : 0
                }), "CURLOPT_XFERINFOFUNCTION")
                try check(fpmod_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, Unmanaged.passUnretained(sink).toOpaque()), "CURLOPT_XFERINFODATA")
            }
            code = curl_easy_perform(handle)
        } catch {
            _ = fpmod_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil)
            throw error
        }
        // The buffer is freed on return: libcurl must not keep a pointer to it.
        _ = fpmod_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil)
        withExtendedLifetime(sink) {}
        guard code == CURLE_OK else {
            if sink.overflowed { throw .tooLarge(limit: maxBytes) }
            if code == CURLE_ABORTED_BY_CALLBACK { throw .stopped }
            let detail = String(cString: errorText)
            let words = String(cString: curl_easy_strerror(code))
            throw .transfer(code: Int(code.rawValue), message: detail.isEmpty ? words : "\(words): \(detail)")
        }
        var status = 0
        _ = fpmod_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        // What came over the wire (compressed, when the hub compressed it); the sink's bound is on the answer itself.
        var wire: curl_off_t = 0
        bytesReceived += fpmod_curl_getinfo_off_t(handle, CURLINFO_SIZE_DOWNLOAD_T, &wire) == CURLE_OK ? Int(wire) : sink.bytes.count
        return HubResponse(status: status, body: sink.bytes)
    }

    /// Every option but the body's, from a reset handle (nothing of the last request stays).
    private func configure(_ method: String, _ path: String, timeout: Duration) throws(HubClientError) {
        try set(CURLOPT_URL, string: address.description + path)
        try set(CURLOPT_PROTOCOLS_STR, string: "https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, string: "https")
        try set(CURLOPT_FOLLOWLOCATION, 0)
        // No signals from libcurl: the service's threads keep theirs.
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_CONNECTTIMEOUT_MS, 10_000)
        let milliseconds = timeout.components.seconds * 1_000 + timeout.components.attoseconds / 1_000_000_000_000_000
        try set(CURLOPT_TIMEOUT_MS, Int(max(1, milliseconds)))
        try set(CURLOPT_USERAGENT, string: "fpmod-door")
        // A hub's page of users compresses about tenfold; libcurl (with zlib) takes gzip and
        // hands the write callback the answer itself, so the answer's bound still holds.
        try set(CURLOPT_ACCEPT_ENCODING, string: "gzip")
        switch trust {
        case .unverified:
            try set(CURLOPT_SSL_VERIFYPEER, 0)
            try set(CURLOPT_SSL_VERIFYHOST, 0)
        case .authority(let path):
            try set(CURLOPT_CAINFO, string: path)
            try set(CURLOPT_CAPATH, string: nil)
            try set(CURLOPT_SSL_VERIFYPEER, 1)
            try set(CURLOPT_SSL_VERIFYHOST, 2)
        }
        if let identity {
            try set(CURLOPT_SSLCERTTYPE, string: "PEM")
            try set(CURLOPT_SSLCERT, string: identity.certificatePath)
            try set(CURLOPT_SSLKEY, string: identity.keyPath)
        }
        switch method {
        case "GET": try set(CURLOPT_HTTPGET, 1)
        case "POST": try set(CURLOPT_POST, 1)
        default: try set(CURLOPT_CUSTOMREQUEST, string: method)
        }
    }

    private func set(_ option: CURLoption, _ value: Int) throws(HubClientError) {
        try check(fpmod_curl_setopt_long(handle, option, value), "\(option)")
    }

    private func set(_ option: CURLoption, string value: String?) throws(HubClientError) {
        guard let value else {
            try check(fpmod_curl_setopt_string(handle, option, nil), "\(option)")
            return
        }
        // libcurl copies string options (since 7.17), so the C string need only last the call.
        try check(value.withCString { fpmod_curl_setopt_string(handle, option, $0) }, "\(option)")
    }

    private func check(_ code: CURLcode, _ what: String) throws(HubClientError) {
        guard code == CURLE_OK else { throw .setup("curl_easy_setopt(\(what)): \(String(cString: curl_easy_strerror(code)))") }
    }
}

/// Where libcurl's write callback puts the answer, refusing more than `limit` bytes; its
/// progress callback asks `shouldStop`.
private final class ResponseSink {
    let limit: Int
    let shouldStop: (@Sendable () -> Bool)?
    var bytes: [UInt8] = []
    var overflowed = false

    init(limit: Int, shouldStop: (@Sendable () -> Bool)?) {
        self.limit = limit
        self.shouldStop = shouldStop
    }

    func take(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard bytes.count + count <= limit else {
            overflowed = true
            return 0
        }
        if let data, count > 0 { bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count)) }
        return count
    }
}
