import DoorLock
import Foundation
import Glibc
import MQTT
import MQTTTestSupport
import Testing

/// Issue 12's faults, on the whole lock against a real mosquitto: a broker down at start, a
/// broker restarted, and a network cut (a TCP relay that goes silent, so only the keepalive can
/// notice). In each the lock keeps deciding locally, reconnects, and publishes the current
/// state and the decisions made meanwhile (bounded, oldest dropped and counted).
@Suite(.serialized)
struct HomeAssistantFaultTests {
    static let users = ["fpmod": "door-secret", "homeassistant": "ha-secret"]
    static let match: Set<String> = ["match", "no-match", "retry-scan", "misplaced"]
    /// The README's bound: "the decisions made meanwhile (the last 100)".
    static let queueLimit = 100

    /// Short keepalive and reconnect delays, so a cut is noticed in seconds (5 s is the
    /// shortest keepalive libmosquitto takes).
    static func fastTiming(_ options: inout LockService.Options) {
        options.mqttTiming.keepAliveSeconds = 5
        options.mqttTiming.reconnectInitial = .milliseconds(100)
        options.mqttTiming.reconnectMaximum = .milliseconds(500)
    }

    static func config(port: Int, passwordFile: String) -> String {
        """
        {"policy": {"relayPulseSeconds": 0.2},
         "mqtt": {"url": "mqtt://fpmod@127.0.0.1:\(port)", "passwordFile": "\(passwordFile)",
                  "deviceId": "front-door", "remoteUnlock": "user-pin"}}
        """
    }

    static func passwordFile() throws -> (directory: String, path: String) {
        let directory = try makeTemporaryDirectory(prefix: "fpmod-ha-fault")
        let path = directory + "/mqtt.password"
        try "door-secret\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o600) == 0)
        return (directory, path)
    }

    /// What the bridge sends for these events: public decisions of the event entity's types.
    static func forHomeAssistant(_ events: ArraySlice<LockEvent>) -> [LockEvent] {
        events.filter { $0.isPublic && $0.name != "duress" && HomeAssistantDiscovery.eventTypes.contains($0.name) }
    }

    @Test func aBrokerDownAtStartLeavesTheLockWorkingThenGetsTheStateWhenItComesUp() throws {
        let broker = try TestBroker(users: Self.users)  // not started yet
        let secret = try Self.passwordFile()
        defer { try? FileManager.default.removeItem(atPath: secret.directory) }
        let lock = try LockHarness(configJSON: Self.config(port: broker.port, passwordFile: secret.path),
                                   configureOptions: Self.fastTiming)
        try waitUntil("a failed connect is logged") { lock.logLines.all.contains { $0.hasPrefix("mqtt: ") } }

        // Locally nothing is missing.
        let match = try lock.scan("alice-index", expecting: Self.match)
        #expect(match.name == "match")
        try waitUntil("the relay pulses") { lock.relayChanges.contains(true) }

        try broker.start()
        let ha = try MQTTObserver(broker, user: "homeassistant", password: "ha-secret",
                                  filters: ["fpmod/front-door/#", "homeassistant/device/#"])
        #expect(ha.pump { ha.last("fpmod/front-door/availability") == "online" }, "broker log:\n\(broker.log)")
        #expect(ha.pump { ha.last("fpmod/front-door/lock/state") == "LOCKED" })
        #expect(ha.pump { ha.last("homeassistant/device/front-door/config")?.contains(#""p":"lock""#) == true })
        // The decision made while the broker was down arrives, after the state.
        #expect(ha.pump { ha.contains("fpmod/front-door/event") { $0.contains(#""event_type":"match""#) } })
        #expect(ha.pump { ha.last("fpmod/front-door/state")?.contains(#""module":"ON""#) == true })
    }

