import Testing

@testable import ArgumentParsing

@Suite("Usage errors")
struct UsageErrorTests {
    @Test func unknownOptionSuggestsTheClosest() throws {
        let error = try #require(SampleProgram.usageError("enroll alice --fingr x"))
        #expect(error.kind == .unknownOption("--fingr", suggestion: "--finger"))
        #expect(error.description == """
            Error: Unknown option '--fingr'. Did you mean '--finger'?
            See 'fpmod enroll --help'.
            """)
        #expect(error.exitCode == .usage)
        #expect(error.exitCode.rawValue == 64)
    }

    @Test func unknownOptionSuggestsAGlobalOneAndByPrefix() {
        #expect(SampleProgram.usageError("enroll a --prot x")?.kind == .unknownOption("--prot", suggestion: "--port"))
        #expect(SampleProgram.usageError("enroll a --capt 3")?.kind == .unknownOption("--capt", suggestion: "--captures"))
        #expect(SampleProgram.usageError("enroll a --zzzzzz")?.kind == .unknownOption("--zzzzzz", suggestion: nil))
    }

    @Test func commandOptionBeforeTheCommandIsUnknown() {
        let error = SampleProgram.usageError("--finger x enroll a")
        #expect(error?.kind == .unknownOption("--finger", suggestion: nil))
        #expect(error?.hint == "See 'fpmod --help'.")
    }

    @Test func singleDashLongNameSuggestsDoubleDash() {
        #expect(SampleProgram.usageError("enroll a -finger x")?.kind == .unknownOption("-f", suggestion: "--finger"))
    }

    @Test func missingValue() {
        #expect(SampleProgram.usageError("enroll a --finger")?.kind == .missingValue(option: "--finger <LABEL>"))
        #expect(SampleProgram.usageError("enroll --finger --admin a")?.kind == .missingValue(option: "--finger <LABEL>"))
        #expect(SampleProgram.usageError("enroll a -c")?.kind == .missingValue(option: "-c <N>"))
    }

    @Test func missingAndUnexpectedArguments() throws {
        let missing = try #require(SampleProgram.usageError("enroll --admin"))
        #expect(missing.kind == .missingArgument("<name>"))
        #expect(missing.summary == "Missing expected argument '<name>'.")
        #expect(SampleProgram.usageError("enroll a b")?.kind == .unexpectedArgument("b"))
    }

    @Test func flagWithValue() {
        #expect(SampleProgram.usageError("enroll a --admin=yes")?.kind == .flagWithValue("--admin"))
    }

    @Test func unknownCommandWithSuggestion() throws {
        let error = try #require(SampleProgram.usageError("enrol alice"))
        #expect(error.kind == .unknownCommand("enrol", suggestion: "enroll"))
        #expect(error.message == "Unknown command 'enrol'. Did you mean 'enroll'?\nSee 'fpmod --help'.")
        #expect(SampleProgram.usageError("config chek")?.kind == .unknownCommand("chek", suggestion: "check"))
        #expect(SampleProgram.usageError("config chek")?.hint == "See 'fpmod config --help'.")
    }

    @Test func missingCommandAndSubcommand() throws {
        #expect(SampleProgram.usageError("--json")?.kind == .missingCommand(choices: ["enroll", "delete", "sim", "config"]))
        let group = try #require(SampleProgram.usageError("config"))
        #expect(group.summary == "Missing a subcommand of 'config': one of check.")
    }

    @Test func choicesAreCheckedWhileParsing() throws {
        let error = try #require(SampleProgram.usageError("sim --profile r308"))
        #expect(error.summary == "The value 'r308' is invalid for '--profile <NAME>': expected one of 'r307', 'as608', 'r503'.")
        let fromEnvironment = SampleProgram.usageError("sim", environment: ["FPMOD_PROFILE": "zfm"])
        #expect(fromEnvironment?.kind == .invalidValue(subject: "FPMOD_PROFILE", value: "zfm", expected: "one of 'r307', 'as608', 'r503'"))
    }

    @Test func helpFlagWinsOverOtherMistakes() throws {
        let outcome = try SampleProgram.parser().parse(["enroll", "--bogus", "--help"])
        guard case .help(let text) = outcome else { Issue.record("expected help, got \(outcome)"); return }
        #expect(text.hasPrefix("OVERVIEW: Enroll a finger for a user."))
    }

    @Test func exitCodesFollowSysexits() {
        let expected: [ExitCode: Int32] = [
            .ok: 0, .denied: 1, .usage: 64, .dataError: 65, .unavailable: 69, .ioError: 74,
            .tryLater: 75, .permission: 77, .config: 78,
        ]
        for code in ExitCode.allCases { #expect(code.rawValue == expected[code]) }
        #expect(ExitCode.noMatch == .denied)
    }
}
