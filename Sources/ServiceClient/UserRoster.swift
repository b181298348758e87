import AccessPolicy
import Administration
import JSONValue
import TemplateStore

/// Who is enrolled, as every front end lists them: through the running service when there is
/// one (its store), else from the store itself, with the fingers the last module seen cannot use.
public struct RosterUser: Equatable, Sendable {
    public struct Finger: Equatable, Sendable {
        public var label: String
        public var slot: Int
        public var duress: Bool
        /// False when the last module seen cannot use this template (see `TemplateFitness`).
        public var usable = true
    }

    public var name: String
    public var displayName: String
    public var role: String
    public var fingerprintUnlock: Bool
    public var hasPIN: Bool
    public var fingers: [Finger]
    /// The user's own access rules (schedule, validity, uses; empty: none).
    public var access = UserAccess()

    /// The roster and, when some templates do not fit the module, the note that says what to do:
    /// from the service at `address` when it runs, else from the store `openStore` opens (read only).
    public static func roster(_ address: ServiceAddress, openStore: () throws -> TemplateStore) throws -> (users: [RosterUser], note: String?) {
        if let service = try ServiceConnection.connectIfRunning(address) {
            let reply = try service.send(.list)
            try ServiceConnection.check(reply)
            return ((reply["users"]?.arrayValue ?? []).map(RosterUser.init(reply:)), nil)
        }
        return try roster(try openStore())
    }

    public static func roster(_ store: TemplateStore) throws -> (users: [RosterUser], note: String?) {
        let fingers = try store.allFingers()
        let unusable = try TemplateFitness.unusableSlots(store)
        let users = try store.users().map { user in
            RosterUser(name: user.name, displayName: user.displayName, role: user.role.rawValue,
                       fingerprintUnlock: user.fingerprintUnlock, hasPIN: user.hasPIN,
                       fingers: fingers.filter { $0.user == user.name }.map {
                           Finger(label: $0.label, slot: $0.slot, duress: $0.isDuress, usable: !unusable.slots.contains($0.slot))
                       }, access: try store.access(of: user.name))
        }
        return (users, unusable.note)
    }

    /// One user of the service's `list` reply.
    init(reply user: JSONValue) {
        name = user["name"]?.stringValue ?? "?"
        displayName = user["displayName"]?.stringValue ?? name
        role = user["role"]?.stringValue ?? "user"
        fingerprintUnlock = user["fingerprintUnlock"]?.boolValue ?? true
        hasPIN = user["hasPIN"]?.boolValue ?? false
        fingers = (user["fingers"]?.arrayValue ?? []).map {
            Finger(label: $0["label"]?.stringValue ?? "?", slot: $0["slot"]?.intValue ?? -1, duress: $0["duress"]?.boolValue ?? false)
        }
        access = UserAccess(json: user["access"])
    }

    public init(name: String, displayName: String, role: String, fingerprintUnlock: Bool, hasPIN: Bool, fingers: [Finger],
                access: UserAccess = UserAccess()) {
        self.access = access
        self.name = name
        self.displayName = displayName
        self.role = role
        self.fingerprintUnlock = fingerprintUnlock
        self.hasPIN = hasPIN
        self.fingers = fingers
    }

    public var jsonValue: JSONValue {
        ["name": .string(name), "displayName": .string(displayName), "role": .string(role),
         "fingerprintUnlock": .bool(fingerprintUnlock), "hasPIN": .bool(hasPIN),
         "fingers": .array(fingers.map { ["label": .string($0.label), "slot": .int(Int64($0.slot)), "duress": .bool($0.duress),
                                         "usable": .bool($0.usable)] }),
         "access": access.jsonValue]
    }
}
