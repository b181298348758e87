import DoorLock
import Foundation
import MQTT
import MQTTTestSupport
import Testing

/// What Home Assistant may ask of the lock over a real mosquitto: remote unlocks (audited,
/// refused during tamper), `LOCK`, the admin commands, and what names it gets to see; and
/// when it shows the lock `JAMMED`.
@Suite(.serialized)
struct HomeAssistantRemoteTests {
    static func config(_ broker: TestBroker, _ passwordFile: String, pulse: Double = 0.5, extra: String = "",
                       mqttExtra: String = "", policyExtra: String = "") -> String {
        """
        {"policy": {"relayPulseSeconds": \(pulse), "pinRequiredAfterEnrolledSetChange": false\(policyExtra)}\(extra),
         "mqtt": {"url": "mqtt://fpmod@127.0.0.1:\(broker.port)", "passwordFile": "\(passwordFile)",
                  "deviceId": "front-door", "remoteUnlock": "user-pin"\(mqttExtra)}}
        """
    }

    /// The broker, Home Assistant on it, and the lock connected.
    struct Rig {
        let rig: BrokerRig
        let ha: MQTTObserver
        let lock: LockHarness
        let logs: LogLines

        init(pulse: Double = 0.5, extra: String = "", mqttExtra: String = "", policyExtra: String = "",
             beforeTheLock: (MQTTObserver) throws -> Void = { _ in }) throws {
            let rig = try BrokerRig()
            let ha = try MQTTObserver(rig.broker, user: "homeassistant", password: "ha-secret",
                                      filters: ["fpmod/front-door/#", "homeassistant/device/#"])
            #expect(ha.pump { ha.client.status == .connected })
            try beforeTheLock(ha)
            let lock = try LockHarness(configJSON: HomeAssistantRemoteTests.config(rig.broker, rig.passwordFile, pulse: pulse,
                                                                                  extra: extra, mqttExtra: mqttExtra,
                                                                                  policyExtra: policyExtra))
            let logs = LogLines()
            lock.service.log = { logs.append($0) }
            #expect(ha.pump { ha.last("fpmod/front-door/lock/state") == "LOCKED" }, "broker log:\n\(rig.broker.log)")
            self.rig = rig
            self.ha = ha
            self.lock = lock
            self.logs = logs
        }

        func send(_ text: String, to topic: String = "fpmod/front-door/lock/set", retained: Bool = false) throws {
            try ha.client.publish(MQTTMessage(topic: topic, text: text, qos: 1, retained: retained))
        }

        func admin(_ text: String) throws { try send(text, to: "fpmod/front-door/admin/set") }

