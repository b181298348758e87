import Testing

@testable import ArgumentParsing

@Suite("Typed values")
struct TypedValueTests {
    @Test func intRange() throws {
        #expect(try SampleProgram.run("enroll a -c 6").int("captures", range: 1...6) == 6)
        let parsed = try SampleProgram.run("enroll a -c 7")
        #expect(throws: UsageError(.invalidValue(subject: "--captures <N>", value: "7", expected: "an integer from 1 to 6"),
                                   programName: "fpmod", commandPath: ["enroll"])) {
            try parsed.int("captures", range: 1...6)
        }
        let notANumber = try SampleProgram.run("enroll a -c three")
        #expect(throws: UsageError.self) { try notANumber.int("captures") }
    }

    @Test(arguments: [("0x1234ABCD", UInt32(0x1234_ABCD)), ("1234abcd", 0x1234_ABCD), ("FFFFFFFF", 0xFFFF_FFFF),
                      ("0", 0), ("0X0a", 10)])
    func hexAccepted(text: String, value: UInt32) {
        #expect(ValueParsing.hexUInt32(text) == value)
    }

    @Test(arguments: ["", "0x", "123456789", "0xFFFFFFFFF", "12g4", "-1", "+1", " 1", "0x-1"])
    func hexRejected(text: String) {
        #expect(ValueParsing.hexUInt32(text) == nil)
    }

    @Test func hexAccessorNamesTheEnvironmentVariable() throws {
        let parsed = try SampleProgram.run("enroll a", environment: ["FPMOD_PASSWORD": "xyz"])
        do {
            _ = try parsed.hexUInt32("password")
            Issue.record("expected an error")
        } catch {
            #expect(error.summary == "The value 'xyz' is invalid for 'FPMOD_PASSWORD': expected 1 to 8 hexadecimal digits, e.g. 0xFFFFFFFF.")
        }
        #expect(try SampleProgram.run("enroll a").hexUInt32("address") == 0xFFFF_FFFF)
        #expect(try SampleProgram.run("enroll a").hexUInt32("password") == nil)
    }

    @Test(arguments: [("500ms", Duration.milliseconds(500)), ("10s", .seconds(10)), ("1.5s", .milliseconds(1500)),
                      ("2m", .seconds(120)), ("1h", .seconds(3600)), ("0", .zero), ("0.001s", .milliseconds(1)),
                      ("0.25m", .seconds(15)), ("1.000000001s", .nanoseconds(1_000_000_001))])
    func durationsAccepted(text: String, value: Duration) {
        #expect(ValueParsing.duration(text) == value)
    }

    @Test(arguments: ["", "10", "s", "-1s", "1.s", ".5s", "1.5.0s", "10 s", "5d", "1.0000000001s", "99999999999999h"])
    func durationsRejected(text: String) {
        #expect(ValueParsing.duration(text) == nil)
    }

    @Test func durationAccessor() throws {
        #expect(try SampleProgram.run("enroll a").duration("timeout") == .seconds(10))
        let bad = try SampleProgram.run("enroll a --timeout 10")
        #expect(throws: UsageError.self) { try bad.duration("timeout") }
    }

    @Test func choiceAsEnum() throws {
        #expect(try SampleProgram.run("sim --profile r503").choice("profile", as: SampleProgram.Profile.self) == .r503)
        #expect(try SampleProgram.run("sim").choice("profile", as: SampleProgram.Profile.self) == .r307)
        // A free-form option read as an enum still reports the allowed values.
        let parsed = try SampleProgram.run("enroll a --finger r999")
        do {
            _ = try parsed.choice("finger", as: SampleProgram.Profile.self)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .invalidValue(subject: "--finger <LABEL>", value: "r999", expected: "one of 'r307', 'as608', 'r503'"))
        }
    }

    @Test func typedOnPositional() throws {
        let parsed = try SampleProgram.run("enroll 12x")
        #expect(throws: UsageError(.invalidValue(subject: "<name>", value: "12x", expected: "an integer"),
                                   programName: "fpmod", commandPath: ["enroll"])) {
            try parsed.int("name")
        }
    }

    @Test func editDistance() {
        #expect(Suggestions.editDistance("kitten", "sitting") == 3)
        #expect(Suggestions.editDistance("", "abc") == 3)
        #expect(Suggestions.editDistance("same", "same") == 0)
        #expect(Suggestions.closest(to: "idnetify", among: ["identify", "enroll"]) == "identify")
        #expect(Suggestions.closest(to: "xyz", among: ["identify", "enroll"]) == nil)
    }
}
