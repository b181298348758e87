// The reader for the writer in JSONValue.swift: what the CLI uses for the service's replies.
// Strict RFC 8259 on purpose: the replies come from a socket, and a lenient reader (or
// Foundation's, whose NSNumber answers `as? Bool` for a 1 and `as? Int` for a true) lets a
// value change its kind between the service and the CLI.

/// Why a text is not JSON, and where: `offset` is the byte (UTF-8) offset of the first byte
/// the reader could not accept.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        case unexpectedEnd
        /// A byte that cannot start or continue what the reader expected (`expected` says what).
        case unexpectedByte(UInt8, expected: String)
        case invalidUTF8
        /// A control character (below 0x20) inside a string: RFC 8259 wants it escaped.
        case unescapedControlCharacter(UInt8)
        case invalidEscape
        /// A `\u` escape of a lone UTF-16 surrogate, or a high surrogate not followed by a low one.
        case unpairedSurrogate
        /// A number beyond what a Double holds (it would read as infinity).
        case numberOutOfRange
        case duplicateKey(String)
        /// Arrays and objects nested deeper than the reader's limit.
        case tooDeep(limit: Int)
        /// Something after the one top-level value.
        case trailingData
    }

    public let offset: Int
    public let reason: Reason

    public init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String {
        let what = switch reason {
        case .unexpectedEnd: "the text ends inside a value"
        case let .unexpectedByte(byte, expected): "unexpected \(Self.show(byte)); expected \(expected)"
        case .invalidUTF8: "not UTF-8"
        case .unescapedControlCharacter(let byte): "control character \(Self.show(byte)) inside a string must be escaped"
        case .invalidEscape: "invalid escape sequence"
        case .unpairedSurrogate: "\\u escape of an unpaired UTF-16 surrogate"
        case .numberOutOfRange: "number out of range"
        case .duplicateKey(let key): "key \(JSONValue.quoted(key)) appears twice in one object"
        case .tooDeep(let limit): "nested deeper than \(limit) arrays and objects"
        case .trailingData: "more text after the JSON value"
        }
        return "invalid JSON at byte \(offset): \(what)"
    }

    private static func show(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
    }
}

extension JSONValue {
    /// How deep arrays and objects may nest by default; far beyond any reply the service
    /// writes, and shallow enough that recursion cannot exhaust a thread's stack.
    public static let defaultMaximumDepth = 64

    /// Reads one JSON text (RFC 8259): one value, whitespace around it. Integers that fit an
    /// Int64 are `.int`; every other number (a fraction, an exponent, or a larger integer) is
    /// `.double`. Duplicate keys are refused rather than one of them silently kept.
    public init(parsing text: String, maximumDepth: Int = JSONValue.defaultMaximumDepth) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8), maximumDepth: maximumDepth)
    }

    public init(parsing bytes: [UInt8], maximumDepth: Int = JSONValue.defaultMaximumDepth) throws(JSONParseError) {
        var reader = JSONReader(bytes: bytes, maximumDepth: maximumDepth)
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.offset == bytes.count else { throw JSONParseError(offset: reader.offset, reason: .trailingData) }
        self = value
    }
}

