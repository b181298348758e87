import AccessPolicy
import JSONValue
import MQTT
import Posix

/// The service's face in Home Assistant: one more participant of the service loop (its broker
/// socket is polled with the others, see `MQTTClient`), publishing discovery, availability,
/// state and events. The lock never waits for it: a broker that is down or slow costs a log
/// line, not a decision.
///
/// Lock commands are handed to `onUnlockRequest` / `onLockRequest`, admin commands (with
/// `mqtt.adminCommands`) to `onAdminRequest`; the runtime puts them through the policy, codes
/// like a keypad PIN. A retained one (left on a command topic by a client that should not have
/// retained it) is ignored with a log line, since acting on it would open the door at every
/// restart.
final class HomeAssistantBridge {
    /// An `UNLOCK`/`OPEN` with its code.
    var onUnlockRequest: ((_ code: String) -> Void)?
    /// A `LOCK`: end the unlock window now.
    var onLockRequest: (() -> Void)?
    /// An admin command with its admin code (only subscribed with `mqtt.adminCommands`).
    var onAdminRequest: ((HomeAssistantAdminCommand) -> Void)?
    /// A door mode from the select entity (the policy takes only the ones that keep people out).
    var onDoorModeRequest: ((DoorMode) -> Void)?
    /// Larger command payloads are ignored: a code and an action fit in far less.
    static let commandLimit = 256
    let client: MQTTClient
    let topics: HomeAssistantTopics
    let settings: LockConfig.MQTT
    let device: HomeAssistantDevice
    /// `privacy.mqtt`; a reload may change it, and `changed_by` is sent again.
    var privacy: IdentityPrivacy { didSet { publishState() } }
    private let log: (String) -> Void
    /// The state to show, updated by the runtime after every loop turn.
    private(set) var status = HomeAssistantLockStatus()
    /// What the broker holds now (retained), so an unchanged state is not sent again.
    private var published: [String: String] = [:]
    private var deviceRemoved = false
    /// Events decided while the broker was away, sent after the state on reconnect: at most
    /// `queueLimit`, the oldest dropped first (and counted). Commands are never queued: a
    /// command is only ever taken from a live connection.
    private var queued: [String] = []
    private(set) var droppedEvents = 0
    static let queueLimit = 100
    /// Ignored messages are logged once per kind and interval, with a count (a flood of
    /// malformed commands must not become a flood of log lines).
    private var ignoredLog = LogThrottle()
    /// Home Assistant's `online` re-sends discovery at most once per `rediscoveryInterval`:
    /// a client repeating it a thousand times a second gets one discovery a second, not a
    /// thousand (each is a few kB out through the loop).
    static let rediscoveryInterval: Duration = .seconds(1)
    private var lastDiscovery: ContinuousClock.Instant?
    private var rediscoveryDue: ContinuousClock.Instant?

    init(settings: LockConfig.MQTT, password: String?, device: HomeAssistantDevice,
         privacy: IdentityPrivacy = .masked, timing: MQTTConnectionTiming = MQTTConnectionTiming(),
         log: @escaping (String) -> Void) throws(MQTTError) {
        self.settings = settings
        self.device = device
        self.privacy = privacy
        self.log = log
        topics = HomeAssistantTopics(discoveryPrefix: settings.discoveryPrefix, deviceID: settings.deviceID)
        var options = MQTTOptions(host: settings.host, port: settings.port, clientID: "fpmod-\(settings.deviceID)",
                                  username: settings.username, password: password)
        if settings.scheme == .mqtts {
            options.tls = MQTTTLS(cafile: settings.tls.cafile, certfile: settings.tls.certfile, keyfile: settings.tls.keyfile)
        }
        options.will = MQTTMessage(topic: topics.availability, text: "offline", qos: 1, retained: true)
        options.keepAliveSeconds = timing.keepAliveSeconds
        options.reconnectInitial = timing.reconnectInitial
        options.reconnectMaximum = timing.reconnectMaximum
        client = try MQTTClient(options: options)
        client.onConnect = { [unowned self] in connected() }
        client.onConnectionProblem = { [unowned self] in self.log("mqtt: \($0)") }
        client.onMessage = { [unowned self] in received($0) }
        try client.subscribe(topics.homeAssistantStatus, qos: 1)
        try client.subscribe(topics.lockCommand, qos: 1)
        if settings.adminCommands { try client.subscribe(topics.adminCommand, qos: 1) }
        try client.subscribe(topics.doorModeCommand, qos: 1)
    }

