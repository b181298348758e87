import Testing

@testable import ArgumentParsing

@Suite("Parsing command lines")
struct ParsingTests {
    @Test func commandWithPositionalAndDefaults() throws {
        let parsed = try SampleProgram.run("enroll alice")
        #expect(parsed.path == ["enroll"])
        #expect(parsed.positional(0) == "alice")
        #expect(parsed.string("name") == "alice")
        #expect(parsed.string("finger") == "right-index")
        #expect(try parsed.int("captures", range: 1...6) == 3)
        #expect(parsed.flag("admin") == false)
        #expect(parsed.isExplicit("finger") == false)
    }

    @Test func longOptionsWithSpaceOrEquals() throws {
        let parsed = try SampleProgram.run("enroll --finger=left-thumb --captures 5 --admin bob")
        #expect(parsed.string("finger") == "left-thumb")
        #expect(try parsed.int("captures") == 5)
        #expect(parsed.flag("admin"))
        #expect(parsed.isExplicit("finger") && parsed.isExplicit("admin"))
        #expect(parsed.positionals == ["bob"])
    }

    @Test func equalsValueMayContainEqualsAndBeEmpty() throws {
        #expect(try SampleProgram.run("enroll --finger=a=b x").string("finger") == "a=b")
        #expect(try SampleProgram.run("enroll --finger= x").string("finger") == "")
    }

    @Test func globalOptionsBeforeAndAfterTheCommand() throws {
        let before = try SampleProgram.run("--port /dev/ttyUSB0 --json enroll alice")
        let after = try SampleProgram.run("enroll alice --json --port /dev/ttyUSB0")
        for parsed in [before, after] {
            #expect(parsed.string("port") == "/dev/ttyUSB0")
            #expect(parsed.flag("json"))
            #expect(parsed.positional(0) == "alice")
        }
    }

    @Test func shortOptionsAttachedSeparateAndClustered() throws {
        #expect(try SampleProgram.run("enroll -c 4 a").int("captures") == 4)
        #expect(try SampleProgram.run("enroll -c4 a").int("captures") == 4)
        #expect(try SampleProgram.run("-p/dev/ttyAMA0 enroll a").string("port") == "/dev/ttyAMA0")
        let clustered = try SampleProgram.run("enroll -vvc2 a")
        #expect(clustered.flagCount("verbose") == 2)
        #expect(try clustered.int("captures") == 2)
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try SampleProgram.run("delete -- --json -v")
        #expect(parsed.strings("names") == ["--json", "-v"])
        #expect(parsed.flag("json") == false)
    }

    @Test func singleDashAndNegativeNumbersArePositional() throws {
        #expect(try SampleProgram.run("delete - -5").positionals == ["-", "-5"])
    }

    @Test func repeatableOptionAccumulates() throws {
        let parsed = try SampleProgram.run("delete a b --tag one --tag=two")
        #expect(parsed.strings("tag") == ["one", "two"])
        #expect(parsed.string("tag") == "two")
        #expect(parsed.strings("names") == ["a", "b"])
    }

    @Test func nonRepeatableOptionGivenTwiceIsAnError() {
        let error = SampleProgram.usageError("enroll a --finger x --finger y")
        #expect(error?.kind == .duplicateOption("--finger"))
    }

    @Test func environmentFallbackAndPrecedence() throws {
        let environment = ["FPMOD_PORT": "/dev/ttyS5", "FPMOD_SIM": "1"]
        let fromEnvironment = try SampleProgram.run("enroll a", environment: environment)
        #expect(fromEnvironment.string("port") == "/dev/ttyS5")
        #expect(fromEnvironment.flag("sim"))
        #expect(fromEnvironment.isExplicit("port") == false)
        let fromCommandLine = try SampleProgram.run("enroll a --port /dev/ttyS1", environment: environment)
        #expect(fromCommandLine.string("port") == "/dev/ttyS1")
        #expect(try SampleProgram.run("enroll a").string("port") == "/dev/ttyS0")
        #expect(try SampleProgram.run("enroll a", environment: ["FPMOD_SIM": "0"]).flag("sim") == false)
    }

    @Test func twoWordCommand() throws {
        let parsed = try SampleProgram.run("config check /etc/fpmod.json")
        #expect(parsed.path == ["config", "check"])
        #expect(parsed.string("file") == "/etc/fpmod.json")
        #expect(try SampleProgram.run("config check").string("file") == nil)
    }

    @Test func optionalAndRepeatingArguments() throws {
        #expect(try SampleProgram.run("sim").positional(0) == nil)
        #expect(SampleProgram.usageError("delete")?.kind == .missingArgument("<names>"))
        #expect(try SampleProgram.run("delete a b c").strings("names") == ["a", "b", "c"])
    }

    @Test func versionFlag() throws {
        #expect(try SampleProgram.parser().parse(["--version"]) == .version("fpmod 0.1.0"))
    }

    @Test func requireThrowsForAbsentValue() throws {
        let parsed = try SampleProgram.run("enroll a")
        #expect(throws: UsageError.self) { try parsed.require("password") }
        #expect(try parsed.require("finger") == "right-index")
        #expect(parsed.hint == "See 'fpmod enroll --help'.")
    }
}
