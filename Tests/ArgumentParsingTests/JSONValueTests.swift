import Testing

@testable import ArgumentParsing

@Suite("JSON output")
struct JSONValueTests {
    @Test func keysAreSortedAndTypesStayDistinct() {
        let value: JSONValue = ["slot": 3, "matched": true, "score": 87.5, "user": "alice", "finger": nil,
                                "counts": [1, 0, false]]
        #expect(value.encoded == #"{"counts":[1,0,false],"finger":null,"matched":true,"score":87.5,"slot":3,"user":"alice"}"#)
    }

    @Test func nestedObjectsAreSortedToo() {
        let value: JSONValue = ["b": ["z": 1, "a": 2], "a": []]
        #expect(value.encoded == #"{"a":[],"b":{"a":2,"z":1}}"#)
    }

    @Test func stringsAreEscaped() {
        let value = JSONValue.string("quote\" back\\ nl\n tab\t bell\u{07} del\u{7F} é 👍")
        #expect(value.encoded == #""quote\" back\\ nl\n tab\t bell\u0007 del\u007f é 👍""#)
    }

    @Test func numbers() {
        #expect(JSONValue.double(3).encoded == "3")
        #expect(JSONValue.double(-0.5).encoded == "-0.5")
        #expect(JSONValue.double(.nan).encoded == "null")
        #expect(JSONValue.double(.infinity).encoded == "null")
        #expect(JSONValue.double(1e20).encoded == "1e+20")
        #expect(JSONValue.int(Int64.min).encoded == "-9223372036854775808")
        #expect(JSONValue(UInt32.max).encoded == "4294967295")
        #expect(JSONValue(UInt8(7)) == .int(7))
        #expect(JSONValue(nil as String?) == .null)
    }

    @Test func prettyForm() {
        let value: JSONValue = ["b": [1, 2], "a": [:] as JSONValue, "c": "x"]
        #expect(value.prettyEncoded == """
            {
              "a": {},
              "b": [
                1,
                2
              ],
              "c": "x"
            }
            """)
    }

    @Test func outputLineEndsInNewline() {
        #expect(JSONOutput.line(["ok": true]) == "{\"ok\":true}\n")
    }
}
