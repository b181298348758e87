import Testing
import JSONValue

struct JSONParserTests {
    typealias Reason = JSONParseError.Reason

    func parse(_ text: String) throws(JSONParseError) -> JSONValue { try JSONValue(parsing: text) }

    func error(_ bytes: [UInt8]) -> JSONParseError? {
        do { _ = try JSONValue(parsing: bytes); return nil } catch { return error }
    }

    func error(_ text: String) -> JSONParseError? { error(Array(text.utf8)) }

    // MARK: Valid texts

    @Test func literalsAndWhitespace() throws {
        #expect(try parse("null") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse("false") == .bool(false))
        #expect(try parse(" \t\r\n true \n") == .bool(true))
    }

    @Test func integersAreIntsAndEverythingElseIsADouble() throws {
        #expect(try parse("0") == .int(0))
        #expect(try parse("-0") == .int(0))
        #expect(try parse("123") == .int(123))
        #expect(try parse("-9223372036854775808") == .int(.min))
        #expect(try parse("9223372036854775807") == .int(.max))
        #expect(try parse("9223372036854775808") == .double(9223372036854775808))
        #expect(try parse("1.5") == .double(1.5))
        #expect(try parse("1e3") == .double(1000))
        #expect(try parse("-1.25E-2") == .double(-0.0125))
        #expect(try parse("0.5e+1") == .double(5))
    }

    @Test func stringEscapes() throws {
        #expect(try parse(#""""#) == .string(""))
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{08}\u{0C}\n\r\t"))
        #expect(try parse(#""\u00e9\u00C9\u0000""#) == .string("éÉ\u{0}"))
        // A surrogate pair is one scalar outside the BMP.
        #expect(try parse(#""\uD83D\uDC4D""#) == .string("👍"))
        #expect(try parse(#""\ud834\udd1e""#) == .string("𝄞"))
        #expect(try parse("\"é👍 ü\"") == .string("é👍 ü"))
    }