    /// What the audit log records as a remote request's origin: fpmod's own connection (its
    /// client id and broker), the one the command arrived on. MQTT does not tell a subscriber
    /// who published; the broker's ACLs decide who may write the command topics.
    var connectionName: String { "\(client.options.clientID) at \(client.options.broker)" }

    func start() { client.start() }

    /// Availability `offline` (retained) and DISCONNECT: a clean stop does not fire the will,
    /// so it says so itself.
    func stop() {
        send(MQTTMessage(topic: topics.availability, text: deviceRemoved ? "" : "offline", qos: 1, retained: true))
        client.stop()
    }

    /// Empty retained payloads: Home Assistant deletes the device, and the broker forgets the
    /// retained state, so nothing of this lock is left behind.
    func removeDevice() {
        log("mqtt: removing device \(settings.deviceID) from Home Assistant")
        deviceRemoved = true
        for topic in [topics.discovery, topics.lockState, topics.lockAttributes, topics.state] {
            send(MQTTMessage(topic: topic, payload: [], qos: 1, retained: true))
        }
    }

    var pollRequest: (FileDescriptor, PollEvents)? { client.pollRequest }
    var nextWake: ContinuousClock.Instant? { [client.nextWake, rediscoveryDue].compactMap { $0 }.min() }
    func service(_ events: PollEvents) {
        client.service(events)
        if let due = rediscoveryDue, due <= .now {
            rediscoveryDue = nil
            publishDiscovery()
        }
    }

    /// Birth, then discovery, then the current state: Home Assistant creates the entities
    /// before their first values arrive.
    private func connected() {
        log("mqtt: connected to \(client.options.broker) as \(client.options.clientID)")
        published.removeAll()
        send(MQTTMessage(topic: topics.availability, text: "online", qos: 1, retained: true))
        publishDiscovery()
    }

    private func publishDiscovery() {
        lastDiscovery = .now
        let payload = HomeAssistantDiscovery.payload(device: device, topics: topics, remoteUnlock: settings.remoteUnlock,
                                                     adminCommands: settings.adminCommands)
        send(MQTTMessage(topic: topics.discovery, text: payload.encoded, qos: 1, retained: true))
        published.removeAll()
        publishState()
        flushQueue()
    }

    private func flushQueue() {
        guard !queued.isEmpty || droppedEvents > 0 else { return }
        if droppedEvents > 0 {
            log("mqtt: \(droppedEvents) events decided while the broker was away were dropped (only the last \(Self.queueLimit) are kept)")
            droppedEvents = 0
        }
        let pending = queued
        queued.removeAll()
        for (index, text) in pending.enumerated() where !send(MQTTMessage(topic: topics.event, text: text, qos: 1)) {
            // Lost again mid-way: keep the rest for the next connection.
            queued = Array(pending[index...])
            return
        }
    }

    private func received(_ message: MQTTMessage) {
        switch message.topic {
        case topics.homeAssistantStatus:
            // Home Assistant restarted: it forgot everything that was not retained.
            guard message.text == "online" else { break }
            if let last = lastDiscovery, ContinuousClock.now < last + Self.rediscoveryInterval {
                rediscoveryDue = last + Self.rediscoveryInterval
            } else {
                publishDiscovery()
            }
        case topics.lockCommand, topics.adminCommand, topics.doorModeCommand:
            if message.retained {
                ignored("retained", "mqtt: ignoring a retained command on \(message.topic) (commands must not be retained; "
                    + "clear it with an empty retained message)")
            } else if message.topic == topics.lockCommand {
                command(message)
            } else if message.topic == topics.doorModeCommand {
                guard message.payload.count <= 32, let mode = DoorMode(rawValue: message.text) else {
                    return ignored("malformed-mode", "mqtt: ignoring a door mode that is none (\(message.payload.count) bytes) on \(message.topic)")
                }
                onDoorModeRequest?(mode)
            } else if settings.adminCommands {
                adminCommand(message)
            }
        default:
            break
        }
    }

