import Foundation

/// Checks a config file's JSON text before `JSONSerialization` reads it, for what that parser
/// does not say: where a syntax error is (line and column) and which keys appear twice in one
/// object (JSONSerialization keeps one of them silently, so a setting could vanish unseen).
/// A plain recursive descent over the UTF-8 bytes (RFC 8259); it builds nothing.
struct LockConfigJSONSyntax {
    struct Position: Sendable, CustomStringConvertible {
        var line = 1
        var column = 1
        var description: String { "line \(line), column \(column)" }
    }

    /// The first syntax error, "(file) line L, column C: …".
    private(set) var syntaxError: String?
    /// "policy.graceSeconds: the key appears twice, at line 3, column 5 and line 7, column 5; …".
    private(set) var duplicateKeys: [String] = []
    /// Where each key's value starts, by key path (`access.timeZone`), so a problem with a
    /// value can say where it is.
    private(set) var valuePositions: [String: Position] = [:]

    private let bytes: [UInt8]
    private var index = 0
    private var position = Position()

    private struct Stop: Error {}

    init(_ data: Data) {
        bytes = [UInt8](data)
        do {
            skipWhitespace()
            try value(path: "")
            skipWhitespace()
            if index < bytes.count { try fail("unexpected \(describe(bytes[index])) after the end of the top-level value") }
        } catch {
            // `fail` recorded the message.
        }
    }

    // MARK: Grammar

    private mutating func value(path: String) throws {
        guard index < bytes.count else { try fail("the file ends where a value was expected; check for a missing closing brace or bracket") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try object(path: path)
        case UInt8(ascii: "["): try array(path: path)
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: try fail("expected a value (object, array, string, number, true, false or null), found \(describe(bytes[index]))")
        }
    }

    private mutating func object(path: String) throws {
        advance()  // {
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { advance(); return }
        var seen: [String: Position] = [:]
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                try fail(peek(UInt8(ascii: "}")) ? "a comma before '}' (trailing commas are not JSON); remove it"
                         : "expected a key in double quotes, found \(describeHere())")
            }
            let keyPosition = position
            let key = try string()
            let keyPath = path.isEmpty ? key : "\(path).\(key)"
            if let first = seen[key] {
                duplicateKeys.append("\(keyPath): the key appears twice, at \(first) and at \(keyPosition); keep only one")
            } else {
                seen[key] = keyPosition
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { try fail("expected ':' after the key \"\(key)\", found \(describeHere())") }
            advance()
            skipWhitespace()
            if valuePositions[keyPath] == nil { valuePositions[keyPath] = position }
            try value(path: keyPath)
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { advance(); continue }
            if peek(UInt8(ascii: "}")) { advance(); return }
            if index >= bytes.count { try fail("the file ends before this object is closed; add the missing '}'") }
            try fail("expected ',' or '}' after the value of \"\(key)\", found \(describeHere()); check for a missing comma")
        }
    }

    private mutating func array(path: String) throws {
        advance()  // [
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { advance(); return }
        var element = 0
        while true {
            skipWhitespace()
            if peek(UInt8(ascii: "]")) { try fail("a comma before ']' (trailing commas are not JSON); remove it") }
            try value(path: "\(path)[\(element)]")
            element += 1
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { advance(); continue }
            if peek(UInt8(ascii: "]")) { advance(); return }
            if index >= bytes.count { try fail("the file ends before this array is closed; add the missing ']'") }
            try fail("expected ',' or ']' in the array, found \(describeHere()); check for a missing comma")
        }
    }

    private mutating func string() throws -> String {
        advance()  // "
        var scalars: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                advance()
                return String(decoding: scalars, as: UTF8.self)
            }
            if byte < 0x20 { try fail("a control character (or line break) inside a string; close the string's quote or write it as \\n") }
            if byte == UInt8(ascii: "\\") {
                advance()
                guard index < bytes.count else { break }
                let escaped = bytes[index]
                if escaped == UInt8(ascii: "u") {
                    advance()
                    for _ in 0..<4 {
                        guard index < bytes.count, (bytes[index] as UInt8).isHexDigit else {
                            try fail("\\u must be followed by four hex digits")
                        }
                        advance()
                    }
                    continue
                }
                guard Array("\"\\/bfnrt".utf8).contains(escaped) else { try fail("unknown escape \\\(describe(escaped)) in a string") }
                scalars.append(escaped)
                advance()
                continue
            }
            scalars.append(byte)
            advance()
        }
        try fail("the file ends inside a string; close it with a double quote")
    }

    private mutating func number() throws {
        if peek(UInt8(ascii: "-")) { advance() }
        guard digits() > 0 else { try fail("a number needs digits, found \(describeHere())") }
        if peek(UInt8(ascii: ".")) {
            advance()
            guard digits() > 0 else { try fail("a decimal point must be followed by digits") }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            advance()
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { advance() }
            guard digits() > 0 else { try fail("an exponent needs digits") }
        }
    }

    private mutating func digits() -> Int {
        var count = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            advance()
            count += 1
        }
        return count
    }

    private mutating func literal(_ word: String) throws {
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else {
                try fail("expected \(word); strings need double quotes")
            }
            advance()
        }
    }

    // MARK: Reading

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\n") {
            position.line += 1
            position.column = 1
        } else if byte & 0xC0 != 0x80 {
            // Columns count characters, not the continuation bytes of a UTF-8 sequence.
            position.column += 1
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { advance() }
    }

    private func describeHere() -> String {
        index < bytes.count ? describe(bytes[index]) : "the end of the file"
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02X", byte)
    }

    private mutating func fail(_ message: String) throws -> Never {
        syntaxError = "(file) \(position): not valid JSON: \(message)"
        throw Stop()
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