    @Test func aUserNamedTrueStaysAString() throws {
        let reply = try parse(#"{"ok":true,"user":"true","slot":1,"admin":"1","count":"0"}"#)
        #expect(reply["user"] == .string("true"))
        #expect(reply["user"]?.stringValue == "true")
        #expect(reply["user"]?.boolValue == nil)
        #expect(reply["ok"]?.boolValue == true)
        // 1 is a number, not a Bool, and true is no number (Foundation's NSNumber answers both).
        #expect(reply["slot"]?.boolValue == nil)
        #expect(reply["ok"]?.intValue == nil)
        #expect(reply["admin"]?.intValue == nil)
        #expect(reply["count"]?.stringValue == "0")
    }

    @Test func nesting() throws {
        let value = try parse(#"{"a":[1,{"b":null},[]],"c":{}, "d" : [ true , false ] }"#)
        #expect(value == ["a": [1, ["b": nil], []], "c": [:], "d": [true, false]])
        #expect(value["a"]?.arrayValue?.count == 3)
        #expect(value["c"]?.objectValue?.isEmpty == true)
        #expect(value["missing"] == nil)
        #expect(JSONValue.int(1)["a"] == nil)
    }

    @Test func whatTheWriterWritesReadsBackEqual() throws {
        let values: [JSONValue] = [
            ["slot": 3, "matched": true, "score": 87.5, "user": "alice", "finger": nil, "list": [1, "two", [3]]],
            .string("quote\" back\\ nl\n tab\t bell\u{07} del\u{7F} é 👍 \u{1F}"),
            .double(-0.125), .double(1e-7), .int(.min), [:], [],
        ]
        for value in values {
            #expect(try JSONValue(parsing: value.encoded) == value, "\(value.encoded)")
            #expect(try JSONValue(parsing: value.prettyEncoded) == value, "\(value.prettyEncoded)")
        }
    }

    @Test func nestingUpToTheLimitIsReadAndOneDeeperIsRefused() throws {
        let limit = JSONValue.defaultMaximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try JSONValue(parsing: deepest) }
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(error(tooDeep) == JSONParseError(offset: limit, reason: .tooDeep(limit: limit)))
        let objects = String(repeating: #"{"a":"#, count: limit + 1) + "1" + String(repeating: "}", count: limit + 1)
        #expect(error(objects) == JSONParseError(offset: 5 * limit, reason: .tooDeep(limit: limit)))
        // A hostile peer's flood of brackets is refused, not a stack overflow.
        #expect(error(String(repeating: "[", count: 1_000_000))?.reason == .tooDeep(limit: limit))
        #expect(error(String(repeating: "[", count: 3) + "]]]")?.reason == nil)
        #expect(throws: JSONParseError(offset: 2, reason: .tooDeep(limit: 2))) { try JSONValue(parsing: "[[[]]]", maximumDepth: 2) }
    }

    // MARK: Invalid texts, each with the byte offset of the first byte that cannot be read

    @Test(arguments: [
        ("", 0, Reason.unexpectedEnd),
        ("   ", 3, .unexpectedEnd),
        ("tru", 3, .unexpectedEnd),
        ("trux", 3, .unexpectedByte(UInt8(ascii: "x"), expected: "true")),
        ("nul", 3, .unexpectedEnd),
        ("True", 0, .unexpectedByte(UInt8(ascii: "T"), expected: "a value")),
        ("01", 1, .trailingData),
        ("+1", 0, .unexpectedByte(UInt8(ascii: "+"), expected: "a value")),
        (".5", 0, .unexpectedByte(UInt8(ascii: "."), expected: "a value")),
        ("1.", 2, .unexpectedEnd),
        ("1.e3", 2, .unexpectedByte(UInt8(ascii: "e"), expected: "a digit after '.'")),
        ("1e", 2, .unexpectedEnd),
        ("1e+", 3, .unexpectedEnd),
        ("1ex", 2, .unexpectedByte(UInt8(ascii: "x"), expected: "a digit in the exponent")),
        ("-", 1, .unexpectedEnd),
        ("-a", 1, .unexpectedByte(UInt8(ascii: "a"), expected: "a digit")),
        ("0x10", 1, .trailingData),
        ("1e400", 0, .numberOutOfRange),
        ("-1e400", 0, .numberOutOfRange),
        ("NaN", 0, .unexpectedByte(UInt8(ascii: "N"), expected: "a value")),
        ("Infinity", 0, .unexpectedByte(UInt8(ascii: "I"), expected: "a value")),
        ("[1,]", 3, .unexpectedByte(UInt8(ascii: "]"), expected: "a value")),
        ("[1 2]", 3, .unexpectedByte(UInt8(ascii: "2"), expected: "',' or ']'")),
        ("[", 1, .unexpectedEnd),
        ("[1", 2, .unexpectedEnd),
        (#"{"a":1,}"#, 7, .unexpectedByte(UInt8(ascii: "}"), expected: "a key in quotes")),
        (#"{"a" 1}"#, 5, .unexpectedByte(UInt8(ascii: "1"), expected: "':'")),
        (#"{"a":1 "b":2}"#, 7, .unexpectedByte(UInt8(ascii: "\""), expected: "',' or '}'")),
        ("{a:1}", 1, .unexpectedByte(UInt8(ascii: "a"), expected: "a key in quotes")),
        ("{1:1}", 1, .unexpectedByte(UInt8(ascii: "1"), expected: "a key in quotes")),
        (#"{"a":1,"a":2}"#, 7, .duplicateKey("a")),
        (#"{"user":"bob"}x"#, 14, .trailingData),
        ("[1] [2]", 4, .trailingData),
        ("'a'", 0, .unexpectedByte(UInt8(ascii: "'"), expected: "a value")),
        (#""abc"#, 4, .unexpectedEnd),
        (#""a\x""#, 2, .invalidEscape),
        (#""a\'""#, 2, .invalidEscape),
        (#""\u12""#, 5, .unexpectedByte(UInt8(ascii: "\""), expected: "a hex digit")),
        (#""\u12G4""#, 5, .unexpectedByte(UInt8(ascii: "G"), expected: "a hex digit")),
        (#""\uD83D""#, 1, .unpairedSurrogate),
        (#""\uD83Dx""#, 1, .unpairedSurrogate),
        (#""\uD83D\u0041""#, 7, .unpairedSurrogate),
        (#""\uD83D\uD83D""#, 7, .unpairedSurrogate),
        (#""\uDC4D""#, 1, .unpairedSurrogate),
        ("\"a\tb\"", 2, .unescapedControlCharacter(0x09)),
        ("\"a\nb\"", 2, .unescapedControlCharacter(0x0A)),
        ("\u{0B}1", 0, .unexpectedByte(0x0B, expected: "a value")),
        ("\u{A0}1", 0, .unexpectedByte(0xC2, expected: "a value")),
    ] as [(String, Int, Reason)])
    func refused(text: String, offset: Int, reason: Reason) {
        #expect(error(text) == JSONParseError(offset: offset, reason: reason), "\(text)")
    }

    @Test(arguments: [
        ([0x22, 0xC3, 0x22], 2),              // a lead byte, then no continuation
        ([0x22, 0xC0, 0x80, 0x22], 1),        // overlong NUL
        ([0x22, 0xE0, 0x80, 0x80, 0x22], 2),  // overlong three-byte form
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 2),  // a UTF-16 surrogate encoded in UTF-8
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 2),  // beyond U+10FFFF
        ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1),
        ([0x22, 0xFF, 0x22], 1),
        ([0x22, 0x80, 0x22], 1),              // a lone continuation byte
        ([0x22, 0xE2, 0x82, 0x22], 3),
    ] as [([UInt8], Int)])
    func invalidUTF8InsideAString(bytes: [UInt8], offset: Int) {
        #expect(error(bytes) == JSONParseError(offset: offset, reason: .invalidUTF8), "\(bytes)")
    }

    @Test func aByteOrderMarkIsNotJSON() {
        #expect(error([0xEF, 0xBB, 0xBF] + Array("1".utf8)) == JSONParseError(offset: 0, reason: .unexpectedByte(0xEF, expected: "a value")))
    }

    @Test func theMessageSaysWhereAndWhat() {
        #expect(error(#"{"ok":tru}"#)?.description == "invalid JSON at byte 9: unexpected '}'; expected true")
        #expect(error("\"a\u{01}\"")?.description == "invalid JSON at byte 2: control character byte 0x01 inside a string must be escaped")
        #expect(error(#"{"a":1,"a":2}"#)?.description == #"invalid JSON at byte 7: key "a" appears twice in one object"#)
    }

    // MARK: Byte by byte

    static let document = Array(#"{"a":[1,-2.5e3,"\uD83D\uDC4D é\n",true,false,null],"b":{},"c":"true"}"#.utf8)

    /// Every proper prefix of a document is incomplete, and says so at its own end: the reader
    /// never takes a cut-off text for a shorter value.
    @Test func everyProperPrefixEndsTooEarlyAtItsLength() throws {
        #expect(try JSONValue(parsing: Self.document)["c"] == .string("true"))
        for length in 0..<Self.document.count {
            #expect(error(Array(Self.document[..<length])) == JSONParseError(offset: length, reason: .unexpectedEnd),
                    "prefix of \(length) bytes")
        }
    }

    /// Every byte replaced by every other byte value: a value or an error inside the text,
    /// never a crash.
    @Test func everySingleByteChangeIsReadOrRefusedWithinTheText() {
        for position in Self.document.indices {
            for byte in UInt8.min...UInt8.max where byte != Self.document[position] {
                var changed = Self.document
                changed[position] = byte
                if let error = error(changed) {
                    #expect(error.offset <= changed.count, "byte \(byte) at \(position): \(error)")
                }
            }
        }
    }
}
