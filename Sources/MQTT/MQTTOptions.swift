/// Where and how to connect: one broker, one client id, optional TLS and last will.
public struct MQTTOptions: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// The MQTT client id; the broker drops an older connection with the same id.
    public var clientID: String
    public var username: String?
    public var password: String?
    /// Seconds between PINGREQs when idle; the broker cuts us off (and publishes the will) after
    /// 1.5 times this without a packet.
    public var keepAliveSeconds: Int = 30
    /// TLS for `mqtts://`; nil is plain TCP.
    public var tls: MQTTTLS?
    /// Published by the broker when the connection ends without a DISCONNECT.
    public var will: MQTTMessage?
    /// Reconnect delays: doubled after each failure, from `reconnectInitial` up to
    /// `reconnectMaximum`, back to the start after a connection is accepted.
    public var reconnectInitial: Duration = .seconds(1)
    public var reconnectMaximum: Duration = .seconds(60)

    public init(host: String, port: Int, clientID: String, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.clientID = clientID
        self.username = username
        self.password = password
    }

    /// "host:port", for messages.
    public var broker: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// The certificate files of an `mqtts://` connection. With no `cafile` the system's CA
/// directory (`/etc/ssl/certs`) vouches for the broker; its host name is always checked.
public struct MQTTTLS: Sendable, Equatable {
    public var cafile: String?
    /// A client certificate and its key, for brokers that require one (`require_certificate`).
    public var certfile: String?
    public var keyfile: String?

    public init(cafile: String? = nil, certfile: String? = nil, keyfile: String? = nil) {
        self.cafile = cafile
        self.certfile = certfile
        self.keyfile = keyfile
    }

    static let systemCertificates = "/etc/ssl/certs"
}

/// One MQTT message, as published or received.
public struct MQTTMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: Int32
    public var retained: Bool

    public init(topic: String, payload: [UInt8], qos: Int32 = 0, retained: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retained = retained
    }

    public init(topic: String, text: String, qos: Int32 = 0, retained: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retained: retained)
    }

    /// The payload as UTF-8 text (invalid bytes replaced).
    public var text: String { String(decoding: payload, as: UTF8.self) }
}
