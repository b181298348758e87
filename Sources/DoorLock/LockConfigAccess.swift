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
        /// The store schedule during which the door is held open in `passage` and
        /// `first-person-in` modes (nil: `passage` holds it open for as long as the mode lasts).
        public var passageSchedule: String?
        /// The readers on the inside of the door, for anti-passback (the rest are entry readers).
        public var exitReaders: Set<DoorReader> = []

        public init() {}
    }

    /// The readers a door may have, as `access.exitReaders` names them.
    public enum DoorReader: String, Sendable, CaseIterable {
        /// The fingerprint module or sensor.
        case fingerprint
        case keypad
        case wiegand
        case nfc
    }

    static let accessKeys = ["timeZone", "door", "passageSchedule", "exitReaders"]

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
        if let value = object["passageSchedule"], let name = r.string(value, "access.passageSchedule") {
            // Whether the store has it is checked where the store is known (config check, run).
            if name.utf8.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-_".contains($0)) }) {
                access.passageSchedule = name
            } else {
                r.problem("access.passageSchedule", "is the name of a schedule in the store (fpmod schedule list), such as \"opening-hours\"")
            }
        }
        if let value = object["exitReaders"] {
            let choices = DoorReader.allCases.map(\.rawValue)
            if let names = value as? [String], !(value is String) {
                for (index, name) in names.enumerated() {
                    if let reader = DoorReader(rawValue: name) { access.exitReaders.insert(reader) } else {
                        r.problem("access.exitReaders[\(index)]", "\"\(name)\" is not a reader; the readers are \(choices.joined(separator: ", "))")
                    }
                }
            } else {
                r.problem("access.exitReaders", "is a list of the readers inside the door, such as [\"nfc\"]; the readers are \(choices.joined(separator: ", "))")
            }
        }
    }
}
