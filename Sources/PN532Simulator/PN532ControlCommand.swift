import JSONValue

/// One line of the simulated PN532's control socket, a JSON object naming its action:
///
///     {"place":"classic","uid":"0A1B2C3D"}
///     {"place":"desfire","uid":"04112233445566"}
///     {"place":"desfire","uid":"04112233445566","piccKey":"0011223344556677"}
///     {"place":"custom","uid":"...","atqa":"0004","sak":"08","ats":"067577810280"}
///     {"remove":true}
///     {"fault":"garbage"}   {"fault":"silent"}   {"fault":"none"}
///     {"status":true}
///
/// Hex fields take upper or lower case, spaces between bytes allowed.
public enum PN532ControlCommand: Equatable, Sendable {
    case place(SimulatedCard)
    case remove
    case fault(PN532Fault)
    case status

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    static let actions = ["place", "remove", "fault", "status"]

    public init(line: String) throws(ParseError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: line) } catch { throw ParseError(message: "not JSON: \(error)") }
        guard let object = value.objectValue else { throw ParseError(message: "expected a JSON object such as {\"status\":true}") }
        let named = Self.actions.filter { object[$0] != nil }
        guard named.count == 1, let action = named.first else {
            throw ParseError(message: "name exactly one of \(Self.actions.joined(separator: ", "))")
        }
        let allowed: Set<String> = action == "place" ? ["place", "uid", "atqa", "sak", "ats", "piccKey"] : [action]
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ParseError(message: "unknown key \(JSONValue.quoted(unknown)) for \(action)")
        }
        switch action {
        case "place":
            guard let kindName = object["place"]?.stringValue, let kind = SimulatedCard.Kind(rawValue: kindName) else {
                throw ParseError(message: "place is one of \(SimulatedCard.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let uidText = object["uid"]?.stringValue else { throw ParseError(message: "place needs \"uid\" (hex, 4 or 7 bytes)") }
            let uid = try Self.hex(uidText, field: "uid")
            // if-let rather than Optional.map with a typed-throws closure, which Swift 6.0 may not infer.
            var atqa: Int?, sak: Int?, ats: [UInt8]?, piccKey: [UInt8]?
            if let value = object["atqa"] { atqa = try Self.hexValue(value, field: "atqa", bytes: 2) }
            if let value = object["sak"] { sak = try Self.hexValue(value, field: "sak", bytes: 1) }
            if let value = object["ats"] {
                guard let text = value.stringValue else { throw ParseError(message: "ats is a hex string") }
                ats = try Self.hex(text, field: "ats")
            }
            if let value = object["piccKey"] {
                guard let text = value.stringValue else { throw ParseError(message: "piccKey is a hex string") }
                piccKey = try Self.hex(text, field: "piccKey")
            }
            do {
                self = .place(try SimulatedCard(kind: kind, uid: uid, atqa: atqa.map { UInt16($0) }, sak: sak.map { UInt8($0) }, ats: ats, piccKey: piccKey))
            } catch {
                throw ParseError(message: error.description)
            }
        case "remove":
            self = .remove
        case "fault":
            guard let name = object["fault"]?.stringValue, let fault = PN532Fault(rawValue: name) else {
                throw ParseError(message: "fault is one of \(PN532Fault.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self = .fault(fault)
        default:
            self = .status
        }
    }

    static func hex(_ text: String, field: String) throws(ParseError) -> [UInt8] {
        let digits = text.filter { $0 != " " }
        guard !digits.isEmpty, digits.count % 2 == 0, digits.count <= 64, digits.allSatisfy(\.isHexDigit) else {
            throw ParseError(message: "\(field) is hex bytes, e.g. \"0A1B2C3D\"")
        }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            bytes.append(UInt8(digits[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    static func hexValue(_ value: JSONValue, field: String, bytes count: Int) throws(ParseError) -> Int {
        guard let text = value.stringValue else { throw ParseError(message: "\(field) is a hex string of \(count * 2) digits") }
        let bytes = try hex(text, field: field)
        guard bytes.count == count else { throw ParseError(message: "\(field) is a hex string of \(count * 2) digits") }
        return bytes.reduce(0) { $0 << 8 | Int($1) }
    }
}
