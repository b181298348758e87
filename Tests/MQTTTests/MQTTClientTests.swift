import Foundation
import Glibc
import MQTT
import MQTTTestSupport
import Posix
import Testing

/// `MQTTClient` against a real mosquitto with authentication on: login, refusal, messages,
/// retained messages, the last will, and reconnecting to a broker that comes and goes.
@Suite struct MQTTClientTests {
    static let users = ["fpmod": "door-secret", "homeassistant": "ha-secret"]

    @Test func theRightPasswordConnects() throws {
        let broker = try TestBroker(users: Self.users)
        try broker.start()
        let client = try MQTTClient(options: broker.clientOptions(user: "fpmod", password: "door-secret", clientID: "t-right"))
        var connects = 0
        client.onConnect = { connects += 1 }
        client.start()
        #expect(pump([client]) { client.status == .connected }, "broker log:\n\(broker.log)")
        #expect(connects == 1)
        #expect(client.lastError == nil)
    }

    @Test func aWrongPasswordIsRefusedWithTheFix() throws {
        let broker = try TestBroker(users: Self.users)
        try broker.start()
        let client = try MQTTClient(options: broker.clientOptions(user: "fpmod", password: "wrong", clientID: "t-wrong"))
        let inbox = Inbox(client)
        client.start()
        #expect(pump([client]) { !inbox.problems.isEmpty })
        let error = try #require(inbox.problems.first)
        guard case let .refused(brokerName, code, _) = error else {
            Issue.record("expected a refusal, got \(error)")
            return
        }
        #expect(brokerName == "127.0.0.1:\(broker.port)")
        #expect(code == 5)  // MQTT 3.1.1 "not authorised": mosquitto's answer to a bad password
        #expect(error.description.contains("refused the connection"))
        #expect(error.description.contains("mqtt.passwordFile"))
        #expect(client.status != .connected)
        #expect(client.connectionCount == 0)
    }

    @Test func anAnonymousClientIsRefused() throws {
        let broker = try TestBroker(users: Self.users)
        try broker.start()
        let client = try MQTTClient(options: broker.clientOptions(user: nil, password: nil, clientID: "t-anon"))
        let inbox = Inbox(client)
        client.start()
        #expect(pump([client]) { !inbox.problems.isEmpty })
        guard case .refused? = inbox.problems.first else {
            Issue.record("expected a refusal, got \(inbox.problems)")
            return
        }
        #expect(client.connectionCount == 0)
    }

    @Test func aPublishedMessageReachesASubscriber() throws {
        let broker = try TestBroker(users: Self.users)
        try broker.start()
        let listener = try MQTTClient(options: broker.clientOptions(user: "homeassistant", password: "ha-secret", clientID: "t-ha"))
        let talker = try MQTTClient(options: broker.clientOptions(user: "fpmod", password: "door-secret", clientID: "t-door"))
        let inbox = Inbox(listener)
        var subscribed = false
        listener.onConnect = {
            // The SUBACK is not surfaced; a probe message from the listener itself says the
            // subscription is in place before the talker publishes.
            try? listener.publish(MQTTMessage(topic: "fpmod/test/probe", text: "probe"))
            subscribed = true
        }
        try listener.subscribe("fpmod/test/#", qos: 1)
        listener.start()
        talker.start()
        #expect(pump([listener, talker]) { subscribed && talker.status == .connected && !inbox.messages(on: "fpmod/test/probe").isEmpty })

        let payload: [UInt8] = Array("{\"event_type\":\"match\"}".utf8) + [0, 255]
        try talker.publish(MQTTMessage(topic: "fpmod/test/event", payload: payload, qos: 1))
        #expect(pump([listener, talker]) { !inbox.messages(on: "fpmod/test/event").isEmpty })
        let received = try #require(inbox.messages(on: "fpmod/test/event").first)
        #expect(received.payload == payload)
        #expect(received.qos == 1)
        #expect(!received.retained)
    }

