import AccessPolicy
import DoorLock
import Foundation
import JSONValue
import TemplateStore
import Testing

/// The Home Assistant payloads, byte for byte: discovery, state, lock attributes, events, and
/// the masking of names on every one of them.
struct HomeAssistantPayloadTests {
    let topics = HomeAssistantTopics(discoveryPrefix: "homeassistant", deviceID: "front-door")

    @Test func masking() {
        #expect(IdentityPrivacy.masked.show("alice") == "a***e")
        #expect(IdentityPrivacy.masked.show("Bob") == "B***b")
        #expect(IdentityPrivacy.masked.show("al") == "a***")
        #expect(IdentityPrivacy.masked.show("z") == "z***")
        #expect(IdentityPrivacy.masked.show("Zoë") == "Z***ë")
        #expect(IdentityPrivacy.full.show("alice") == "alice")
        #expect(IdentityPrivacy.none.show("alice") == nil)
    }

    @Test func theTopics() {
        #expect(topics.discovery == "homeassistant/device/front-door/config")
        #expect(topics.homeAssistantStatus == "homeassistant/status")
        #expect(topics.availability == "fpmod/front-door/availability")
        #expect(topics.lockState == "fpmod/front-door/lock/state")
        #expect(topics.lockCommand == "fpmod/front-door/lock/set")
        #expect(topics.event == "fpmod/front-door/event")
        #expect(topics.state == "fpmod/front-door/state")
    }

    @Test func thePairingGivesAStableIdentifier() {
        let paired = Date(timeIntervalSince1970: 1_790_000_000)
        let identity = ModuleIdentity(family: "r50x", address: 0xFFFF_FFFF, password: 0x1234, capacity: 200,
                                      productInfo: "R503", pairedAt: paired)
        let id = HomeAssistantDevice.pairingID(of: identity)
        #expect(id.count == 16)
        #expect(id.allSatisfy { $0.isHexDigit })
        // The password is not part of it; the pairing time is.
        var other = identity
        other.password = 0
        #expect(HomeAssistantDevice.pairingID(of: other) == id)
        other.pairedAt = paired + 1
        #expect(HomeAssistantDevice.pairingID(of: other) != id)
        let device = HomeAssistantDevice(identity: identity, softwareVersion: "fpmod 0.1.0")
        #expect(device.pairingID == id)
        #expect(device.family == "r50x")
    }

    func discovery(_ remoteUnlock: LockConfig.MQTT.RemoteUnlock) -> [String: JSONValue] {
        let device = HomeAssistantDevice(family: "r50x", productInfo: "R503", softwareVersion: "fpmod 0.1.0",
                                         pairingID: "0123456789abcdef")
        guard case .object(let members) = HomeAssistantDiscovery.payload(device: device, topics: topics, remoteUnlock: remoteUnlock) else {
            return [:]
        }
        return members
    }

    func component(_ payload: [String: JSONValue], _ key: String) -> String {
        guard case .object(let components)? = payload["cmps"] else { return "(no cmps)" }
        return components[key]?.encoded ?? "(no \(key))"
    }

