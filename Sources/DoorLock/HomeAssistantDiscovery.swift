import AccessPolicy
import Foundation
import JSONValue
import TemplateStore

/// Who the lock is, for the discovery payload's `dev` block: what the pairing recorded about
/// the module, and fpmod's own version.
public struct HomeAssistantDevice: Sendable, Equatable {
    public var family: String?
    /// The module's product information as the pairing stored it (JSON text, or a plain name).
    public var productInfo: String?
    public var softwareVersion: String
    /// Stable for as long as the module stays paired (see `pairingID(of:)`); nil before pairing.
    public var pairingID: String?

    public init(family: String? = nil, productInfo: String? = nil, softwareVersion: String, pairingID: String? = nil) {
        self.family = family
        self.productInfo = productInfo
        self.softwareVersion = softwareVersion
        self.pairingID = pairingID
    }

    public init(identity: ModuleIdentity?, softwareVersion: String) {
        self.init(family: identity?.family, productInfo: identity?.productInfo, softwareVersion: softwareVersion,
                  pairingID: identity.map(Self.pairingID(of:)))
    }

    /// 16 hex digits from the family, address and pairing time: the same on every start until
    /// `fpmod pair` pairs again, and nothing that helps anyone talk to the module (the password
    /// is left out). FNV-1a: a stable name, not a secret, so no key or salt.
    public static func pairingID(of identity: ModuleIdentity) -> String {
        let text = "\(identity.family)|\(String(identity.address, radix: 16))|\(Int64(identity.pairedAt.timeIntervalSince1970))"
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// "r50x (R503)": the family as the store names it, then the product info when there is one.
    var model: String {
        let family = family?.isEmpty == false ? family! : "fingerprint module"
        guard let info = productInfo?.trimmingCharacters(in: .whitespacesAndNewlines), !info.isEmpty else { return family }
        return "\(family) (\(info))"
    }
}

/// The discovery payload (Home Assistant's device-based discovery, `<prefix>/device/<id>/config`):
/// one device with a lock, an access event, binary sensors (door, tamper, module, touch) and
/// sensors (templates, capacity, failures, lockout, identify latency), all sharing one
/// availability topic. Pure: the bridge publishes it retained on every connect and on
/// Home Assistant's `online`.
public enum HomeAssistantDiscovery {
    /// The event types of the event entity: every public decision the service emits, and the
    /// health events a household should hear of. A duress finger is never among them.
    public static let eventTypes = [
        "match", "no-match", "retry-scan", "misplaced", "lockout", "lockout-permanent", "lockout-ended",
        "lockout-cleared", "pin-ok", "pin-wrong", "pin-required", "pin-lockout", "pin-lockout-permanent",
        "exit-request", "unlocked", "locked", "door-opened", "door-closed", "door-forced", "door-held-open",
        "door-held-open-cleared", "tamper", "tamper-cleared", "disconnected", "reconnected", "touch",
        "remote-refused", "admin-required", "admin-clear",
        // The door's health, which an automation should hear about: records it cannot write
        // (a full disk) and when they are written again, and the wall clock stepped.
        "records-unwritable", "records-writable", "wall-clock-stepped",
    ]

    /// The events of admin commands from Home Assistant, listed only with `mqtt.adminCommands`:
    /// an enroll's steps in the CLI's words (`progress`), its result, a delete's, a failure's.
    public static let adminEventTypes = ["enroll-progress", "enrolled", "deleted", "admin-failed"]

    /// A PIN as `fpmod user pin` accepts it: 4 to 12 digits.
    public static let codeFormat = "^[0-9]{4,12}$"

