import CMicroHTTPD
import CMicroHTTPDShim
import Foundation
import Glibc

/// An HTTP(S) server over libmicrohttpd: a thread per connection (bounded by
/// `maxConnections`), each request read whole (bounded) and handed to the handler as a value,
/// its response sent whole or, for `.stream` bodies, as it is produced (Server-Sent Events).
/// Every response carries the security headers a browser needs from a console.
public final class HTTPServer: @unchecked Sendable {
    /// What libmicrohttpd's callbacks reach through their `cls` pointer.
    final class Core: @unchecked Sendable {
        let handler: any HTTPHandler
        let configuration: HTTPServerConfiguration
        let lock = NSLock()
        // Guarded by `lock`.
        private var stoppingFlag = false
        private var windowStart = ContinuousClock.now
        private var loggedInWindow = 0
        private var suppressed = 0

        init(handler: any HTTPHandler, configuration: HTTPServerConfiguration) {
            self.handler = handler
            self.configuration = configuration
        }

        /// libmicrohttpd's own messages (a port in use, a refused handshake, the connection limit),
        /// at most a few a minute: a scanner or a flood must not fill the journal.
        func log(_ message: String) {
            let line: String? = lock.withLock {
                if ContinuousClock.now - windowStart > .seconds(60) {
                    windowStart = .now
                    loggedInWindow = 0
                }
                guard loggedInWindow < 5 else {
                    suppressed += 1
                    return nil
                }
                loggedInWindow += 1
                defer { suppressed = 0 }
                return suppressed > 0 ? "\(message) (and \(suppressed) more messages before it, not shown)" : message
            }
            if let line { configuration.log(line) }
        }

        var stopping: Bool {
            get { lock.withLock { stoppingFlag } }
            set { lock.withLock { stoppingFlag = newValue } }
        }
    }

    private let lock = NSLock()
    // Guarded by `lock`.
    private var daemon: OpaquePointer?
    private let core: Unmanaged<Core>
    private let logger: UnsafeMutablePointer<fpmod_mhd_logger>
    /// The port bound (the configured one, or the one the kernel chose for 0).
    public let port: Int

    public init(configuration: HTTPServerConfiguration, handler: any HTTPHandler) throws(HTTPServerError) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: configuration.port).bigEndian)
        guard inet_pton(AF_INET, configuration.bindAddress, &address.sin_addr) == 1 else {
            throw HTTPServerError("'\(configuration.bindAddress)' is not an IPv4 address")
        }
        let core = Unmanaged.passRetained(Core(handler: handler, configuration: configuration))
        // Lives as long as the daemon: freed after MHD_stop_daemon.
        let logger = UnsafeMutablePointer<fpmod_mhd_logger>.allocate(capacity: 1)
        logger.initialize(to: fpmod_mhd_logger(callback: logMessage, cls: core.toOpaque()))
        var flags = MHD_USE_ERROR_LOG.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue
        if configuration.tls != nil { flags |= MHD_USE_TLS.rawValue }
        // The option array's strings and the address must live until MHD_start_daemon returns
        // (it copies what it keeps).
        let certificate = strdup(configuration.tls?.certificatePEM ?? "")
        let key = strdup(configuration.tls?.privateKeyPEM ?? "")
        let priorities = strdup("NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2")
        let trust = configuration.clientAuthorityPEM.map { strdup($0) } ?? nil
        defer { free(certificate); free(key); free(priorities); free(trust) }
        let started: OpaquePointer? = withUnsafeMutablePointer(to: &address) { addressPointer in
            var options: [MHD_OptionItem] = [
                // First, so that libmicrohttpd's messages about the other options come here too.
                MHD_OptionItem(option: .EXTERNAL_LOGGER, value: fpmod_mhd_logger_function(), ptr_value: UnsafeMutableRawPointer(logger)),
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(addressPointer)),
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.maxConnections, ptr_value: nil),
                MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: configuration.maxConnectionsPerAddress, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.idleTimeoutSeconds, ptr_value: nil),
                // The pool a connection reads its request line and headers into (half of it) and
                // builds the answer's headers in: twice the headers allowed; more is 431
                // (libmicrohttpd's own answer; measured: 7,500 bytes of headers pass, 8,000 do not).
                MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.maxHeaderBytes * 2, ptr_value: nil),
                MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(requestCompleted, to: Int.self),
                               ptr_value: core.toOpaque()),
                // Paths and query values arrive as sent: decoded here, where a %00 can be refused.
                MHD_OptionItem(option: .UNESCAPE_CALLBACK, value: unsafeBitCast(leaveEscaped, to: Int.self), ptr_value: nil),
            ]
            if configuration.tls != nil {
                options.append(MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(certificate)))
                options.append(MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(key)))
                options.append(MHD_OptionItem(option: .HTTPS_PRIORITIES, value: 0, ptr_value: UnsafeMutableRawPointer(priorities)))
                if let trust { options.append(MHD_OptionItem(option: .HTTPS_MEM_TRUST, value: 0, ptr_value: UnsafeMutableRawPointer(trust))) }
            }
            options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            return fpmod_mhd_start(flags, accessHandler, core.toOpaque(), options)
        }
        guard let started else {
            logger.deallocate()
            core.release()
            throw HTTPServerError("MHD_start_daemon failed for \(configuration.bindAddress):\(configuration.port) (the port is in use, "
                + "the address is not this machine's, or the certificate and key do not load)")
        }
        daemon = started
        self.core = core
        self.logger = logger
        let bound = Int(fpmod_mhd_bound_port(started))
        port = bound != 0 ? bound : configuration.port
    }

    /// Stops listening, ends every connection (streams see `close()`), and returns when the
    /// server's threads are gone. Safe more than once.
    public func stop() {
        let running: OpaquePointer? = lock.withLock {
            defer { daemon = nil }
            return daemon
        }
        guard let running else { return }
        core.takeUnretainedValue().stopping = true
        MHD_stop_daemon(running)
        logger.deallocate()
        core.release()
    }

    deinit { stop() }
}