    @Test func theDiscoveryPayloadDescribesOneDevice() {
        let payload = discovery(.userPIN)
        #expect(payload["dev"]?.encoded == #"{"identifiers":["fpmod_front-door","fpmod_module_0123456789abcdef"],"manufacturer":"fpmod","model":"r50x (R503)","name":"front-door","sw_version":"fpmod 0.1.0"}"#)
        #expect(payload["o"]?.encoded == #"{"name":"fpmod","sw":"fpmod 0.1.0"}"#)
        #expect(payload["availability_topic"] == "fpmod/front-door/availability")
        #expect(payload["payload_available"] == "online")
        #expect(payload["payload_not_available"] == "offline")
        #expect(component(payload, "front-door_lock") == #"{"code_format":"^[0-9]{4,12}$","command_template":"{\"action\":\"{{ value }}\",\"code\":\"{{ code }}\"}","command_topic":"fpmod/front-door/lock/set","json_attributes_topic":"fpmod/front-door/lock/attributes","name":null,"optimistic":false,"p":"lock","payload_lock":"LOCK","payload_open":"OPEN","payload_unlock":"UNLOCK","retain":false,"state_jammed":"JAMMED","state_locked":"LOCKED","state_open":"OPEN","state_topic":"fpmod/front-door/lock/state","state_unlocked":"UNLOCKED","unique_id":"front-door_lock"}"#)
        #expect(component(payload, "front-door_door") == #"{"device_class":"door","name":"Door","p":"binary_sensor","state_topic":"fpmod/front-door/state","unique_id":"front-door_door","value_template":"{{ value_json.door }}"}"#)
        #expect(component(payload, "front-door_module") == #"{"device_class":"connectivity","entity_category":"diagnostic","name":"Fingerprint module","p":"binary_sensor","state_topic":"fpmod/front-door/state","unique_id":"front-door_module","value_template":"{{ value_json.module }}"}"#)
        #expect(component(payload, "front-door_lockout_remaining") == #"{"device_class":"duration","name":"Lockout remaining","p":"sensor","state_topic":"fpmod/front-door/state","unique_id":"front-door_lockout_remaining","unit_of_measurement":"s","value_template":"{{ value_json.lockout_remaining }}"}"#)
        guard case .object(let components)? = payload["cmps"] else {
            Issue.record("no cmps")
            return
        }
        #expect(components.keys.sorted() == ["front-door_access", "front-door_capacity", "front-door_door", "front-door_door_mode", "front-door_failures",
                                             "front-door_identify_ms", "front-door_lock", "front-door_lockout",
                                             "front-door_lockout_remaining", "front-door_module", "front-door_tamper",
                                             "front-door_templates", "front-door_touch"])
        // Every entity needs a platform and a unique id, and the id is its key.
        for (key, value) in components {
            guard case .object(let entity) = value else { continue }
            #expect(entity["unique_id"] == .string(key))
            #expect(entity["p"] != nil)
        }
        #expect(component(payload, "front-door_door_mode") == #"{"command_topic":"fpmod/front-door/door_mode/set","icon":"mdi:door","name":"Door mode","optimistic":false,"options":["normal","passage","lockdown","first-person-in"],"p":"select","retain":false,"state_topic":"fpmod/front-door/state","unique_id":"front-door_door_mode","value_template":"{{ value_json.door_mode }}"}"#)
        let access = component(payload, "front-door_access")
        #expect(access.hasPrefix(#"{"event_types":["match","no-match","retry-scan","misplaced","lockout","lockout-permanent","#))
        #expect(!access.contains("duress"))
    }

    @Test func theAdminEventTypesOnlyWhenAdminCommandsAreOn() {
        let device = HomeAssistantDevice(softwareVersion: "fpmod 0.1.0")
        func access(_ admin: Bool) -> String {
            guard case .object(let members) = HomeAssistantDiscovery.payload(device: device, topics: topics, remoteUnlock: .userPIN,
                                                                            adminCommands: admin),
                  case .object(let components)? = members["cmps"] else { return "" }
            return components["front-door_access"]?.encoded ?? ""
        }
        for type in HomeAssistantDiscovery.adminEventTypes {
            #expect(access(true).contains(#""\#(type)""#))
            #expect(!access(false).contains(#""\#(type)""#))
        }
        #expect(access(false).contains(#""remote-refused""#))
        // The admin events themselves carry masked names, like every other.
        let enrolled = LockEvent(name: "enrolled", fields: ["user": "carol", "finger": "left-index", "slot": "4"],
                                 time: Date(timeIntervalSince1970: 0))
        #expect(HomeAssistantState.event(enrolled, privacy: .masked)?.encoded
            == #"{"event_type":"enrolled","finger":"left-index","slot":4,"time":"1970-01-01T00:00:00.000Z","user":"c***l"}"#)
    }

    @Test func noCodeFormatWhenRemoteUnlockIsOff() {
        #expect(!component(discovery(.off), "front-door_lock").contains("code_format"))
        #expect(component(discovery(.adminPIN), "front-door_lock").contains(#""code_format":"^[0-9]{4,12}$""#))
    }

    @Test func theLockState() {
        var status = HomeAssistantLockStatus()
        #expect(HomeAssistantState.lockState(status) == "LOCKED")
        status.unlocked = true
        #expect(HomeAssistantState.lockState(status) == "UNLOCKED")
        status.doorOpen = true
        #expect(HomeAssistantState.lockState(status) == "OPEN")
        status.forced = true
        #expect(HomeAssistantState.lockState(status) == "JAMMED")
    }

    @Test func changedByIsMasked() {
        var status = HomeAssistantLockStatus()
        #expect(HomeAssistantState.lockAttributes(status, privacy: .masked).encoded == #"{"changed_by":null}"#)
        status.changedBy = "alice"
        #expect(HomeAssistantState.lockAttributes(status, privacy: .masked).encoded == #"{"changed_by":"a***e"}"#)
        #expect(HomeAssistantState.lockAttributes(status, privacy: .full).encoded == #"{"changed_by":"alice"}"#)
        #expect(HomeAssistantState.lockAttributes(status, privacy: .none).encoded == #"{"changed_by":null}"#)
    }

    @Test func theStateObject() {
        var status = HomeAssistantLockStatus()
        #expect(HomeAssistantState.state(status).encoded == #"{"capacity":null,"door":null,"door_mode":"normal","failures":0,"identify_ms":null,"lockout":"none","lockout_remaining":0,"module":"OFF","tamper":"OFF","templates":null,"touch":"OFF"}"#)
        status.doorOpen = false
        status.moduleConnected = true
        status.tamper = true
        status.touching = true
        status.templates = 3
        status.capacity = 200
        status.failures = 4
        status.lockout = .timed(remaining: 12.2)
        status.identifyMilliseconds = 412.345
        #expect(HomeAssistantState.state(status).encoded == #"{"capacity":200,"door":"OFF","door_mode":"normal","failures":4,"identify_ms":412.3,"lockout":"timed","lockout_remaining":13,"module":"ON","tamper":"ON","templates":3,"touch":"ON"}"#)
        status.lockout = .permanent
        #expect(HomeAssistantState.state(status).encoded.contains(#""lockout":"permanent","lockout_remaining":null"#))
    }

    @Test func theStatusComesFromThePolicy() {
        var policy = PolicyState().status(at: PolicyTime(wall: 1_790_000_000, monotonic: 100), config: PolicyConfig())
        policy.isUnlocked = true
        policy.doorOpen = true
        policy.moduleConnected = true
        policy.tamperSwitchActive = false
        policy.consecutiveFingerprintFailures = 2
        policy.fingerprintLockout = .timed(remaining: 5)
        let status = HomeAssistantLockStatus(policy: policy)
        #expect(status.unlocked && status.doorOpen == true && status.moduleConnected && !status.tamper)
        #expect(status.failures == 2)
        #expect(status.lockout == .timed(remaining: 5))
    }

    @Test func anEventWithAMaskedUserAndItsLatencies() {
        var timing = ScanTiming()
        timing.edge = 1_000_000_000
        timing.captureEnd = 1_300_000_000
        timing.searchEnd = 1_412_500_000
        let match = LockEvent(name: "match", fields: ["user": "alice", "slot": "3", "score": "120"], timing: timing,
                              time: Date(timeIntervalSince1970: 0))
        #expect(HomeAssistantState.event(match, privacy: .masked)?.encoded
            == #"{"event_type":"match","latency_ms":{"captureEnd":300,"searchEnd":412.5},"score":120,"slot":3,"time":"1970-01-01T00:00:00.000Z","user":"a***e"}"#)
        #expect(HomeAssistantState.event(match, privacy: .full)?.encoded.contains(#""user":"alice""#) == true)
        #expect(HomeAssistantState.event(match, privacy: .none)?.encoded
            == #"{"event_type":"match","latency_ms":{"captureEnd":300,"searchEnd":412.5},"score":120,"slot":3,"time":"1970-01-01T00:00:00.000Z"}"#)
        #expect(HomeAssistantState.event(LockEvent(name: "door-forced", time: Date(timeIntervalSince1970: 1.5)), privacy: .masked)?.encoded
            == #"{"event_type":"door-forced","time":"1970-01-01T00:00:01.500Z"}"#)
    }

    @Test func theDoorsHealthEventsArePublished() {
        // Once they stayed on the event socket: a full disk or a stepped clock went unheard in Home Assistant.
        let unwritable = LockEvent(name: "records-unwritable", fields: ["reason": "the disk is full"], time: Date(timeIntervalSince1970: 1.5))
        #expect(HomeAssistantState.event(unwritable, privacy: .masked)?.encoded
            == #"{"event_type":"records-unwritable","reason":"the disk is full","time":"1970-01-01T00:00:01.500Z"}"#)
        for name in ["records-writable", "wall-clock-stepped"] {
            #expect(HomeAssistantState.event(LockEvent(name: name), privacy: .masked) != nil)
        }
    }

    @Test func duressIsNeverPublished() {
        let duress = LockEvent(name: "duress", fields: ["user": "alice"], isPublic: false)
        for privacy in IdentityPrivacy.allCases {
            #expect(HomeAssistantState.event(duress, privacy: privacy) == nil)
        }
        // Even if a future caller forgot the flag.
        #expect(HomeAssistantState.event(LockEvent(name: "duress", fields: ["user": "alice"]), privacy: .full) == nil)
        // And a public event is withheld when marked silent.
        #expect(HomeAssistantState.event(LockEvent(name: "match", isPublic: false), privacy: .full) == nil)
        // Diagnostics that are not decisions stay on the event socket.
        #expect(HomeAssistantState.event(LockEvent(name: "config-invalid", fields: ["reason": "x"]), privacy: .full) == nil)
    }
}
