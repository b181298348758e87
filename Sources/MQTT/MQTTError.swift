import CMosquitto
import Glibc

// Errors name the call, libmosquitto's own words for the failure and, where one is known, the
// fix: the broker side of a door lock is set up by someone reading the journal on a Pi.

/// What went wrong talking to the MQTT broker.
public enum MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A libmosquitto call returned a `MOSQ_ERR_*` code; `text` is `mosquitto_strerror`'s
    /// (for `MOSQ_ERR_ERRNO`, the errno's text, read at once before anything can change it).
    case call(String, code: Int32, text: String)
    /// The broker answered CONNECT with a refusal (the CONNACK return code and
    /// `mosquitto_connack_string`'s text).
    case refused(broker: String, code: Int32, text: String)
    /// The connection to the broker went away without our DISCONNECT (`on_disconnect` reason).
    case connectionLost(broker: String, code: Int32, text: String)
    /// A value libmosquitto would refuse, caught before the call (an empty client id, a QoS
    /// other than 0, 1, 2).
    case invalidArgument(String)

    /// `MOSQ_ERR_NO_CONN`: there is no connection right now (publishing while reconnecting).
    public var isNotConnected: Bool {
        if case let .call(_, code, _) = self { return code == MOSQ_ERR_NO_CONN.rawValue }
        return false
    }

    public var description: String {
        switch self {
        case let .call(operation, code, text):
            return "\(operation) failed: \(text) (MOSQ_ERR \(code))"
        case let .refused(broker, code, text):
            // MQTT 3.1.1 return codes 4 and 5: bad user name or password, not authorised.
            let fix = code == 4 || code == 5
                ? " Check the user name in mqtt.url and the password in mqtt.passwordFile against the "
                    + "broker's password_file (mosquitto_passwd) and its ACL."
                : ""
            return "The MQTT broker \(broker) refused the connection: \(text) (CONNACK \(code)).\(fix)"
        case let .connectionLost(broker, code, text):
            return "Lost the connection to the MQTT broker \(broker): \(text) (MOSQ_ERR \(code)); reconnecting."
        case let .invalidArgument(text):
            return "MQTT: \(text)"
        }
    }

    /// The `.call` error for a failed libmosquitto call.
    static func failed(_ operation: String, _ code: Int32) -> MQTTError {
        .call(operation, code: code, text: text(of: code))
    }

    /// `mosquitto_strerror`, which reads errno for `MOSQ_ERR_ERRNO`: call it right after the call.
    static func text(of code: Int32) -> String {
        // 2.0.11's mosquitto_strerror has no words for this one ("Unknown error.").
        if code == MOSQ_ERR_KEEPALIVE.rawValue {
            return "no answer from the broker within the keepalive (the network or the broker is gone)"
        }
        return mosquitto_strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
