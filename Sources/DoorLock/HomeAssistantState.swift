import AccessPolicy
import JSONValue

/// What the state topics say, gathered from the policy's status and the runtime's own facts.
public struct HomeAssistantLockStatus: Sendable, Equatable {
    public var unlocked = false
    /// nil until the door contact has reported (or when there is none).
    public var doorOpen: Bool?
    /// The door was forced (opened while locked) and is not closed again.
    public var forced = false
    /// Tries at the door that did not open it (`HomeAssistantJam`).
    public var jammed = false
    /// Who opened it last (the user the unlock was for), shown through `privacy.identity`.
    public var changedBy: String?
    public var tamper = false
    public var moduleConnected = false
    public var touching = false
    public var templates: Int?
    public var capacity: Int?
    public var failures = 0
    public var lockout: LockoutStatus = .none
    /// Touch edge to the end of the search, of the last identify.
    public var identifyMilliseconds: Double?
    /// The door mode (`DoorMode` raw value), for the select entity.
    public var doorMode = "normal"

    public init() {}

    /// The policy's side of it; the caller adds the runtime's facts (templates, touch, latency).
    public init(policy: PolicyStatus) {
        unlocked = policy.isUnlocked
        doorOpen = policy.doorOpen
        tamper = policy.tamperSwitchActive
        moduleConnected = policy.moduleConnected
        failures = policy.consecutiveFingerprintFailures
        lockout = policy.fingerprintLockout
        doorMode = policy.doorMode.rawValue
    }
}

/// The payloads of the state topics and of the event entity. Pure, and every name in them has
/// been through `IdentityPrivacy`; a duress finger never produces anything.
public enum HomeAssistantState {
    /// The lock entity's state: a forced door (the lock did not hold) and a door that would not
    /// open for the people it was unlocked for (`HomeAssistantJam`) are `JAMMED`, an open door
    /// `OPEN`, then the strike's own state.
    public static func lockState(_ status: HomeAssistantLockStatus) -> String {
        if status.forced || status.jammed { return "JAMMED" }
        if status.doorOpen == true { return "OPEN" }
        return status.unlocked ? "UNLOCKED" : "LOCKED"
    }

    /// `{"changed_by":"a***e"}`; null when nobody (or nobody who may be named) changed it.
    public static func lockAttributes(_ status: HomeAssistantLockStatus, privacy: IdentityPrivacy) -> JSONValue {
        ["changed_by": JSONValue(status.changedBy.flatMap(privacy.show))]
    }

    /// Every sensor's value in one object (each entity's template picks its key). Unknown
    /// values are null, which Home Assistant shows as unknown.
    public static func state(_ status: HomeAssistantLockStatus) -> JSONValue {
        let lockout: (text: String, remaining: JSONValue) = switch status.lockout {
        case .none: ("none", 0)
        case .timed(let remaining): ("timed", .int(Int64(remaining.rounded(.up))))
        case .permanent: ("permanent", nil)
        }
        return [
            "door": status.doorOpen.map { onOff($0) } ?? .null,
            "tamper": onOff(status.tamper),
            "module": onOff(status.moduleConnected),
            "touch": onOff(status.touching),
            "templates": status.templates.map { JSONValue($0) } ?? .null,
            "capacity": status.capacity.map { JSONValue($0) } ?? .null,
            "failures": JSONValue(status.failures),
            "lockout": .string(lockout.text),
            "lockout_remaining": lockout.remaining,
            "identify_ms": status.identifyMilliseconds.map { JSONValue.double(($0 * 10).rounded() / 10) } ?? .null,
            "door_mode": .string(status.doorMode),
        ]
    }

    /// The event entity's payload for a service event: `{"event_type":"match","user":"a***e",
    /// "slot":3,"score":120,"latency_ms":{…},"time":"…"}`; nil for what Home Assistant must not see (the
    /// silent duress event, diagnostics that are not decisions).
    public static func event(_ event: LockEvent, privacy: IdentityPrivacy) -> JSONValue? {
        guard event.isPublic, event.name != "duress",
              HomeAssistantDiscovery.eventTypes.contains(event.name) || HomeAssistantDiscovery.adminEventTypes.contains(event.name)
        else { return nil }
        var object: [String: JSONValue] = [:]
        // "time" stays: an event queued while the broker was away arrives late.
        for (key, value) in event.shown(privacy).json.objectMembers where !["event", "latencyMs"].contains(key) {
            object[key] = value
        }
        object["event_type"] = .string(event.name)
        if let timing = event.timing, !timing.millisecondsFromEdge.isEmpty { object["latency_ms"] = timing.jsonValue }
        return .object(object)
    }

    private static func onOff(_ flag: Bool) -> JSONValue { flag ? "ON" : "OFF" }
}

extension JSONValue {
    var objectMembers: [String: JSONValue] {
        if case .object(let members) = self { return members }
        return [:]
    }
}
