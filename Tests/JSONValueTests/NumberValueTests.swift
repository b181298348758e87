import JSONValue
import Testing

struct NumberValueTests {
    @Test func anyNumberReadsAsADoubleAndNothingElseDoes() throws {
        #expect(try JSONValue(parsing: "3").numberValue == 3)
        #expect(try JSONValue(parsing: "2.5").numberValue == 2.5)
        #expect(JSONValue.double(.nan).numberValue == nil)
        #expect(try JSONValue(parsing: "\"3\"").numberValue == nil)
        #expect(try JSONValue(parsing: "true").numberValue == nil)
    }
}
