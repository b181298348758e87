import CMosquitto
import Glibc
import Posix

/// An MQTT connection through libmosquitto, driven by its owner's poll loop.
///
/// Why not `mosquitto_loop_start`: that runs the network in a thread of libmosquitto's own and
/// calls back from it, so every callback would have to hop to the service's loop thread through
/// a lock and a wake-up, and a publish could race a reconnect. The service is already one
/// thread around one `poll(2)`; the broker socket is one more descriptor in it:
/// `pollRequest` says what to wait for (`mosquitto_socket`, plus writable when
/// `mosquitto_want_write`), `service(_:)` runs `mosquitto_loop_read`/`_write`/`_misc` and any
/// reconnect that is due, and the callbacks run on that same thread, inside those calls.
/// Every socket operation is non-blocking (`mosquitto_connect_async`, then
/// `mosquitto_reconnect_async` with our own backoff, since libmosquitto's reconnect delays only
/// apply to its blocking and threaded loops). The one blocking step of those calls, resolving
/// the broker's host name, runs on a thread of its own (`ConnectAttempt`): while it does,
/// `pollRequest` is that attempt's wake-up descriptor, so a slow DNS server costs the loop
/// nothing.
///
/// Not Sendable: it belongs to the thread that polls it.
public final class MQTTClient {
    public enum Status: Sendable, Equatable {
        /// `start()` not called yet, or `stop()` called.
        case stopped
        /// The host name lookup (on its own thread), then the TCP (and TLS) connect and CONNECT,
        /// are under way.
        case connecting
        /// The broker accepted CONNECT.
        case connected
        /// The last attempt failed or the connection was lost; the next one is at `nextWake`.
        case waitingToReconnect
    }

    public let options: MQTTOptions
    public private(set) var status: Status = .stopped
    /// The most recent failure (refused login, lost connection, failed connect); kept after a
    /// later success so a status page can show what happened last.
    public private(set) var lastError: MQTTError?
    /// How many times the broker accepted a connection (1 after the first).
    public private(set) var connectionCount = 0

    /// Called on every accepted connection, after the subscriptions are renewed: the place to
    /// publish birth, discovery and current state.
    public var onConnect: (() -> Void)?
    /// Called when an attempt fails or an established connection is lost (not after `stop()`).
    public var onConnectionProblem: ((MQTTError) -> Void)?
    public var onMessage: ((MQTTMessage) -> Void)?

    private let handle: OpaquePointer
    private var subscriptions: [(filter: String, qos: Int32)] = []
    private var backoff: ReconnectBackoff
    private var reconnectAt: ContinuousClock.Instant?
    /// The connect or reconnect call running on its own thread; the handle is its alone until
    /// it reports back.
    private var attempt: ConnectAttempt?
    /// QoS 1 and 2 publishes the broker has not acknowledged yet (message ids), for `stop()`.
    private var unacknowledged: Set<Int32> = []

    /// libmosquitto's global state (its OpenSSL set-up), made once per process and never torn
    /// down: the service holds a client for its whole life. A static's initialiser runs exactly
    /// once even when clients are made on several threads (tests).
    private static let library: Int32 = mosquitto_lib_init()

    /// Creates the client (`mosquitto_new`) and applies the options (`mosquitto_username_pw_set`,
    /// `mosquitto_will_set`, `mosquitto_tls_set`). Nothing is sent until `start()`.
    public init(options: MQTTOptions) throws(MQTTError) {
        guard Self.library == MOSQ_ERR_SUCCESS.rawValue else { throw .failed("mosquitto_lib_init", Self.library) }
        guard !options.clientID.isEmpty else { throw .invalidArgument("the client id is empty") }
        guard (1...65535).contains(options.port) else { throw .invalidArgument("port \(options.port) is not 1-65535") }
        // libmosquitto refuses the connect itself otherwise, with no word on why.
        guard options.keepAliveSeconds == 0 || (5...65535).contains(options.keepAliveSeconds) else {
            throw .invalidArgument("a keepalive of \(options.keepAliveSeconds) s: use 0 (none) or 5 to 65535 seconds")
        }
        if let will = options.will, !(0...2).contains(will.qos) {
            throw .invalidArgument("the last will's QoS \(will.qos) is not 0, 1 or 2")
        }
        // Clean session: subscriptions are renewed on every connect, and the broker keeps no
        // queue of commands for us while we are away (a stale UNLOCK must never arrive late).
        guard let created = mosquitto_new(options.clientID, true, nil) else {
            throw .failed("mosquitto_new", errno == ENOMEM ? MOSQ_ERR_NOMEM.rawValue : MOSQ_ERR_INVAL.rawValue)
        }
        handle = created
        self.options = options
        backoff = ReconnectBackoff(initial: options.reconnectInitial, maximum: options.reconnectMaximum)
        do throws(MQTTError) {
            try configure()
        } catch {
            mosquitto_destroy(created)
            throw error
        }
        installCallbacks()
    }