/// The text of one of libmicrohttpd's messages (formatted by the shim), throttled by the core.
private let logMessage: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { cls, message in
    guard let cls, let message else { return }
    Unmanaged<HTTPServer.Core>.fromOpaque(cls).takeUnretainedValue().log(String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines))
}

/// MHD_OPTION_UNESCAPE_CALLBACK: keeps the text as it came; `PercentDecoding` decodes it.
private let leaveEscaped: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = { _, _, text in
    guard let text else { return 0 }
    return strlen(text)
}

/// MHD_OPTION_NOTIFY_COMPLETED: the connection's request state is released.
private let requestCompleted: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                                              MHD_RequestTerminationCode) -> Void = { _, _, state, _ in
    guard let state, let pointer = state.pointee else { return }
    Unmanaged<RequestState>.fromOpaque(pointer).release()
    state.pointee = nil
}

/// The MHD_AccessHandlerCallback: called first with the headers, then with each piece of the
/// body, then once more when the body is complete.
private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, stateSlot in
    guard let cls, let connection, let url, let method, let stateSlot else { return .NO }
    let core = Unmanaged<HTTPServer.Core>.fromOpaque(cls).takeUnretainedValue()
    let limits = core.configuration
    guard let pointer = stateSlot.pointee else {
        let state = RequestState()
        stateSlot.pointee = Unmanaged.passRetained(state).toOpaque()
        if let length = RequestReading.header(connection, "content-length") {
            guard let declared = Int(length), declared >= 0 else {
                return state.refuse(connection, 400, "The Content-Length header is not a number.", core: core)
            }
            if declared > limits.maxBodyBytes {
                return state.refuse(connection, 413, "The body is over \(limits.maxBodyBytes) bytes.", core: core)
            }
        }
        return .YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
    if let uploadSize, uploadSize.pointee > 0 {
        let count = uploadSize.pointee
        uploadSize.pointee = 0
        // A body that takes too long is cut off: no answer can be sent mid-upload (libmicrohttpd
        // queues responses only once the body is in), so the connection is closed.
        if ContinuousClock.now - state.started > .seconds(limits.maxRequestSeconds) { return .NO }
        if state.answered || state.tooLarge { return .YES }
        if state.body.count + count > limits.maxBodyBytes {
            // Not kept: what still arrives is dropped as it comes, and the answer is 413.
            state.tooLarge = true
            state.body = []
            return .YES
        }
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
        }
        return .YES
    }
    if state.tooLarge { return state.refuse(connection, 413, "The body is over \(limits.maxBodyBytes) bytes.", core: core) }
    if state.answered { return .YES }
    state.answered = true
    let request: HTTPRequest
    switch RequestReading.request(connection, method: String(cString: method), rawPath: String(cString: url), body: state.body,
                                  secure: limits.tls != nil, clientCertificates: limits.tls != nil && limits.clientAuthorityPEM != nil) {
    case .success(let read): request = read
    case .failure(let refusal): return ResponseSending.queue(HTTPResponse.plain(400, refusal.message), on: connection, core: core)
    }
    return ResponseSending.queue(core.handler.respond(to: request), on: connection, core: core)
}

/// One request in progress: its body so far, and whether it has been answered.
final class RequestState: @unchecked Sendable {
    // Touched only on the connection's own thread.
    let started = ContinuousClock.now
    var body: [UInt8] = []
    var answered = false
    /// The body passed the limit: the rest is dropped, and the answer is 413.
    var tooLarge = false

    func refuse(_ connection: OpaquePointer, _ status: Int, _ message: String, core: HTTPServer.Core) -> MHD_Result {
        answered = true
        body = []
        var response = HTTPResponse.plain(status, message)
        response.headers.append(("Connection", "close"))
        return ResponseSending.queue(response, on: connection, core: core)
    }
}

extension HTTPResponse {
    static func plain(_ status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", text: message + "\n")
    }
}