        /// The event entity's payloads of `type`, in order.
        func events(_ type: String) -> [String] {
            ha.messages.filter { $0.topic == "fpmod/front-door/event" && $0.text.contains(#""event_type":"\#(type)""#) }.map(\.text)
        }

        func waitForEvent(_ type: String, _ match: (String) -> Bool = { _ in true }) -> Bool {
            ha.pump { events(type).contains(where: match) }
        }

        var clientName: String { "fpmod-front-door at 127.0.0.1:\(rig.broker.port)" }
    }

    @Test func aRemoteUnlockIsAuditedWithTheConnectionAndTheUserWhosePINItWas() throws {
        let rig = try Rig()
        defer { rig.rig.remove() }
        try rig.send(#"{"action":"OPEN","code":"4826"}"#)
        #expect(rig.ha.pump { rig.ha.contains("fpmod/front-door/lock/state") { $0 == "UNLOCKED" } })
        let unlocked = try rig.lock.waitForEvent(named: "unlocked")
        #expect(unlocked.fields["reason"] == "remote")
        #expect(unlocked.fields["user"] == "alice")
        let row = try #require(try rig.lock.store.auditEntries(limit: 50).first { $0.event == "remote-unlock" })
        #expect(row.user == "alice", "the audit log keeps the full name")
        #expect(row.detail?.contains(rig.clientName) == true, "\(row.detail ?? "")")
        #expect(rig.waitForEvent("pin-ok") { $0.contains(#""source":"remote""#) && $0.contains(#""user":"a***e""#) })
        #expect(rig.logs.arrives("mqtt: remote unlock with a***e's PIN"), "\(rig.logs.all)")
        #expect(!rig.logs.all.contains { $0.contains("alice") }, "\(rig.logs.all)")
    }

    @Test func tamperRefusesARemoteUnlockEvenWithTheRightCode() throws {
        let rig = try Rig()
        defer { rig.rig.remove() }
        rig.lock.setInput(LockHarness.tamper, active: true)
        try rig.lock.waitForEvent(named: "tamper")
        let relayBefore = rig.lock.relayChanges.filter { $0 }.count
        try rig.send(#"{"action":"UNLOCK","code":"4826"}"#)
        #expect(rig.waitForEvent("remote-refused") { $0.contains(#""reason":"tamper""#) })
        #expect(rig.lock.relayChanges.filter { $0 }.count == relayBefore)
        #expect(rig.lock.service.snapshot.policy.pinFailures.consecutive == 0)
        #expect(try rig.lock.store.auditEntries(limit: 50).contains {
            $0.event == "remote-refused" && $0.detail?.contains(rig.clientName) == true
        })
        #expect(rig.logs.arrives("mqtt: remote unlock refused: refused from Home Assistant: the lock is in PIN-only mode"))
        // The keypad's PIN still opens in PIN-only mode.
        #expect(try rig.lock.control("pin 4826")["result"] as? String == "unlocked")
    }

    @Test func aPermanentFingerprintLockoutRefusesARemoteUnlockButNotTheKeypad() throws {
        let lockout = #"{"failuresPerTimedLockout": 3, "failuresForPermanentLockout": 3}"#
        let rig = try Rig(policyExtra: #", "fingerprintLockout": \#(lockout)"#)
        defer { rig.rig.remove() }
        for _ in 0..<3 { _ = try rig.lock.scan("mallory-thumb", expecting: ["no-match"]) }
        #expect(rig.ha.pump { rig.ha.last("fpmod/front-door/state")?.contains(#""lockout":"permanent""#) == true })
        try rig.send(#"{"action":"UNLOCK","code":"4826"}"#)
        #expect(rig.waitForEvent("remote-refused") { $0.contains(#""reason":"permanentLockout""#) })
        #expect(!rig.ha.contains("fpmod/front-door/lock/state") { $0 == "UNLOCKED" })
        #expect(rig.lock.service.snapshot.policy.fingerprintFailures.permanent)
        // At the keypad a correct PIN still opens, and clears the lockout.
        #expect(try rig.lock.control("pin 4826")["result"] as? String == "unlocked")
        #expect(!rig.lock.service.snapshot.policy.fingerprintFailures.permanent)
    }

    @Test func lockEndsTheUnlockWindowAtOnce() throws {
        let rig = try Rig(pulse: 60)
        defer { rig.rig.remove() }
        _ = try rig.lock.scan("alice-index", expecting: ["match"])
        #expect(rig.ha.pump { rig.ha.last("fpmod/front-door/lock/state") == "UNLOCKED" })
        try rig.send(#"{"action":"LOCK","code":"None"}"#)
        let locked = try rig.lock.waitForEvent(named: "locked")
        #expect(locked.fields["cause"] == "remote")
        #expect(rig.ha.pump { rig.ha.last("fpmod/front-door/lock/state") == "LOCKED" })
        #expect(rig.lock.relayChanges.last == false)
        #expect(!rig.lock.service.snapshot.relayOn)
        #expect(try rig.lock.store.auditEntries(limit: 50).contains { $0.event == "locked" && $0.detail?.contains(rig.clientName) == true })
        #expect(rig.logs.arrives("mqtt: LOCK from Home Assistant: locked now"))
    }

    @Test func namesOnMQTTFollowPrivacyMQTT() throws {
        let rig = try Rig(extra: #", "privacy": {"identity": "full", "mqtt": "none"}"#)
        defer { rig.rig.remove() }
        _ = try rig.lock.scan("alice-index", expecting: ["match"])
        #expect(rig.waitForEvent("match"))
        #expect(rig.ha.pump { rig.ha.contains("fpmod/front-door/lock/state") { $0 == "UNLOCKED" } })
        #expect(rig.ha.last("fpmod/front-door/lock/attributes") == #"{"changed_by":null}"#)
        #expect(!rig.ha.messages.contains { $0.text.contains("alice") || $0.text.contains("a***e") })
        #expect(rig.events("match").allSatisfy { !$0.contains(#""user""#) })
    }

    @Test func aReloadThatChangesOnlyPrivacyKeepsTheConnectionAndResendsChangedBy() throws {
        let rig = try BrokerRig()
        defer { rig.remove() }
        let ha = try MQTTObserver(rig.broker, user: "homeassistant", password: "ha-secret", filters: ["fpmod/front-door/#"])
        #expect(ha.pump { ha.client.status == .connected })
        let json = Self.config(rig.broker, rig.passwordFile)
        let reloaded = json.replacingOccurrences(of: #""policy""#, with: #""board": "gpio-vm", "privacy": {"mqtt": "full"}, "policy""#)
        let lock = try LockHarness(configJSON: json, configLoader: { try LockConfig.parse(Data(reloaded.utf8)) })
        _ = try lock.scan("alice-index", expecting: ["match"])
        #expect(ha.pump { ha.last("fpmod/front-door/lock/attributes") == #"{"changed_by":"a***e"}"# })
        let onlines = ha.count("fpmod/front-door/availability")
        lock.service.requestReload()
        try lock.waitForEvent(named: "config-reloaded")
        #expect(ha.pump { ha.last("fpmod/front-door/lock/attributes") == #"{"changed_by":"alice"}"# })
        #expect(ha.count("fpmod/front-door/availability") == onlines, "the bridge was not restarted")
    }

    @Test func theAdminCommandsNeedAnAdminsCodeAndReportInTheCLIsWords() throws {
        let rig = try Rig(mqttExtra: #", "adminCommands": true"#)
        defer { rig.rig.remove() }
        let discovery = try #require(rig.ha.last("homeassistant/device/front-door/config"))
        #expect(discovery.contains(#""enroll-progress","enrolled","deleted","admin-failed"]"#))

        // A user's PIN is not an admin's: refused and counted.
        try rig.admin(#"{"command":"enroll","user":"carol","finger":"left-index","code":"4826"}"#)
        #expect(rig.waitForEvent("admin-required"))
        #expect(rig.lock.service.snapshot.policy.pinFailures.consecutive == 1)

        rig.lock.simulator.touch("carol-index", times: 6)
        try rig.admin(#"{"command":"enroll","user":"carol","finger":"left-index","code":"7391"}"#)
        #expect(rig.waitForEvent("enrolled") { $0.contains(#""user":"c***l""#) && $0.contains(#""finger":"left-index""#) },
                "\(rig.logs.all)")
        let progress = rig.events("enroll-progress")
        #expect(progress.contains { $0.contains(#""progress":"Place your finger (1/2)""#) && $0.contains(#""status":"enroll-place-finger""#) },
                "\(progress)")
        #expect(try rig.lock.store.fingers(of: "carol").map(\.label) == ["left-index"])
        #expect(try rig.lock.store.auditEntries(limit: 100).contains { $0.event == "admin-verified" && $0.user == "boss" })
        #expect(rig.lock.service.snapshot.policy.pinFailures.consecutive == 0)
        #expect(rig.ha.pump { rig.ha.last("fpmod/front-door/state")?.contains(#""templates":2"#) == true })
        let match = try rig.lock.scan("carol-index", expecting: ["match", "no-match", "pin-required"])
        #expect(match.name == "match")

        // Deleting her finger; then a second delete fails, in the event's reason.
        try rig.admin(#"{"command":"delete","user":"carol","finger":"left-index","code":"7391"}"#)
        #expect(rig.waitForEvent("deleted") { $0.contains(#""finger":"left-index""#) && $0.contains(#""user":"c***l""#) })
        #expect(try rig.lock.store.fingers(of: "carol").isEmpty)
        try rig.admin(#"{"command":"delete","user":"carol","finger":"left-index","code":"7391"}"#)
        #expect(rig.waitForEvent("admin-failed") { $0.contains(#""command":"delete""#) })
        #expect(!rig.ha.messages.contains { !$0.topic.hasSuffix("/set") && $0.text.contains("carol") },
                "names stay masked, in free text too: \(rig.ha.messages.filter { $0.text.contains("carol") }.map(\.text))")
    }

    @Test func aRemoteClearEndsATimedLockout() throws {
        let rig = try Rig(extra: #", "privacy": {"log": "full"}"#, mqttExtra: #", "adminCommands": true"#)
        defer { rig.rig.remove() }
        for _ in 0..<5 { _ = try rig.lock.scan("mallory-thumb", expecting: ["no-match", "lockout"]) }
        #expect(rig.ha.pump { rig.ha.last("fpmod/front-door/state")?.contains(#""lockout":"timed""#) == true })
        try rig.admin(#"{"command":"clear","code":"7391"}"#)
        #expect(rig.waitForEvent("admin-clear") { $0.contains(#""source":"remote""#) })
        #expect(rig.waitForEvent("lockout-cleared"))
        #expect(rig.ha.pump { rig.ha.last("fpmod/front-door/state")?.contains(#""lockout":"none""#) == true })
        #expect(rig.logs.arrives("mqtt: remote clear accepted with admin boss's PIN"), "privacy.log full: \(rig.logs.all)")
    }

    @Test func malformedRetainedAndDisabledAdminCommandsDoNothing() throws {
        // A retained command is only marked so when the broker hands it to a new subscriber:
        // left there before the lock connects.
        let rig = try Rig(mqttExtra: #", "adminCommands": true"#) { ha in
            try ha.client.publish(MQTTMessage(topic: "fpmod/front-door/admin/set", text: #"{"command":"clear","code":"7391"}"#,
                                              qos: 1, retained: true))
        }
        defer { rig.rig.remove() }
        let oversized = #"{"command":"clear","code":"7391","user":""# + String(repeating: "x", count: 600) + #""}"#
        for text in [oversized, "clear 7391", #"{"command":"enroll","code":"7391"}"#, #"{"command":"clear"}"#,
                     #"{"command":"clear","code":"7391","admin":true}"#, #"{"command":"delete","user":"../x","code":"7391"}"#] {
            try rig.admin(text)
        }
        // Ignored lines are throttled (one per kind per 10 s, the rest counted: a flood must not
        // cost a log write each), so the first is logged and a LOCK sent after all six proves
        // the loop went through them.
        try rig.send(#"{"action":"LOCK"}"#)
        do {
            try waitUntil("the payloads were read, then the LOCK") {
                rig.logs.contains("ignoring a malformed admin command") && rig.logs.contains("mqtt: LOCK from Home Assistant")
            }
        } catch { Issue.record("\(error): \(rig.logs.all)\nbroker:\n\(rig.rig.broker.log)") }
        #expect(!rig.logs.all.contains { $0.contains("7391") }, "a code is never logged")
        #expect(rig.lock.events(named: "admin-clear").isEmpty)
        #expect(rig.lock.service.snapshot.policy.pinFailures.consecutive == 0)
        try rig.send("", to: "fpmod/front-door/admin/set", retained: true)
    }

    @Test func withoutAdminCommandsTheTopicIsNotEvenHeard() throws {
        let rig = try Rig()
        defer { rig.rig.remove() }
        let discovery = try #require(rig.ha.last("homeassistant/device/front-door/config"))
        #expect(!discovery.contains("enroll-progress"))
        try rig.admin(#"{"command":"clear","code":"7391"}"#)
        // A LOCK afterwards is handled, so the admin command had its chance first.
        try rig.send(#"{"action":"LOCK"}"#)
        try waitUntil("the LOCK is handled") { rig.logs.contains("mqtt: LOCK from Home Assistant") }
        #expect(rig.events("admin-clear").isEmpty)
        #expect(!rig.logs.contains("admin"))
    }

    @Test func twoTriesThatDoNotOpenTheDoorShowJammedUntilItOpens() throws {
        let rig = try Rig(pulse: 0.3)
        defer { rig.rig.remove() }
        for _ in 0..<2 {
            let before = rig.lock.events.count
            _ = try rig.lock.scan("alice-index", expecting: ["match"])
            try rig.lock.waitForEvent(named: "locked", after: before)
        }
        #expect(rig.ha.pump { rig.ha.last("fpmod/front-door/lock/state") == "JAMMED" }, "\(rig.ha.messages.map(\.text))")
        rig.lock.setInput(LockHarness.doorContact, active: true)
        #expect(rig.ha.pump { rig.ha.last("fpmod/front-door/lock/state") == "OPEN" })
        rig.lock.setInput(LockHarness.doorContact, active: false)
        #expect(rig.ha.pump { rig.ha.last("fpmod/front-door/lock/state") == "LOCKED" })
        // One more unused unlock is not jammed again.
        let states = rig.ha.count("fpmod/front-door/lock/state")
        _ = try rig.lock.scan("alice-index", expecting: ["match"])
        #expect(rig.ha.pump {
            rig.ha.count("fpmod/front-door/lock/state") >= states + 2 && rig.ha.last("fpmod/front-door/lock/state") == "LOCKED"
        })
        #expect(rig.ha.messages.filter { $0.topic == "fpmod/front-door/lock/state" && $0.text == "JAMMED" }.count == 1)
    }
}