    public static func payload(device: HomeAssistantDevice, topics: HomeAssistantTopics,
                               remoteUnlock: LockConfig.MQTT.RemoteUnlock, adminCommands: Bool = false) -> JSONValue {
        let id = topics.deviceID
        var identifiers: [JSONValue] = [.string("fpmod_\(id)")]
        if let pairing = device.pairingID { identifiers.append(.string("fpmod_module_\(pairing)")) }
        var lock: [String: JSONValue] = [
            "p": "lock", "unique_id": .string("\(id)_lock"), "name": nil,
            "command_topic": .string(topics.lockCommand), "state_topic": .string(topics.lockState),
            "json_attributes_topic": .string(topics.lockAttributes),
            "payload_lock": "LOCK", "payload_unlock": "UNLOCK", "payload_open": "OPEN",
            // Home Assistant sends the code only through a template.
            "command_template": #"{"action":"{{ value }}","code":"{{ code }}"}"#,
            "state_locked": "LOCKED", "state_unlocked": "UNLOCKED", "state_open": "OPEN", "state_jammed": "JAMMED",
            "retain": false, "optimistic": false,
        ]
        if remoteUnlock != .off { lock["code_format"] = .string(codeFormat) }
        let components: [String: JSONValue] = [
            "\(id)_lock": .object(lock),
            "\(id)_access": [
                "p": "event", "unique_id": .string("\(id)_access"), "name": "Access",
                "state_topic": .string(topics.event),
                "event_types": .array((eventTypes + (adminCommands ? adminEventTypes : [])).map(JSONValue.string)),
            ],
            "\(id)_door": binarySensor(id, "door", "Door", deviceClass: "door", topics),
            "\(id)_door_mode": [
                "p": "select", "unique_id": .string("\(id)_door_mode"), "name": "Door mode",
                "command_topic": .string(topics.doorModeCommand), "state_topic": .string(topics.state),
                "value_template": "{{ value_json.door_mode }}",
                "options": .array(DoorMode.allCases.map { .string($0.rawValue) }),
                "retain": false, "optimistic": false, "icon": "mdi:door",
            ],
            "\(id)_tamper": binarySensor(id, "tamper", "Tamper", deviceClass: "tamper", topics),
            "\(id)_module": binarySensor(id, "module", "Fingerprint module", deviceClass: "connectivity", topics,
                                         diagnostic: true),
            "\(id)_touch": binarySensor(id, "touch", "Touch", deviceClass: "occupancy", topics),
            "\(id)_templates": sensor(id, "templates", "Templates", topics, stateClass: "measurement"),
            "\(id)_capacity": sensor(id, "capacity", "Template capacity", topics, diagnostic: true),
            "\(id)_failures": sensor(id, "failures", "Failures in a row", topics, stateClass: "measurement"),
            "\(id)_lockout": sensor(id, "lockout", "Lockout", topics),
            "\(id)_lockout_remaining": sensor(id, "lockout_remaining", "Lockout remaining", topics,
                                              unit: "s", deviceClass: "duration"),
            "\(id)_identify_ms": sensor(id, "identify_ms", "Identify latency", topics, unit: "ms",
                                        deviceClass: "duration", stateClass: "measurement", diagnostic: true),
        ]
        return [
            "dev": [
                "identifiers": .array(identifiers), "name": .string(id), "manufacturer": "fpmod",
                "model": .string(device.model), "sw_version": .string(device.softwareVersion),
            ],
            "o": ["name": "fpmod", "sw": .string(device.softwareVersion)],
            "availability_topic": .string(topics.availability),
            "payload_available": "online", "payload_not_available": "offline",
            "qos": 1,
            "cmps": .object(components),
        ]
    }

    private static func binarySensor(_ id: String, _ key: String, _ name: String, deviceClass: String,
                                     _ topics: HomeAssistantTopics, diagnostic: Bool = false) -> JSONValue {
        var entity: [String: JSONValue] = [
            "p": "binary_sensor", "unique_id": .string("\(id)_\(key)"), "name": .string(name),
            "device_class": .string(deviceClass), "state_topic": .string(topics.state),
            "value_template": .string("{{ value_json.\(key) }}"),
        ]
        if diagnostic { entity["entity_category"] = "diagnostic" }
        return .object(entity)
    }

    private static func sensor(_ id: String, _ key: String, _ name: String, _ topics: HomeAssistantTopics,
                               unit: String? = nil, deviceClass: String? = nil, stateClass: String? = nil,
                               diagnostic: Bool = false) -> JSONValue {
        var entity: [String: JSONValue] = [
            "p": "sensor", "unique_id": .string("\(id)_\(key)"), "name": .string(name),
            "state_topic": .string(topics.state), "value_template": .string("{{ value_json.\(key) }}"),
        ]
        if let unit { entity["unit_of_measurement"] = .string(unit) }
        if let deviceClass { entity["device_class"] = .string(deviceClass) }
        if let stateClass { entity["state_class"] = .string(stateClass) }
        if diagnostic { entity["entity_category"] = "diagnostic" }
        return .object(entity)
    }
}
