import Foundation
import Testing

@testable import ArgumentParsing

@Suite("Bash completion")
struct BashCompletionTests {
    static let script = BashCompletion(program: SampleProgram.spec).render()
    static let bashPresent = FileManager.default.isExecutableFile(atPath: "/bin/bash")

    /// COMPREPLY for each line, the last word of each being the one completed, in a directory
    /// holding `backup.fpb` and `config.json`.
    static func complete(_ lines: [[String]], script: String = script) throws -> [[String]] {
        let directory = try ExternalTools.temporaryDirectory(files: ["backup.fpb", "config.json"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try ExternalTools.complete(script: script, function: "_fpmod", lines: lines, directory: directory)
    }

    @Test func registersTheFunctionAndIsReproducible() {
        #expect(BashCompletion(program: SampleProgram.spec).functionName == "_fpmod")
        #expect(Self.script.hasSuffix("\ncomplete -F _fpmod 'fpmod'\n"))
        #expect(BashCompletion(program: SampleProgram.spec).render() == Self.script)
        #expect(BashCompletion(program: ProgramSpec(name: "my-tool", abstract: "", commands: [])).functionName == "_my_tool")
    }

    @Test(.enabled(if: BashCompletionTests.bashPresent, "no /bin/bash"))
    func passesBashSyntaxCheck() throws {
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.script.write(toFile: directory + "/fpmod.bash", atomically: true, encoding: .utf8)
        let check = try ExternalTools.run("/bin/bash", ["-n", directory + "/fpmod.bash"])
        #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
        let registered = try ExternalTools.run("/bin/bash", ["--norc", "-c", "source fpmod.bash && complete -p fpmod"], directory: directory)
        #expect(registered.stdout == "complete -F _fpmod fpmod\n")
    }

    static let cases: [(line: [String], expected: [String])] = [
        // Commands and subcommands.
        (["fpmod", ""], ["enroll", "delete", "sim", "config", "help"]),
        (["fpmod", "en"], ["enroll"]),
        (["fpmod", "config", ""], ["check"]),
        (["fpmod", "help", "c"], ["config"]),
        (["fpmod", "help", "config", ""], ["check"]),
        // Options: the command's and the global ones.
        (["fpmod", "--j"], ["--json"]),
        (["fpmod", "enroll", "--"], ["--finger", "--captures", "--timeout", "--admin", "--port", "--baud", "--address",
                                     "--password", "--sim", "--json", "--verbose", "--help", "--version"]),
        (["fpmod", "config", "check", "--v"], ["--verbose", "--version"]),
        // Choices as values, in every spelling of an option and its value.
        (["fpmod", "sim", "--profile", ""], ["r307", "as608", "r503"]),
        (["fpmod", "sim", "--profile", "a"], ["as608"]),
        (["fpmod", "sim", "--profile", "=", ""], ["r307", "as608", "r503"]),
        (["fpmod", "sim", "--profile", "="], ["r307", "as608", "r503"]),
        (["fpmod", "sim", "--profile=r"], ["--profile=r307", "--profile=r503"]),
        (["fpmod", "enroll", "--profile", ""], []),
        // PATH values and file arguments complete file names.
        (["fpmod", "--port", ""], ["backup.fpb", "config.json"]),
        (["fpmod", "-p", "c"], ["config.json"]),
        (["fpmod", "-vp", "b"], ["backup.fpb"]),
        (["fpmod", "config", "check", "c"], ["config.json"]),
        (["fpmod", "config", "check", "x.json", ""], []),
        // The word after an option taking a value is its value; after a flag it is not.
        (["fpmod", "--port", "en"], []),
        (["fpmod", "--port", "/dev/ttyUSB0", "en"], ["enroll"]),
        (["fpmod", "--port=/dev/ttyUSB0", "en"], ["enroll"]),
        (["fpmod", "--port", "=", "/dev/ttyUSB0", "en"], ["enroll"]),
        (["fpmod", "-p/dev/ttyUSB0", "en"], ["enroll"]),
        (["fpmod", "--json", "en"], ["enroll"]),
        (["fpmod", "-vv", "en"], ["enroll"]),
        (["fpmod", "enroll", "--finger", "-"], []),
        (["fpmod", "enroll", "--admin", "--ad"], ["--admin", "--address"]),
        (["fpmod", "enroll", "--finger", "x", "--ad"], ["--admin", "--address"]),
        // A user name is not completed; after `--` options are not offered.
        (["fpmod", "enroll", ""], []),
        (["fpmod", "--", "en"], ["enroll"]),
        (["fpmod", "enroll", "--", "--"], [])
    ]

    @Test(.enabled(if: BashCompletionTests.bashPresent, "no /bin/bash"))
    func completesInARealBash() throws {
        let replies = try Self.complete(Self.cases.map(\.line))
        for (index, testCase) in Self.cases.enumerated() {
            #expect(replies[index].sorted() == testCase.expected.sorted(), "\(testCase.line)")
        }
    }

    @Test func wordListsAndQuotingForTheShell() {
        #expect(BashCompletion.words(["a-b", "x y", "$(rm)", "c.d/e"]) == #"a-b x\ y \$\(rm\) c.d/e"#)
        #expect(BashCompletion.quote("it's") == #"'it'\''s'"#)
        #expect(BashCompletion.isFileName("FILE.png") && BashCompletion.isFileName("PATH") && !BashCompletion.isFileName("NAME"))
    }

    /// A choice holding shell syntax is offered as written, never run.
    @Test(.enabled(if: BashCompletionTests.bashPresent, "no /bin/bash"))
    func choicesAreNotExpanded() throws {
        let program = ProgramSpec(name: "fpmod", abstract: "", globalOptions: [
            .option("mode", help: "", choices: ["$(echo pwned)", "a'b", "plain"])
        ], commands: [])
        let replies = try Self.complete([["fpmod", "--mode", ""]], script: BashCompletion(program: program).render())
        #expect(replies == [["$(echo pwned)", "a'b", "plain"]])
    }
}