    @Test func aRestartedBrokerGetsDiscoveryStateAndTheDecisionsMadeWhileItWasDown() throws {
        let broker = try TestBroker(users: Self.users)
        try broker.start()
        let secret = try Self.passwordFile()
        defer { try? FileManager.default.removeItem(atPath: secret.directory) }
        // The lock reaches the broker through a relay, so that after the restart it can be held
        // back until Home Assistant has subscribed again: the queued decision is not retained,
        // and a subscriber that comes back after it was sent would never see it.
        let relay = try TCPRelay(to: broker.port)
        let lock = try LockHarness(configJSON: Self.config(port: relay.port, passwordFile: secret.path),
                                   configureOptions: Self.fastTiming)
        let ha = try MQTTObserver(broker, user: "homeassistant", password: "ha-secret",
                                  filters: ["fpmod/front-door/#", "homeassistant/device/#"])
        #expect(ha.pump { ha.last("fpmod/front-door/lock/state") == "LOCKED" }, "broker log:\n\(broker.log)")

        broker.stop()
        relay.cut()
        try waitUntil("the bridge notices", timeout: .seconds(20)) {
            lock.logLines.contains("Lost the connection to the MQTT broker")
        }
        let match = try lock.scan("alice-index", expecting: Self.match)
        #expect(match.name == "match")
        try waitUntil("the relay pulses") { lock.relayChanges.contains(true) }

        // The broker comes back empty (no persistence): everything it holds now is fpmod's
        // republishing, not an old retained copy. Home Assistant is back (a retained marker of
        // its own comes back to it) before the lock may reconnect.
        try broker.start()
        let back = try MQTTObserver(broker, user: "homeassistant", password: "ha-secret",
                                    filters: ["fpmod/front-door/#", "homeassistant/device/#", "test/ha-back"])
        var marked = false
        #expect(back.pump {
            // Publishing is refused until the observer's connection is up.
            if !marked { marked = (try? back.client.publish(MQTTMessage(topic: "test/ha-back", text: "yes", qos: 1, retained: true))) != nil }
            return back.last("test/ha-back") == "yes"
        }, "broker log:\n\(broker.log)")
        relay.restore()
        #expect(back.pump { back.messages.contains { $0.topic == "fpmod/front-door/availability" && $0.text == "online" } },
                "broker log:\n\(broker.log)")
        #expect(back.pump { back.messages.contains { $0.topic == "homeassistant/device/front-door/config" } })
        #expect(back.pump { back.messages.contains { $0.topic == "fpmod/front-door/lock/state" && $0.text == "LOCKED" } })
        #expect(back.pump {
            back.messages.contains { $0.topic == "fpmod/front-door/event" && $0.text.contains(#""event_type":"match""#) }
        })
        #expect(try subscribeOnce(broker, user: "homeassistant", password: "ha-secret", topic: "fpmod/front-door/lock/state")
            == "1|fpmod/front-door/lock/state|LOCKED")
    }

    @Test func aNetworkCutIsNoticedByTheKeepaliveAndTheDecisionsMeanwhileAreBoundedAndNeverCommands() throws {
        let broker = try TestBroker(users: Self.users)
        try broker.start()
        let relay = try TCPRelay(to: broker.port)
        let secret = try Self.passwordFile()
        defer { try? FileManager.default.removeItem(atPath: secret.directory) }
        // The lock reaches the broker only through the relay; Home Assistant directly.
        let lock = try LockHarness(configJSON: Self.config(port: relay.port, passwordFile: secret.path),
                                   configureOptions: Self.fastTiming)
        let ha = try MQTTObserver(broker, user: "homeassistant", password: "ha-secret", filters: ["fpmod/front-door/#"])
        #expect(ha.pump { ha.last("fpmod/front-door/lock/state") == "LOCKED" }, "broker log:\n\(broker.log)")
        #expect(ha.last("fpmod/front-door/availability") == "online")

        relay.cut()
        // Silence, not a closed socket: the lock's keepalive notices, and the broker's (1.5
        // keepalives without a packet) publishes the will.
        try waitUntil("the bridge notices the cut", timeout: .seconds(20)) {
            lock.logLines.contains("Lost the connection")
        }
        let lost = lock.logLines.all.first { $0.contains("Lost the connection") } ?? ""
        // libmosquitto 2.0.11 reports the keepalive; 2.0.21 (Debian 13) only a lost connection.
        #expect(lost.lowercased().contains("keepalive") || lost.lowercased().contains("connection was lost"), "\(lost)")
        let away = lock.events.count
        #expect(ha.pump { ha.last("fpmod/front-door/availability") == "offline" }, "broker log:\n\(broker.log)")

        // While away: a remote UNLOCK with alice's right PIN (it must never reach the lock, now
        // or later), a match, then enough touches to overflow the queue.
        try ha.client.publish(MQTTMessage(topic: "fpmod/front-door/lock/set", text: #"{"action":"UNLOCK","code":"4826"}"#, qos: 1))
        ha.pump(within: .milliseconds(300)) { false }
        let match = try lock.scan("alice-index", expecting: Self.match)
        #expect(match.name == "match")
        for _ in 0..<120 {
            lock.setInput(LockHarness.touch, active: false)  // active-low: the line goes active
            lock.setInput(LockHarness.touch, active: true)
        }
        try waitUntil("every touch is decided") { lock.events(named: "touch").count >= 120 }
        // Let the last scans finish so nothing is decided after the count below.
        Thread.sleep(forTimeInterval: 0.5)
        let decided = Self.forHomeAssistant(lock.events[away...])
        #expect(decided.count > Self.queueLimit, "only \(decided.count) decisions while away")
        let unlocksBefore = lock.events(named: "unlocked").count
        let before = ha.messages.count

        relay.restore()
        #expect(ha.pump { ha.messages.dropFirst(before).contains { $0.topic == "fpmod/front-door/availability" && $0.text == "online" } },
                "broker log:\n\(broker.log)")
        #expect(ha.pump { ha.messages.dropFirst(before).contains { $0.topic == "fpmod/front-door/lock/state" } })
        let limit = Self.queueLimit
        #expect(ha.pump { ha.messages.dropFirst(before).filter { $0.topic == "fpmod/front-door/event" }.count >= limit })
        ha.pump(within: .milliseconds(500)) { false }
        let delivered = ha.messages.dropFirst(before).filter { $0.topic == "fpmod/front-door/event" }.map(\.text)
        // Exactly the newest `limit`, in order: the oldest were dropped.
        #expect(delivered.count == limit)
        let expectedLast = decided.suffix(limit).map(\.name)
        #expect(delivered.compactMap(Self.eventType) == expectedLast)
        // ... and counted.
        let dropped = decided.count - limit
        #expect(lock.logLines.contains("\(dropped) events decided while the broker was away were dropped"),
                "\(lock.logLines.all.filter { $0.hasPrefix("mqtt") })")
        // The UNLOCK published while the lock was away never arrives (clean session: the broker
        // keeps no commands for it).
        ha.pump(within: .seconds(1)) { false }
        #expect(lock.events(named: "unlocked").count == unlocksBefore)
        #expect(!lock.events.contains { $0.name == "pin-wrong" || $0.name == "pin-ok" })
        #expect(relay.acceptedConnections >= 2)
    }

    static func eventType(_ text: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return nil }
        return object["event_type"] as? String
    }
}
