import Foundation
import Glibc
import MQTT
import MQTTTestSupport
import Testing

/// `stop()` right after a burst of QoS 1 publishes: what a reload that removes the `mqtt`
/// section does (empty retained payloads on every topic of the device, then goodbye). Debian 12's
/// mosquitto 2.0.11 drops a client whose socket closes before the broker has written its
/// PUBACKs, reporting "out of memory", and never reads the rest: later publishes and the
/// DISCONNECT are lost and the will fires (eclipse/mosquitto#2627). `stop()` therefore waits
/// for the acknowledgements and for the broker's close before the socket goes.
@Suite(.serialized)
struct MQTTStopTests {
    static let users = ["fpmod": "door-secret", "homeassistant": "ha-secret"]
    static let topics = (0..<12).map { "fpmod/burst/retained/\($0)" }

    @Test(arguments: 1...5)
    func aBurstOfRetainedClearsThenStopReachesTheBrokerWholeAndFiresNoWill(round: Int) throws {
        let broker = try TestBroker(users: Self.users)
        try broker.start()
        var options = broker.clientOptions(user: "fpmod", password: "door-secret", clientID: "t-burst-\(round)")
        options.will = MQTTMessage(topic: "fpmod/burst/availability", text: "offline", qos: 1, retained: true)
        let setter = try MQTTClient(options: options)
        setter.start()
        #expect(pump([setter]) { setter.status == .connected })
        for topic in Self.topics { try setter.publish(MQTTMessage(topic: topic, text: "state", qos: 1, retained: true)) }
        try setter.publish(MQTTMessage(topic: "fpmod/burst/availability", text: "online", qos: 1, retained: true))
        setter.stop()
        #expect(try subscribeOnce(broker, user: "homeassistant", password: "ha-secret", topic: Self.topics.last!)
            == "1|\(Self.topics.last!)|state")

        // The burst under test: every topic cleared, availability said, stop, the object gone.
        var clearer: MQTTClient? = try MQTTClient(options: options)
        clearer!.start()
        #expect(pump([clearer!]) { clearer!.status == .connected })
        for topic in Self.topics { try clearer!.publish(MQTTMessage(topic: topic, payload: [], qos: 1, retained: true)) }
        try clearer!.publish(MQTTMessage(topic: "fpmod/burst/availability", text: "removed", qos: 1, retained: true))
        clearer!.stop()
        clearer = nil

        // An independent subscriber: no retained topic left, and the goodbye, not the will.
        #expect(try subscribeOnce(broker, user: "homeassistant", password: "ha-secret", topic: "fpmod/burst/availability")
            == "1|fpmod/burst/availability|removed", "broker log:\n\(broker.log)")
        let left = try run("/usr/bin/mosquitto_sub", [
            "-h", "127.0.0.1", "-p", String(broker.port), "-u", "homeassistant", "-P", "ha-secret",
            "-t", "fpmod/burst/retained/#", "--retained-only", "-W", "2", "-F", "%t",
        ], allowTimeout: true)
        // Topic names, one a line (then mosquitto_sub's "Timed out").
        let retained = left.split(separator: "\n").filter { $0.hasPrefix("fpmod/") }
        #expect(retained.isEmpty, "still retained: \(retained)\nbroker log:\n\(broker.log)")
        #expect(!broker.log.contains("out of memory"), "broker log:\n\(broker.log)")
    }
}
