import Foundation

/// Walks a JSON object decoded by `JSONSerialization`, reading typed values and collecting one
/// problem per bad key, each starting with the key's path (`gpio.lines.relay.offset: …`).
struct ConfigReader {
    private(set) var problems: [String] = []

    mutating func problem(_ path: String, _ message: String) {
        problems.append("\(path): \(message)")
    }

    /// The object at `path`, or nil (with a problem) when it is something else.
    mutating func object(_ value: Any, _ path: String) -> [String: Any]? {
        if let object = value as? [String: Any] { return object }
        problem(path, "expected an object ({…}), got \(Self.describe(value))")
        return nil
    }

    /// Reports every key of `object` not in `known`, with the closest known key as a hint.
    mutating func rejectUnknownKeys(_ object: [String: Any], known: [String], at path: String) {
        for key in object.keys.sorted() where !known.contains(key) {
            let hint = Self.closest(key, in: known).map { "did you mean '\($0)'? " } ?? ""
            problem(Self.join(path, key), "unknown key; \(hint)known keys here: \(known.joined(separator: ", "))")
        }
    }

    mutating func string(_ value: Any, _ path: String, nonEmpty: Bool = true) -> String? {
        guard let text = value as? String else {
            problem(path, "expected a string, got \(Self.describe(value))")
            return nil
        }
        if nonEmpty && text.isEmpty {
            problem(path, "must not be empty")
            return nil
        }
        return text
    }

    mutating func bool(_ value: Any, _ path: String) -> Bool? {
        guard Self.isBool(value), let flag = value as? Bool else {
            problem(path, "expected true or false, got \(Self.describe(value))")
            return nil
        }
        return flag
    }

    mutating func number(_ value: Any, _ path: String) -> Double? {
        guard !Self.isBool(value), let number = value as? NSNumber else {
            problem(path, "expected a number, got \(Self.describe(value))")
            return nil
        }
        return number.doubleValue
    }

    mutating func integer(_ value: Any, _ path: String, range: ClosedRange<Int>? = nil, unit: String = "") -> Int? {
        guard let number = number(value, path) else { return nil }
        guard number.rounded() == number, abs(number) < 1e15 else {
            problem(path, "\(number) is not a whole number")
            return nil
        }
        let integer = Int(number)
        if let range, !range.contains(integer) {
            problem(path, "\(integer) is out of range; use \(range.lowerBound) to \(range.upperBound)\(unit)")
            return nil
        }
        return integer
    }

    /// A 32-bit value as a number or a hex string (`"0xA1B2C3D4"` or `"A1B2C3D4"`).
    mutating func uint32(_ value: Any, _ path: String) -> UInt32? {
        if let text = value as? String {
            let digits = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
            if let parsed = UInt32(digits, radix: 16), !digits.isEmpty { return parsed }
            problem(path, "'\(text)' is not a 32-bit hex value; write it like \"0xFFFFFFFF\"")
            return nil
        }
        guard let number = integer(value, path) else { return nil }
        guard let parsed = UInt32(exactly: number) else {
            problem(path, "\(number) does not fit in 32 bits; use 0 to 4294967295 or a hex string")
            return nil
        }
        return parsed
    }

    /// An argv array: at least one non-empty string.
    mutating func argv(_ value: Any, _ path: String) -> [String]? {
        guard let items = value as? [Any], items.allSatisfy({ $0 is String }),
              let strings = items as? [String] else {
            problem(path, "expected an array of strings (the command and its arguments, no shell), got \(Self.describe(value))")
            return nil
        }
        guard let first = strings.first, !first.isEmpty else {
            problem(path, "the command is empty; give at least the program, e.g. [\"/usr/local/bin/notify\", \"door\"]")
            return nil
        }
        return strings
    }

    mutating func choice<T: RawRepresentable>(_ value: Any, _ path: String, _ type: T.Type, choices: [String])
        -> T? where T.RawValue == String {
        guard let text = string(value, path) else { return nil }
        guard let chosen = T(rawValue: text) else {
            problem(path, "'\(text)' is not one of \(choices.joined(separator: ", "))")
            return nil
        }
        return chosen
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    static func isBool(_ value: Any) -> Bool {
        guard let number = value as? NSNumber, value is Bool else { return false }
        return String(cString: number.objCType) == "c"
    }

    static func describe(_ value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case let text as String: return "the string \"\(text.prefix(40))\""
        case _ where isBool(value): return (value as? Bool) == true ? "true" : "false"
        case let number as NSNumber: return "the number \(number)"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "\(type(of: value))"
        }
    }

    /// The known key within edit distance 2 (typos such as `graceSecond`), if any.
    static func closest(_ key: String, in known: [String]) -> String? {
        let scored = known.map { ($0, distance(key.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