/// A recursive-descent reader over the bytes; `offset` is the next byte to read.
private struct JSONReader {
    let bytes: [UInt8]
    let maximumDepth: Int
    var offset = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private func fail(_ reason: JSONParseError.Reason, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? self.offset, reason: reason)
    }

    private func peek() throws(JSONParseError) -> UInt8 {
        guard offset < bytes.count else { throw fail(.unexpectedEnd) }
        return bytes[offset]
    }

    mutating func skipWhitespace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case let byte: throw fail(.unexpectedByte(byte, expected: "a value"))
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let expected = word.withUTF8Buffer { Array($0) }
        for byte in expected {
            guard try peek() == byte else { throw fail(.unexpectedByte(bytes[offset], expected: "\(word)")) }
            offset += 1
        }
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else { throw fail(.tooDeep(limit: maximumDepth)) }
        offset += 1  // {
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            guard try peek() == UInt8(ascii: "\"") else { throw fail(.unexpectedByte(bytes[offset], expected: "a key in quotes")) }
            let keyOffset = offset
            let key = try string()
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw fail(.unexpectedByte(bytes[offset], expected: "':'")) }
            offset += 1
            skipWhitespace()
            let member = try value(depth: depth)
            guard members.updateValue(member, forKey: key) == nil else { throw fail(.duplicateKey(key), at: keyOffset) }
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","):
                offset += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                offset += 1
                return .object(members)
            case let byte: throw fail(.unexpectedByte(byte, expected: "',' or '}'"))
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else { throw fail(.tooDeep(limit: maximumDepth)) }
        offset += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            offset += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth))
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","):
                offset += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                offset += 1
                return .array(items)
            case let byte: throw fail(.unexpectedByte(byte, expected: "',' or ']'"))
            }
        }
    }

    /// A string from its opening quote; the bytes between quotes are checked as UTF-8 here, so
    /// the error can say which byte is wrong.
    private mutating func string() throws(JSONParseError) -> String {
        offset += 1  // "
        var utf8: [UInt8] = []
        while true {
            let byte = try peek()
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                let scalar = try escape()
                utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
            case 0x00..<0x20:
                throw fail(.unescapedControlCharacter(byte))
            case 0x00..<0x80:
                utf8.append(byte)
                offset += 1
            default:
                let length = try utf8SequenceLength()
                utf8.append(contentsOf: bytes[offset..<offset + length])
                offset += length
            }
        }
    }

    /// The length of the well-formed UTF-8 sequence at `offset` (Unicode table 3-7: no
    /// overlong forms, no surrogates, nothing past U+10FFFF).
    private func utf8SequenceLength() throws(JSONParseError) -> Int {
        let lead = bytes[offset]
        let (length, secondRange): (Int, ClosedRange<UInt8>) = switch lead {
        case 0xC2...0xDF: (2, 0x80...0xBF)
        case 0xE0: (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
        case 0xED: (3, 0x80...0x9F)
        case 0xF0: (4, 0x90...0xBF)
        case 0xF1...0xF3: (4, 0x80...0xBF)
        case 0xF4: (4, 0x80...0x8F)
        default: throw fail(.invalidUTF8)
        }
        for index in 1..<length {
            guard offset + index < bytes.count else { throw fail(.unexpectedEnd, at: bytes.count) }
            let range: ClosedRange<UInt8> = index == 1 ? secondRange : 0x80...0xBF
            guard range.contains(bytes[offset + index]) else { throw fail(.invalidUTF8, at: offset + index) }
        }
        return length
    }

    /// One escape from its backslash; a `\u` high surrogate takes the `\u` low one after it.
    private mutating func escape() throws(JSONParseError) -> Unicode.Scalar {
        let start = offset
        offset += 1  // backslash
        let byte = try peek()
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hex4()
            switch unit {
            case 0xD800...0xDBFF:
                let lowStart = offset
                // A text cut off here is incomplete, not unpaired: it may go on with the low half.
                guard try peek() == UInt8(ascii: "\\") else { throw fail(.unpairedSurrogate, at: start) }
                guard offset + 1 < bytes.count else { throw fail(.unexpectedEnd, at: bytes.count) }
                guard bytes[offset + 1] == UInt8(ascii: "u") else { throw fail(.unpairedSurrogate, at: start) }
                offset += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw fail(.unpairedSurrogate, at: lowStart) }
                return Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))!
            case 0xDC00...0xDFFF:
                throw fail(.unpairedSurrogate, at: start)
            default:
                return Unicode.Scalar(UInt32(unit))!
            }
        default:
            throw fail(.invalidEscape, at: start)
        }
    }

    private mutating func hex4() throws(JSONParseError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            let byte = try peek()
            let digit: UInt8 = switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: throw fail(.unexpectedByte(byte, expected: "a hex digit"))
            }
            unit = unit << 4 | UInt16(digit)
            offset += 1
        }
        return unit
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` — no leading zeros, no `+`,
    /// no bare `.5`, no hex, no NaN or Infinity.
    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = offset
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        func at(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
        if at(offset) == UInt8(ascii: "-") { offset += 1 }
        guard let first = at(offset) else { throw fail(.unexpectedEnd) }
        guard isDigit(first) else { throw fail(.unexpectedByte(first, expected: "a digit")) }
        offset += 1
        if first != UInt8(ascii: "0") {
            while let byte = at(offset), isDigit(byte) { offset += 1 }
        }
        var integral = true
        if at(offset) == UInt8(ascii: ".") {
            integral = false
            offset += 1
            guard let byte = at(offset) else { throw fail(.unexpectedEnd) }
            guard isDigit(byte) else { throw fail(.unexpectedByte(byte, expected: "a digit after '.'")) }
            while let byte = at(offset), isDigit(byte) { offset += 1 }
        }
        if at(offset) == UInt8(ascii: "e") || at(offset) == UInt8(ascii: "E") {
            integral = false
            offset += 1
            if at(offset) == UInt8(ascii: "+") || at(offset) == UInt8(ascii: "-") { offset += 1 }
            guard let byte = at(offset) else { throw fail(.unexpectedEnd) }
            guard isDigit(byte) else { throw fail(.unexpectedByte(byte, expected: "a digit in the exponent")) }
            while let byte = at(offset), isDigit(byte) { offset += 1 }
        }
        // The grammar above is what Swift's parsers accept too, so they only convert here.
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if integral, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw fail(.numberOutOfRange, at: start) }
        return .double(value)
    }
}

extension JSONValue {
    /// The member `key` of an object; nil for a missing key or when this is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// Typed views: each is nil unless the value is of exactly that kind (a `1` is no Bool, a
    /// `"true"` no Bool either).
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// An `.int` that fits an `Int`.
    public var intValue: Int? {
        guard case .int(let value) = self else { return nil }
        return Int(exactly: value)
    }

    /// Any number as a Double: an `.int` or a finite `.double` (a reply writes whole numbers as
    /// ints, so a millisecond figure may come either way).
    public var numberValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value) where value.isFinite: value
        default: nil
        }
    }

    public var arrayValue: [JSONValue]? {
        guard case .array(let items) = self else { return nil }
        return items
    }

    public var objectValue: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return members
    }
}
