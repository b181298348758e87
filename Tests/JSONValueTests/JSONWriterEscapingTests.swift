import JSONValue
import Testing

/// RFC 8259 section 7: quotation mark, reverse solidus and U+0000–U+001F must be escaped in a
/// string. The writer escapes those, and DEL, C1 and the bidi controls as well, so `--json`
/// printed on a terminal cannot act on it; a parser gets the same text back.
@Suite struct JSONWriterEscapingTests {
    @Test func everyControlRFC8259NamesIsEscaped() throws {
        for value in UInt32(0)...0x1F {
            let scalar = try #require(Unicode.Scalar(value))
            let encoded = JSONValue.string("a\(Character(scalar))b").encoded
            #expect(!encoded.unicodeScalars.contains(scalar), "U+\(String(value, radix: 16)) raw in \(encoded)")
            let parsed = try JSONValue(parsing: encoded)
            #expect(parsed == .string("a\(Character(scalar))b"))
        }
        #expect(JSONValue.string("\u{1B}[31m\u{07}").encoded == #""\u001b[31m\u0007""#)
        #expect(JSONValue.string("q\"b\\").encoded == #""q\"b\\""#)
    }

    @Test func delC1AndBidiControlsAreEscapedAndComeBackTheSame() throws {
        let text = "del\u{7F} csi\u{9B} nel\u{85} rlo\u{202E} lri\u{2066} ls\u{2028}"
        let encoded = JSONValue.string(text).encoded
        #expect(encoded == #""del\u007f csi\u009b nel\u0085 rlo\u202e lri\u2066 ls\u2028""#)
        let parsed = try JSONValue(parsing: encoded)
        #expect(parsed == .string(text))
    }

    @Test func lettersOfEveryScriptStayAsTheyAre() {
        #expect(JSONValue.string("Zoë 山田 👍").encoded == "\"Zoë 山田 👍\"")
    }
}