    /// `{"action":"UNLOCK","code":"4826"}` (the discovery's command_template). `LOCK` needs no
    /// code: it ends an unlock window early, the direction a door fails to anyway.
    private func command(_ message: MQTTMessage) {
        guard message.payload.count <= Self.commandLimit,
              let command = HomeAssistantCommand(json: message.payload) else {
            return ignored("malformed", "mqtt: ignoring a malformed command on \(message.topic) (\(message.payload.count) bytes)")
        }
        switch command.action {
        case "LOCK":
            onLockRequest?()
        case "UNLOCK", "OPEN":
            guard settings.remoteUnlock != .off else {
                return log("mqtt: remote \(command.action) refused: mqtt.remoteUnlock is off")
            }
            guard let code = command.code, !code.isEmpty else {
                return log("mqtt: remote \(command.action) refused: no code (a user's PIN is required)")
            }
            onUnlockRequest?(code)
        default:
            ignored("unknown", "mqtt: ignoring an unknown command '\(command.action.prefix(20))' on \(message.topic)")
        }
    }

    /// See `HomeAssistantAdminCommand`; what is wrong with a payload is not echoed (it may
    /// hold a code), only its size.
    private func adminCommand(_ message: MQTTMessage) {
        guard let command = HomeAssistantAdminCommand(json: message.payload) else {
            return ignored("malformed-admin", "mqtt: ignoring a malformed admin command on \(message.topic) (\(message.payload.count) bytes; "
                + "expected {\"command\":\"enroll|delete|clear\",\"user\":…,\"finger\":…,\"code\":…} of at most "
                + "\(HomeAssistantAdminCommand.sizeLimit) bytes)")
        }
        onAdminRequest?(command)
    }

    private func ignored(_ kind: String, _ line: String) {
        let verdict = ignoredLog.admit(kind, at: .now)
        guard verdict.log else { return }
        log(verdict.suppressed == 0 ? line : line + " (and \(verdict.suppressed) more like it before this one)")
    }

    /// The new state; sent only where it changed. Called after every loop turn, so an unchanged
    /// state returns before encoding anything (under a flood of messages that is most turns).
    func update(_ new: HomeAssistantLockStatus) {
        guard new != status || unsentState else { return }
        status = new
        publishState()
    }

    private func publishState() {
        guard client.status == .connected else { return }
        unsentState = false
        publishIfChanged(topics.lockState, HomeAssistantState.lockState(status))
        publishIfChanged(topics.lockAttributes, HomeAssistantState.lockAttributes(status, privacy: privacy).encoded)
        publishIfChanged(topics.state, HomeAssistantState.state(status).encoded)
    }

    private func publishIfChanged(_ topic: String, _ text: String) {
        guard published[topic] != text else { return }
        if send(MQTTMessage(topic: topic, text: text, qos: 1, retained: true)) { published[topic] = text } else { unsentState = true }
    }

    /// A state publish failed while connected: the next turn tries again even if nothing changed.
    private var unsentState = false

    /// A decision for the event entity (nothing for duress or diagnostics). Not retained;
    /// queued (bounded) while the broker is away.
    func publish(_ event: LockEvent) {
        guard let payload = HomeAssistantState.event(event, privacy: privacy) else { return }
        let text = payload.encoded
        if client.status == .connected, queued.isEmpty, send(MQTTMessage(topic: topics.event, text: text, qos: 1)) { return }
        queued.append(text)
        if queued.count > Self.queueLimit {
            queued.removeFirst()
            droppedEvents += 1
        }
    }

    @discardableResult
    private func send(_ message: MQTTMessage) -> Bool {
        do {
            try client.publish(message)
            return true
        } catch {
            if !error.isNotConnected { log("mqtt: \(error)") }
            return false
        }
    }
}
