import DoorLock
import Foundation
import Glibc
import MQTT
import MQTTTestSupport
import Posix
import Testing

/// The whole lock (simulated module on a PTY, memory GPIO, real store) with its `mqtt` section
/// pointed at a real mosquitto, watched by a second MQTT client playing Home Assistant.
@Suite(.serialized)
struct HomeAssistantServiceTests {
    static func config(_ broker: TestBroker, passwordFile: String) -> String {
        """
        {"policy": {"relayPulseSeconds": 0.5},
         "mqtt": {"url": "mqtt://fpmod@127.0.0.1:\(broker.port)", "passwordFile": "\(passwordFile)",
                  "deviceId": "front-door", "remoteUnlock": "user-pin"}}
        """
    }

    @Test func discoveryStateAndEventsReachHomeAssistant() throws {
        let rig = try BrokerRig()
        defer { rig.remove() }
        let broker = rig.broker, passwordFile = rig.passwordFile

        let ha = try MQTTObserver(broker, user: "homeassistant", password: "ha-secret", filters: ["fpmod/front-door/#", "homeassistant/device/#"])
        #expect(ha.pump { ha.client.status == .connected })
        let lock = try LockHarness(configJSON: Self.config(broker, passwordFile: passwordFile))

        // Birth, discovery, then the state.
        #expect(ha.pump { ha.last("fpmod/front-door/lock/state") == "LOCKED" }, "broker log:\n\(broker.log)")
        #expect(ha.last("fpmod/front-door/availability") == "online")
        let discovery = try #require(ha.last("homeassistant/device/front-door/config"))
        #expect(discovery.contains(#""front-door_lock":{"code_format":"^[0-9]{4,12}$","command_template":"#))
        #expect(discovery.contains(#""command_topic":"fpmod/front-door/lock/set""#))
        #expect(discovery.contains(#""availability_topic":"fpmod/front-door/availability""#))
        #expect(ha.pump { ha.last("fpmod/front-door/state")?.contains(#""module":"ON""#) == true })
        #expect(ha.last("fpmod/front-door/state")?.contains(#""templates":1"#) == true)

        // An enrolled finger: unlocked by a***e, the access event, then locked again.
        let match = try lock.scan("alice-index", expecting: ["match", "no-match", "retry-scan", "misplaced"])
        #expect(match.name == "match")
        #expect(ha.pump { ha.contains("fpmod/front-door/lock/state") { $0 == "UNLOCKED" } })
        #expect(ha.pump { ha.last("fpmod/front-door/lock/attributes") == #"{"changed_by":"a***e"}"# })
        #expect(ha.pump { ha.contains("fpmod/front-door/event") { $0.contains(#""event_type":"match""#) } })
        let event = try #require(ha.messages.first { $0.topic == "fpmod/front-door/event" && $0.text.contains(#""event_type":"match""#) })
        #expect(event.text.contains(#""user":"a***e""#))
        #expect(!event.text.contains("alice"))
        #expect(ha.pump {
            ha.last("fpmod/front-door/lock/state") == "LOCKED" && ha.count("fpmod/front-door/lock/state") >= 3
        })

        // Home Assistant restarted: discovery again.
        let discoveries = ha.count("homeassistant/device/front-door/config")
        try ha.client.publish(MQTTMessage(topic: "homeassistant/status", text: "online", qos: 1))
        #expect(ha.pump { ha.count("homeassistant/device/front-door/config") > discoveries })

        // A clean stop says offline itself (the will is for crashes).
        lock.service.stop()
        #expect(ha.pump { ha.last("fpmod/front-door/availability") == "offline" })
    }

    @Test func aRemoteUnlockNeedsAUsersPINAndCountsWrongOnes() throws {
        let rig = try BrokerRig()
        defer { rig.remove() }
        let broker = rig.broker, passwordFile = rig.passwordFile
        let ha = try MQTTObserver(broker, user: "homeassistant", password: "ha-secret", filters: ["fpmod/front-door/#"])
        #expect(ha.pump { ha.client.status == .connected })
        let lock = try LockHarness(configJSON: Self.config(broker, passwordFile: passwordFile))
        #expect(ha.pump { ha.last("fpmod/front-door/lock/state") == "LOCKED" })
        func command(_ text: String) throws {
            try ha.client.publish(MQTTMessage(topic: "fpmod/front-door/lock/set", text: text, qos: 1))
        }

        // A wrong code: refused and counted, like a wrong PIN at the keypad.
        try command(#"{"action":"UNLOCK","code":"5678"}"#)
        #expect(ha.pump { ha.contains("fpmod/front-door/event") { $0.contains(#""event_type":"pin-wrong""#) } })
        #expect(lock.service.snapshot.policy.pinFailures.consecutive == 1)
        // No code, a malformed payload: ignored, not counted, nothing opens.
        try command(#"{"action":"UNLOCK","code":"None"}"#)
        try command("UNLOCK")
        #expect(!ha.contains("fpmod/front-door/lock/state") { $0 == "UNLOCKED" })
        // alice's PIN opens, and Home Assistant sees who.
        try command(#"{"action":"UNLOCK","code":"4826"}"#)
        #expect(ha.pump { ha.contains("fpmod/front-door/lock/state") { $0 == "UNLOCKED" } })
        #expect(ha.pump { ha.last("fpmod/front-door/lock/attributes") == #"{"changed_by":"a***e"}"# })
        #expect(lock.events(named: "unlocked").last?.fields["user"] == "alice")
        #expect(lock.service.snapshot.policy.pinFailures.consecutive == 0)
        #expect(lock.events(named: "pin-wrong").count == 1)
    }

    @Test func reloadingWithoutTheSectionRemovesTheDevice() throws {
        let rig = try BrokerRig()
        defer { rig.remove() }
        let broker = rig.broker, passwordFile = rig.passwordFile
        let ha = try MQTTObserver(broker, user: "homeassistant", password: "ha-secret",
                                  filters: ["fpmod/front-door/#", "homeassistant/device/#"])
        #expect(ha.pump { ha.client.status == .connected })
        let lock = try LockHarness(configJSON: Self.config(broker, passwordFile: passwordFile), configLoader: {
            try LockConfig.parse(Data(#"{"board": "gpio-vm", "policy": {"relayPulseSeconds": 0.5}}"#.utf8))
        })
        #expect(ha.pump { ha.last("fpmod/front-door/lock/state") == "LOCKED" })
        #expect(ha.last("homeassistant/device/front-door/config")?.isEmpty == false)

        lock.service.requestReload()
        try lock.waitForEvent(named: "config-reloaded")
        #expect(ha.pump { ha.last("homeassistant/device/front-door/config") == "" })
        // The retained state is cleared too; only the first topic is checked: Debian 12's
        // mosquitto 2.0.11 now and then drops a client ("out of memory") while it clears
        // several retained topics in a row, and then publishes the will.
        #expect(ha.pump { ha.last("fpmod/front-door/lock/state") == "" })
        // The lock itself goes on.
        let match = try lock.scan("alice-index", expecting: ["match", "no-match", "retry-scan", "misplaced"])
        #expect(match.name == "match")
    }

    @Test func decisionsMadeWhileTheBrokerRefusedTheLockArriveAfterItConnects() throws {
        // The broker knows the lock's user with another password at first: the lock is off the
        // broker while Home Assistant's observer is on it, so nothing sent later can be missed.
        let rig = try BrokerRig(lockPasswordOnBroker: "old-secret")
        defer { rig.remove() }
        let broker = rig.broker, passwordFile = rig.passwordFile
        let ha = try MQTTObserver(broker, user: "homeassistant", password: "ha-secret", filters: ["fpmod/front-door/#"])
        #expect(ha.pump { ha.client.status == .connected })
        let lock = try LockHarness(configJSON: Self.config(broker, passwordFile: passwordFile))
        let match = try lock.scan("alice-index", expecting: ["match", "no-match", "retry-scan", "misplaced"])
        #expect(match.name == "match")
        #expect(ha.last("fpmod/front-door/availability") == nil)

        try broker.setPassword(user: "fpmod", password: "door-secret")
        #expect(ha.pump { ha.last("fpmod/front-door/availability") == "online" }, "broker log:\n\(broker.log)")
        #expect(ha.pump { ha.contains("fpmod/front-door/event") { $0.contains(#""event_type":"match""#) && $0.contains(#""user":"a***e""#) } })
        // The current state came first, then the queued decisions.
        let firstState = try #require(ha.messages.firstIndex { $0.topic == "fpmod/front-door/lock/state" })
        let firstEvent = try #require(ha.messages.firstIndex { $0.topic == "fpmod/front-door/event" })
        #expect(firstState < firstEvent)
    }

    @Test func anExposedPasswordFileKeepsTheBridgeOffButTheLockWorks() throws {
        let rig = try BrokerRig(passwordFileMode: 0o644)
        defer { rig.remove() }
        let broker = rig.broker, passwordFile = rig.passwordFile

        let lock = try LockHarness(configJSON: Self.config(broker, passwordFile: passwordFile))
        let match = try lock.scan("alice-index", expecting: ["match", "no-match", "retry-scan", "misplaced"])
        #expect(match.name == "match")
        try waitUntil("the relay pulses") { lock.relayChanges.contains(true) }
        // The broker never saw the lock: its password was not used.
        #expect(!broker.log.contains("as fpmod-front-door"))
    }
}

/// A running mosquitto that knows the lock (user `fpmod`) and Home Assistant (`homeassistant`,
/// password `ha-secret`), and the lock's password file, `door-secret`, in a private directory.
final class BrokerRig {
    let broker: TestBroker
    let directory: String
    let passwordFile: String

    /// `lockPasswordOnBroker` other than the file's keeps the lock off the broker at first.
    init(lockPasswordOnBroker: String = "door-secret", passwordFileMode: mode_t = 0o600) throws {
        broker = try TestBroker(users: ["fpmod": lockPasswordOnBroker, "homeassistant": "ha-secret"])
        try broker.start()
        directory = try makeTemporaryDirectory(prefix: "fpmod-ha")
        passwordFile = directory + "/mqtt.password"
        try "door-secret\n".write(toFile: passwordFile, atomically: false, encoding: .utf8)
        #expect(chmod(passwordFile, passwordFileMode) == 0)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