    deinit {
        // A lookup still running keeps the handle: its thread destroys it when the lookup ends.
        if let attempt, !attempt.abandon() { return }
        // Closes the socket without DISCONNECT: the broker publishes the will, as it should
        // when the service goes away without `stop()`.
        mosquitto_destroy(handle)
    }

    private func configure() throws(MQTTError) {
        if let username = options.username {
            try check("mosquitto_username_pw_set", mosquitto_username_pw_set(handle, username, options.password))
        }
        if let will = options.will {
            let rc = will.payload.withUnsafeBytes { bytes in
                mosquitto_will_set(handle, will.topic, Int32(bytes.count), bytes.baseAddress, will.qos, will.retained)
            }
            try check("mosquitto_will_set", rc)
        }
        if let tls = options.tls {
            let capath = tls.cafile == nil ? MQTTTLS.systemCertificates : nil
            try check("mosquitto_tls_set", mosquitto_tls_set(handle, tls.cafile, capath, tls.certfile, tls.keyfile, nil))
        }
    }

    /// C callbacks cannot capture: each finds its client through libmosquitto's userdata
    /// pointer, set here (unretained: callbacks run only inside this object's own calls into
    /// libmosquitto, and `deinit` destroys the handle before the object is gone).
    private func installCallbacks() {
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_connect_callback_set(handle) { _, userdata, code in
            MQTTClient.owner(of: userdata)?.didConnect(code)
        }
        mosquitto_disconnect_callback_set(handle) { _, userdata, code in
            MQTTClient.owner(of: userdata)?.didDisconnect(code)
        }
        mosquitto_publish_callback_set(handle) { _, userdata, mid in
            MQTTClient.owner(of: userdata)?.unacknowledged.remove(mid)
        }
        mosquitto_message_callback_set(handle) { _, userdata, message in
            guard let client = MQTTClient.owner(of: userdata), let message else { return }
            client.didReceive(message.pointee)
        }
    }

