// A small JSON value with a deterministic encoder, for `--json` output. Written out by hand so
// Bool stays `true` (not `1`), integers never gain `.0`, and keys are always sorted — output
// scripts and tests can compare byte for byte.

import PrintableText

/// A JSON value.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    /// Non-finite numbers (NaN, ±infinity) have no JSON form and are written as `null`.
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Compact JSON with sorted object keys, e.g. `{"a":1,"b":[true,null]}`.
    public var encoded: String {
        var out = ""
        write(to: &out, indent: nil, depth: 0)
        return out
    }

    /// Indented JSON (two spaces) with sorted object keys, for people.
    public var prettyEncoded: String {
        var out = ""
        write(to: &out, indent: "  ", depth: 0)
        return out
    }

    private func write(to out: inout String, indent: String?, depth: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value): out += value.isFinite ? Self.number(value) : "null"
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let items):
            writeContainer(open: "[", close: "]", count: items.count, to: &out, indent: indent, depth: depth) {
                item, out in items[item].write(to: &out, indent: indent, depth: depth + 1)
            }
        case .object(let members):
            let keys = members.keys.sorted()
            writeContainer(open: "{", close: "}", count: keys.count, to: &out, indent: indent, depth: depth) {
                item, out in
                Self.writeString(keys[item], to: &out)
                out += indent == nil ? ":" : ": "
                members[keys[item]]!.write(to: &out, indent: indent, depth: depth + 1)
            }
        }
    }

    private func writeContainer(
        open: String, close: String, count: Int, to out: inout String, indent: String?, depth: Int,
        item: (Int, inout String) -> Void
    ) {
        out += open
        guard count > 0 else { return out += close }
        for index in 0..<count {
            if index > 0 { out += "," }
            if let indent { out += "\n" + String(repeating: indent, count: depth + 1) }
            item(index, &out)
        }
        if let indent { out += "\n" + String(repeating: indent, count: depth) }
        out += close
    }

    /// Integral doubles print without a fraction (`3`, not `3.0`); others use Swift's shortest
    /// round-tripping form, which is valid JSON (`0.1`, `1e-07`).
    private static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `value` as a JSON string literal, quotes included.
    public static func quoted(_ value: String) -> String {
        var out = ""
        writeString(value, to: &out)
        return out
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // RFC 8259 requires U+0000–U+001F; DEL, C1 and the bidi controls too, so JSON shown
            // on a terminal (`fpmod list --json`) cannot act on it either.
            case _ where Printable.needsEscape(scalar):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        // Last one wins for a repeated key, like assigning into a dictionary.
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue {
    /// Convenience for optionals: `nil` becomes `null`.
    public init(_ value: String?) { self = value.map(JSONValue.string) ?? .null }
    /// Any fixed-width integer (slot numbers, scores, addresses).
    public init(_ value: some BinaryInteger) { self = .int(Int64(value)) }
}

/// Something with a JSON form for `--json` output.
public protocol JSONRepresentable {
    var json: JSONValue { get }
}
