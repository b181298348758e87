import AccessPolicy

extension LockConfig {
    /// `access`: who may enter when, this door's part of it. The schedules, holidays and each
    /// user's rules live in the store (`fpmod schedule`, `fpmod holiday`, `fpmod user set`);
    /// the config says in which time zone they are read and what this door adds:
    /// `"access": {"timeZone": "Europe/Berlin", "door": "front"}`.
    public struct Access: Sendable, Equatable {
        /// The zone schedules and dates are read in; nil: the machine's own (`/etc/localtime`).
        public var timeZone: TimeZoneRules?
        /// This door's name in reports and `access explain --door`.
        public var door: String = "door"

        public init() {}
    }

    static let accessKeys = ["timeZone", "door"]

    /// The zone the door's schedules are read in: the config's, else the machine's.
    public var doorTimeZone: TimeZoneRules { access.timeZone ?? TimeZoneDatabase.system() }

    mutating func readAccess(_ object: [String: Any], _ r: inout ConfigReader) {
        r.rejectUnknownKeys(object, known: Self.accessKeys, at: "access")
        if let value = object["timeZone"], let name = r.string(value, "access.timeZone") {
            do { access.timeZone = try TimeZoneDatabase.load(name) } catch {
                r.problem("access.timeZone", "\(error)")
            }
        }
        if let value = object["door"], let name = r.string(value, "access.door") {
            if name.utf8.count <= 64, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_. ".contains($0) }) { access.door = name } else {
                r.problem("access.door", "is the door's name in reports: at most 64 letters, digits, spaces, '-', '_' or '.'")
            }
        }
    }
}