    private static func owner(of userdata: UnsafeMutableRawPointer?) -> MQTTClient? {
        userdata.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: Connecting

    /// Starts connecting (`mosquitto_connect_async`). A broker that is down is not an error to
    /// the caller: the failure is reported through `onConnectionProblem` and `lastError`, and
    /// the client keeps trying with backoff, so the lock works the same with or without it.
    public func start() {
        guard status == .stopped else { return }
        status = .connecting
        beginAttempt(reconnect: false)
    }

    /// The connect call on its own thread (see `ConnectAttempt`); `service` takes its result.
    private func beginAttempt(reconnect: Bool) {
        do {
            attempt = try ConnectAttempt(handle: handle, reconnect: reconnect, host: options.host,
                                         port: Int32(options.port), keepAlive: Int32(options.keepAliveSeconds))
        } catch {
            attemptFailed(.call("connecting (eventfd for the connect thread)", code: MOSQ_ERR_ERRNO.rawValue, text: "\(error)"))
        }
    }

    /// Whether the attempt on its thread has returned; on success the socket is libmosquitto's
    /// again and the CONNECT is queued, on failure the next attempt is scheduled.
    private func takeAttemptResult() -> Bool {
        guard let attempt, let result = attempt.result else { return false }
        self.attempt = nil
        if case .failure(let error) = result { attemptFailed(error) }
        return true
    }

    /// Sends DISCONNECT (`mosquitto_disconnect`), so the broker does not publish the will, and
    /// stops reconnecting. It waits, at most `flushLimit` in all, for three things in turn: the
    /// broker's acknowledgements of the QoS 1 publishes still in flight, the DISCONNECT written,
    /// and the broker closing the connection. The one place this client blocks, at shutdown or
    /// reload, so the goodbye is not cut off by `deinit`.
    ///
    /// Why wait for the acknowledgements: mosquitto 2.0.11 (Debian 12) treats a PUBACK it can
    /// no longer write as "out of memory" and drops the client before reading on, so a socket
    /// closed right after a burst of publishes (a reload clearing the device's retained topics)
    /// loses every publish behind the first unanswered one, and the DISCONNECT: the broker then
    /// publishes the will. (eclipse/mosquitto#2627, and #3253, fixed upstream in 2.0.22.)
    public func stop(flushLimit: Duration = .seconds(1)) {
        let wasConnected = status == .connected
        status = .stopped
        reconnectAt = nil
        guard wasConnected else { return }
        let deadline = ContinuousClock.now + flushLimit
        drive(until: deadline) { unacknowledged.isEmpty }
        _ = mosquitto_disconnect(handle)
        drive(until: deadline) { mosquitto_socket(handle) < 0 }
    }

    /// Reads and writes the socket until `done` or `deadline`, for `stop()` only: callbacks
    /// that arrive meanwhile see `.stopped` and schedule nothing.
    private func drive(until deadline: ContinuousClock.Instant, _ done: () -> Bool) {
        while !done(), mosquitto_socket(handle) >= 0, ContinuousClock.now < deadline {
            let socket = FileDescriptor(rawValue: mosquitto_socket(handle))
            let wanted: PollEvents = mosquitto_want_write(handle) ? [.readable, .writable] : .readable
            guard let ready = try? poll(socket, wanted, deadline: deadline), !ready.isEmpty else { break }
            if ready.contains(.writable), mosquitto_loop_write(handle, 1) != MOSQ_ERR_SUCCESS.rawValue { break }
            if !ready.isDisjoint(with: [.readable, .error, .hangUp]), mosquitto_socket(handle) >= 0,
               mosquitto_loop_read(handle, 1) != MOSQ_ERR_SUCCESS.rawValue { break }
        }
    }

    private func reconnect() {
        reconnectAt = nil
        status = .connecting
        beginAttempt(reconnect: true)
    }

    private func attemptFailed(_ error: MQTTError) {
        guard status != .stopped else { return }
        lastError = error
        status = .waitingToReconnect
        reconnectAt = .now + backoff.next()
        onConnectionProblem?(error)
    }

    private func didConnect(_ code: Int32) {
        guard code == 0 else {
            // The broker closes the socket next; didDisconnect then schedules the retry, and
            // must not replace this clearer reason.
            let text = mosquitto_connack_string(code).map { String(cString: $0) } ?? "refused"
            refusal = .refused(broker: options.broker, code: code, text: text)
            return
        }
        status = .connected
        connectionCount += 1
        backoff.reset()
        // A clean session: nothing from an earlier connection is acknowledged now.
        unacknowledged.removeAll()
        for subscription in subscriptions {
            let rc = mosquitto_subscribe(handle, nil, subscription.filter, subscription.qos)
            if rc != MOSQ_ERR_SUCCESS.rawValue { lastError = .failed("mosquitto_subscribe \(subscription.filter)", rc) }
        }
        onConnect?()
    }

    private var refusal: MQTTError?

    private func didDisconnect(_ code: Int32) {
        guard status != .stopped else { return }
        let error = refusal ?? .connectionLost(broker: options.broker, code: code, text: MQTTError.text(of: code))
        refusal = nil
        attemptFailed(error)
    }

    // MARK: The poll loop's side

    /// The broker socket and the events to poll it for; nil while there is no socket.
    public var pollRequest: (FileDescriptor, PollEvents)? {
        if let attempt { return (attempt.wakeup.fileDescriptor, .readable) }
        let socket = mosquitto_socket(handle)
        guard socket >= 0 else { return nil }
        return (FileDescriptor(rawValue: socket), mosquitto_want_write(handle) ? [.readable, .writable] : .readable)
    }

    /// When `service` must run even if the socket stays quiet: the reconnect time, or a second
    /// from now while connected, since libmosquitto keeps its keepalive clock in whole seconds
    /// and exposes no deadline of its own.
    public var nextWake: ContinuousClock.Instant? {
        if attempt != nil { return nil }  // its wake-up descriptor is polled
        if let reconnectAt { return reconnectAt }
        return mosquitto_socket(handle) >= 0 ? .now + .seconds(1) : nil
    }

    /// Runs after each poll with the socket's `revents` (empty when it was not ready or not
    /// polled): `mosquitto_loop_read` when readable (or hung up), `mosquitto_loop_write` when
    /// writable or output is queued, `mosquitto_loop_misc` for keepalive, then a reconnect if
    /// one is due. Failures close the socket inside libmosquitto and arrive as `on_disconnect`.
    public func service(_ events: PollEvents = []) {
        var events = events
        if attempt != nil {
            // The events were the wake-up descriptor's, not the socket's.
            guard takeAttemptResult() else { return }
            events = []
            guard status == .connecting else { return }
        }
        var rc = MOSQ_ERR_SUCCESS.rawValue
        if mosquitto_socket(handle) >= 0, !events.isDisjoint(with: [.readable, .error, .hangUp, .invalid]) {
            rc = mosquitto_loop_read(handle, 1)
        }
        if mosquitto_socket(handle) >= 0, events.contains(.writable) || mosquitto_want_write(handle) {
            rc = mosquitto_loop_write(handle, 1)
        }
        if mosquitto_socket(handle) >= 0 {
            rc = mosquitto_loop_misc(handle)
        }
        // A failed TLS handshake closes the socket without on_disconnect (libmosquitto 2.0.11):
        // without this the client would wait for a connection that is already gone.
        if mosquitto_socket(handle) < 0, status == .connecting || status == .connected {
            let code = rc == MOSQ_ERR_SUCCESS.rawValue ? MOSQ_ERR_CONN_LOST.rawValue : rc
            didDisconnect(code)
        }
        if let reconnectAt, reconnectAt <= .now, status == .waitingToReconnect {
            reconnect()
        }
    }

    // MARK: Messages

    /// `mosquitto_publish`. While not connected this throws `MOSQ_ERR_NO_CONN`
    /// (`isNotConnected`): what to keep for later is the caller's decision, not the library's.
    public func publish(_ message: MQTTMessage) throws(MQTTError) {
        guard (0...2).contains(message.qos) else { throw .invalidArgument("QoS \(message.qos) is not 0, 1 or 2") }
        guard status == .connected else { throw .failed("mosquitto_publish \(message.topic)", MOSQ_ERR_NO_CONN.rawValue) }
        var mid: Int32 = 0
        let rc = message.payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, &mid, message.topic, Int32(bytes.count), bytes.baseAddress, message.qos, message.retained)
        }
        try check("mosquitto_publish \(message.topic)", rc)
        if message.qos > 0 { unacknowledged.insert(mid) }
    }

    /// `mosquitto_subscribe` now if connected, and again after every reconnect.
    public func subscribe(_ filter: String, qos: Int32 = 0) throws(MQTTError) {
        guard (0...2).contains(qos) else { throw .invalidArgument("QoS \(qos) is not 0, 1 or 2") }
        subscriptions.removeAll { $0.filter == filter }
        subscriptions.append((filter, qos))
        guard status == .connected else { return }
        try check("mosquitto_subscribe \(filter)", mosquitto_subscribe(handle, nil, filter, qos))
    }

    private func didReceive(_ message: mosquitto_message) {
        let topic = message.topic.map { String(cString: $0) } ?? ""
        let payload: [UInt8] = message.payload.map {
            Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen)))
        } ?? []
        onMessage?(MQTTMessage(topic: topic, payload: payload, qos: message.qos, retained: message.retain))
    }

    private func check(_ operation: String, _ rc: Int32) throws(MQTTError) {
        if rc != MOSQ_ERR_SUCCESS.rawValue { throw .failed(operation, rc) }
    }
}
