import Foundation
import HubStore
import JSONValue

/// What the fleet's front ends (`fpmod hub doors`, `fpmod hub users`, the fleet console) list,
/// made once here so each only renders it.
public enum FleetListing {
    /// A door as the JSON of `fpmod hub doors --json` and the fleet console give it.
    public static func json(_ door: HubDoor) -> JSONValue {
        .object(["name": .string(door.name), "joined": .bool(door.joined), "revoked": .bool(door.revoked),
                 "state": .string(state(of: door)), "lastRevision": .int(door.lastRevision),
                 "lastSeen": door.lastSeen.map(JSONValue.double) ?? .null,
                 "readerFamily": door.readerFamily.map(JSONValue.string) ?? .null,
                 "templateSize": door.templateSize.map { .int(Int64($0)) } ?? .null,
                 "reader": door.readerDescription.map(JSONValue.string) ?? .null])
    }

    /// "joined", "waiting to join" or "revoked".
    public static func state(of door: HubDoor) -> String {
        door.revoked ? "revoked" : door.joined ? "joined" : "waiting to join"
    }

    /// A finger of a user, and which of the fleet's working doors can use it (and why not).
    public struct FingerReach: Sendable, Equatable {
        public var label: String
        public var family: String
        public var templateSize: Int
        public var usableAt: [String]
        public var notUsableAt: [(door: String, why: String)]

        public static func == (a: FingerReach, b: FingerReach) -> Bool {
            a.label == b.label && a.family == b.family && a.templateSize == b.templateSize && a.usableAt == b.usableAt
                && a.notUsableAt.map(\.door) == b.notUsableAt.map(\.door) && a.notUsableAt.map(\.why) == b.notUsableAt.map(\.why)
        }

        public var json: JSONValue {
            .object(["label": .string(label), "family": .string(family), "templateSize": .int(Int64(templateSize)),
                     "usableAt": .array(usableAt.map(JSONValue.string)),
                     "notUsableAt": .array(notUsableAt.map { .object(["door": .string($0.door), "why": .string($0.why)]) })])
        }
    }

    /// The doors that count for reach: joined and not revoked.
    public static func workingDoors(_ store: HubStore) throws(HubStoreError) -> [HubDoor] {
        try store.doors().filter { $0.joined && !$0.revoked }
    }

    /// Each finger of `user` and where it can be used among `doors`.
    public static func reach(of user: String, in store: HubStore, doors: [HubDoor]) throws(HubStoreError) -> [FingerReach] {
        try store.fingers(of: user).map { finger in
            FingerReach(label: finger.label, family: finger.family, templateSize: finger.templateSize,
                        usableAt: doors.filter { $0.cannotUse(finger) == nil }.map(\.name),
                        notUsableAt: doors.compactMap { door in door.cannotUse(finger).map { (door.name, $0) } })
        }
    }

    /// A user as the JSON of `fpmod hub users --json` and the fleet console give it; `reach`
    /// only when it was asked for (it reads every finger).
    public static func json(_ user: HubStore.UserListing, reach: [FingerReach]?) -> JSONValue {
        var object: [String: JSONValue] = ["name": .string(user.name), "displayName": .string(user.displayName), "role": .string(user.role.rawValue),
                                           "fingers": .array(user.fingers.map(JSONValue.string)), "cards": .array(user.cards.map(JSONValue.string))]
        if let reach { object["fingerReach"] = .array(reach.map(\.json)) }
        return .object(object)
    }
}
