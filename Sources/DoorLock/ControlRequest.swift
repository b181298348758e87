import AccessPolicy
import TemplateStore

/// One request of the control protocol, parsed and printed here and nowhere else: the service
/// reads lines with `init(line:)`, clients write them with `line`, so the two cannot drift.
/// Every reply is one JSON object (`JSONValue`) with an `ok` key; `enroll` sends
/// `{"progress":…,"status":…}` lines before its reply.
public enum ControlRequest: Equatable, Sendable {
    case status
    case scan
    case list
    /// `pin [USER] PIN`: open the door with a PIN.
    case pin(user: String?, pin: String)
    /// `card NUMBER`: a card read by a reader this service does not drive (a kiosk's, a test's),
    /// as `fpmod card add` spells it: 26:FACILITY:NUMBER, 34:FACILITY:NUMBER or uid:HEX.
    case card(CardNumber)
    /// `unlock ADMIN PIN`: open as an admin (ends PIN-only mode too).
    case unlock(admin: String, pin: String)
    /// `clear ADMIN PIN`: end lockouts and PIN-only mode.
    case clear(admin: String, pin: String)
    /// `clear`: the same without a PIN, for root on this machine only (checked by peer uid).
    case clearAsRoot
    case enroll(EnrollRequest)
    /// `delete NAME [LABEL]`
    case delete(user: String, label: String?)
    /// `door-mode MODE`: normal, passage, lockdown or first-person-in. Any mode for root on this
    /// machine (peer uid); others may only keep people out (into lockdown, or back to normal).
    case doorMode(DoorMode)

    public static let usage = "commands: status, pin [USER] PIN, card NUMBER, unlock ADMIN PIN, clear ADMIN PIN, clear (as root), scan, list, enroll NAME [LABEL] [--duress] [--admin], delete NAME [LABEL], door-mode MODE"

    /// Reads one line; the error text is the reply's.
    public init(line: String) throws(ControlUsageError) {
        // Split on scalars, not characters: a space followed by a combining mark is one
        // character, so "enroll b \u{20E8}" would read back as the user "b \u{20E8}".
        let words = line.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { String(String.UnicodeScalarView($0)) }
        guard let verb = words.first?.lowercased() else { throw ControlUsageError("empty command; " + Self.usage) }
        let arguments = Array(words.dropFirst())
        switch verb {
        case "status", "scan", "list":
            guard arguments.isEmpty else { throw ControlUsageError("usage: \(verb) (no arguments)") }
            self = verb == "status" ? .status : verb == "scan" ? .scan : .list
        case "pin":
            guard (1...2).contains(arguments.count) else { throw ControlUsageError("usage: pin [USER] PIN") }
            self = .pin(user: arguments.count == 2 ? arguments[0] : nil, pin: arguments[arguments.count - 1])
        case "card":
            guard arguments.count == 1 else { throw ControlUsageError("usage: card NUMBER (26:FACILITY:NUMBER, 34:FACILITY:NUMBER or uid:HEX)") }
            do { self = .card(try CardNumber(parsing: arguments[0])) } catch { throw ControlUsageError(error.description) }
        case "clear" where arguments.isEmpty:
            self = .clearAsRoot
        case "unlock", "clear":
            guard arguments.count == 2 else {
                throw ControlUsageError(verb == "clear" ? "usage: clear ADMIN PIN, or `clear` alone as root on this machine" : "usage: unlock ADMIN PIN")
            }
            self = verb == "unlock" ? .unlock(admin: arguments[0], pin: arguments[1]) : .clear(admin: arguments[0], pin: arguments[1])
        case "enroll":
            self = .enroll(try EnrollRequest(controlArguments: arguments))
        case "delete":
            guard (1...2).contains(arguments.count) else { throw ControlUsageError("usage: delete NAME [LABEL]") }
            self = .delete(user: arguments[0], label: arguments.count == 2 ? arguments[1] : nil)
        case "door-mode":
            let modes = DoorMode.allCases.map(\.rawValue).joined(separator: ", ")
            guard arguments.count == 1, let mode = DoorMode(rawValue: arguments[0].lowercased()) else {
                throw ControlUsageError("usage: door-mode MODE (\(modes))")
            }
            self = .doorMode(mode)
        default:
            throw ControlUsageError("unknown command '\(verb)'; " + Self.usage)
        }
    }

    /// The line a client sends (without the newline).
    public var line: String {
        switch self {
        case .status: "status"
        case .scan: "scan"
        case .list: "list"
        case let .pin(user?, pin): "pin \(user) \(pin)"
        case let .pin(nil, pin): "pin \(pin)"
        case .card(let number): "card \(number.typed)"
        case let .unlock(admin, pin): "unlock \(admin) \(pin)"
        case let .clear(admin, pin): "clear \(admin) \(pin)"
        case .clearAsRoot: "clear"
        case .enroll(let request): request.controlLine
        case let .delete(user, label?): "delete \(user) \(label)"
        case let .delete(user, nil): "delete \(user)"
        case .doorMode(let mode): "door-mode \(mode.rawValue)"
        }
    }
}