    @Test func aRetainedMessageReachesALateSubscriber() throws {
        let broker = try TestBroker(users: Self.users)
        try broker.start()
        let talker = try MQTTClient(options: broker.clientOptions(user: "fpmod", password: "door-secret", clientID: "t-retain"))
        talker.start()
        #expect(pump([talker]) { talker.status == .connected })
        try talker.publish(MQTTMessage(topic: "fpmod/test/state", text: "LOCKED", qos: 1, retained: true))
        // QoS 1: the broker has it once the write queue is empty and the PUBACK is in; pump a
        // little so the packet leaves, then ask an independent client.
        pump([talker], within: .milliseconds(300)) { false }
        #expect(try subscribeOnce(broker, user: "homeassistant", password: "ha-secret", topic: "fpmod/test/state")
            == "1|fpmod/test/state|LOCKED")

        let late = try MQTTClient(options: broker.clientOptions(user: "homeassistant", password: "ha-secret", clientID: "t-late"))
        let inbox = Inbox(late)
        try late.subscribe("fpmod/test/state")
        late.start()
        #expect(pump([late, talker]) { !inbox.messages.isEmpty })
        #expect(inbox.messages.first == MQTTMessage(topic: "fpmod/test/state", text: "LOCKED", qos: 0, retained: true))
    }

    @Test func theLastWillIsPublishedWhenTheConnectionIsCut() throws {
        let broker = try TestBroker(users: Self.users)
        try broker.start()
        var options = broker.clientOptions(user: "fpmod", password: "door-secret", clientID: "t-will")
        options.will = MQTTMessage(topic: "fpmod/test/availability", text: "offline", qos: 1, retained: true)
        let door = try MQTTClient(options: options)
        let observer = try MQTTClient(options: broker.clientOptions(user: "homeassistant", password: "ha-secret", clientID: "t-obs"))
        let inbox = Inbox(observer)
        try observer.subscribe("fpmod/test/availability", qos: 1)
        door.onConnect = { try? door.publish(MQTTMessage(topic: "fpmod/test/availability", text: "online", qos: 1, retained: true)) }
        door.start()
        observer.start()
        #expect(pump([door, observer]) { inbox.messages.contains { $0.text == "online" } })

        // Cut the TCP connection under libmosquitto, as a crash or a pulled cable would: no
        // DISCONNECT is sent, so the broker must publish the will.
        let (socket, _) = try #require(door.pollRequest)
        #expect(shutdown(socket.rawValue, Int32(SHUT_RDWR)) == 0)
        #expect(pump([observer]) { inbox.messages.contains { $0.text == "offline" } }, "broker log:\n\(broker.log)")
        #expect(try subscribeOnce(broker, user: "homeassistant", password: "ha-secret", topic: "fpmod/test/availability")
            == "1|fpmod/test/availability|offline")
    }

    @Test func aCleanStopSendsNoWill() throws {
        let broker = try TestBroker(users: Self.users)
        try broker.start()
        var options = broker.clientOptions(user: "fpmod", password: "door-secret", clientID: "t-clean")
        options.will = MQTTMessage(topic: "fpmod/test/availability", text: "offline", qos: 1, retained: true)
        let door = try MQTTClient(options: options)
        door.onConnect = { try? door.publish(MQTTMessage(topic: "fpmod/test/availability", text: "online", qos: 1, retained: true)) }
        door.start()
        #expect(pump([door]) { door.status == .connected })
        pump([door], within: .milliseconds(300)) { false }
        door.stop()
        // The broker closes the socket once it has processed the DISCONNECT.
        #expect(pump([door]) { door.pollRequest == nil })
        #expect(try subscribeOnce(broker, user: "homeassistant", password: "ha-secret", topic: "fpmod/test/availability")
            == "1|fpmod/test/availability|online")
    }

    @Test func aBrokerDownAtStartIsReportedThenConnectedWhenItComesUp() throws {
        let broker = try TestBroker(users: Self.users)
        let client = try MQTTClient(options: broker.clientOptions(user: "fpmod", password: "door-secret", clientID: "t-late-broker"))
        let inbox = Inbox(client)
        client.start()
        #expect(pump([client]) { !inbox.problems.isEmpty })
        let problem = try #require(inbox.problems.first)
        #expect(problem.description.contains("Connection refused"), "\(problem)")
        #expect(client.status == .waitingToReconnect)
        // Several failed attempts, each reported, while the broker stays down.
        #expect(pump([client]) { inbox.problems.count >= 3 })
        #expect(client.connectionCount == 0)

        try broker.start()
        #expect(pump([client]) { client.status == .connected }, "broker log:\n\(broker.log)")
        #expect(client.connectionCount == 1)
    }

    @Test func aRestartedBrokerIsReconnectedAndTheSubscriptionsRenewed() throws {
        let broker = try TestBroker(users: Self.users)
        try broker.start()
        let client = try MQTTClient(options: broker.clientOptions(user: "homeassistant", password: "ha-secret", clientID: "t-restart"))
        let inbox = Inbox(client)
        try client.subscribe("fpmod/test/command")
        client.start()
        #expect(pump([client]) { client.status == .connected })

        broker.stop()
        #expect(pump([client]) { client.status != .connected })
        guard case .connectionLost? = inbox.problems.first else {
            Issue.record("expected a lost connection, got \(inbox.problems)")
            return
        }
        #expect(throws: MQTTError.self) { try client.publish(MQTTMessage(topic: "fpmod/test/x", text: "while down")) }

        try broker.start()
        #expect(pump([client]) { client.connectionCount == 2 && client.status == .connected })
        // The broker forgot everything (no persistence, clean session): only a renewed
        // subscription lets this arrive.
        let talker = try MQTTClient(options: broker.clientOptions(user: "fpmod", password: "door-secret", clientID: "t-talker"))
        talker.onConnect = { try? talker.publish(MQTTMessage(topic: "fpmod/test/command", text: "LOCK", qos: 1)) }
        talker.start()
        #expect(pump([client, talker]) { !inbox.messages(on: "fpmod/test/command").isEmpty })
    }
}

/// `mqtts://`: the TLS handshake runs inside the same non-blocking loop, and a broker whose
/// certificate the CA file does not vouch for is refused.
@Suite struct MQTTTLSTests {
    static let users = ["fpmod": "door-secret", "homeassistant": "ha-secret"]

    @Test func aBrokerVouchedForByTheCAFileConnectsAndCarriesMessages() throws {
        let broker = try TestBroker(users: Self.users, tls: true)
        try broker.start()
        var options = broker.clientOptions(user: "fpmod", password: "door-secret", clientID: "t-tls")
        options.tls = MQTTTLS(cafile: broker.caFile)
        let client = try MQTTClient(options: options)
        let inbox = Inbox(client)
        try client.subscribe("fpmod/test/tls")
        client.onConnect = { try? client.publish(MQTTMessage(topic: "fpmod/test/tls", text: "over TLS")) }
        client.start()
        #expect(pump([client]) { !inbox.messages.isEmpty }, "problems: \(inbox.problems)\nbroker log:\n\(broker.log)")
        #expect(inbox.messages.first?.text == "over TLS")
        #expect(inbox.problems.isEmpty)
    }

    @Test func aBrokerWithACertificateFromAnotherCAIsRefused() throws {
        let broker = try TestBroker(users: Self.users, tls: true)
        try broker.start()
        let other = broker.directory + "/other-ca"
        try TestBroker.makeCA(other)
        var options = broker.clientOptions(user: "fpmod", password: "door-secret", clientID: "t-tls-bad")
        options.tls = MQTTTLS(cafile: other + ".pem")
        let client = try MQTTClient(options: options)
        let inbox = Inbox(client)
        client.start()
        // On a loaded machine the first attempt can fail before TLS (a connect that timed out);
        // the client retries, and one of its problems must be the refused certificate.
        #expect(pump([client]) { inbox.problems.contains { $0.description.contains("TLS") } },
                "status \(client.status), problems \(inbox.problems), broker log:\n\(broker.log)")
        #expect(client.connectionCount == 0)
        #expect(client.status != .connected)
    }

    @Test func plainTCPToATLSListenerDoesNotConnect() throws {
        let broker = try TestBroker(users: Self.users, tls: true)
        try broker.start()
        let client = try MQTTClient(options: broker.clientOptions(user: "fpmod", password: "door-secret", clientID: "t-plain"))
        let inbox = Inbox(client)
        client.start()
        #expect(pump([client]) { !inbox.problems.isEmpty })
        #expect(client.connectionCount == 0)
    }
}
