import Testing

@testable import ArgumentParsing

@Suite("Spec validation")
struct SpecValidationTests {
    @Test func sampleProgramIsConsistent() {
        #expect(SampleProgram.spec.problems() == [])
    }

    @Test func findsDeclarationMistakes() {
        let program = ProgramSpec(
            name: "tool", abstract: "Tool.",
            globalOptions: [.flag("json", help: ""), .flag("verbose", short: "v", help: "")],
            commands: [
                CommandSpec(name: "go", abstract: "", arguments: [
                    .positional("rest", help: "", repeating: true), .positional("later", help: ""),
                ], options: [
                    .flag("json", help: ""), .flag("vivid", short: "v", help: ""),
                    .option("mode", help: "", default: "x", choices: ["a", "b"]),
                ]),
                CommandSpec(name: "go", abstract: ""),
                CommandSpec(name: "help", abstract: ""),
            ])
        let problems = program.problems()
        #expect(problems.contains("command go is declared twice in tool"))
        #expect(problems.contains("command help is declared twice in tool"))
        #expect(problems.contains("option --json is declared twice in 'go'"))
        #expect(problems.contains("short option -v is declared twice in 'go'"))
        #expect(problems.contains("--mode in 'go': default 'x' is not one of its choices"))
        #expect(problems.contains("<rest> of 'go' repeats but is not the last argument"))
        #expect(problems.count == 6)
    }

    @Test func optionalBeforeRequiredAndGroupsWithArguments() {
        let program = ProgramSpec(name: "tool", abstract: "", commands: [
            CommandSpec(name: "a", abstract: "", arguments: [.positional("x", help: "", optional: true), .positional("y", help: "")]),
            CommandSpec(name: "b", abstract: "", arguments: [.positional("z", help: "")],
                        subcommands: [CommandSpec(name: "c", abstract: "", options: [.flag("--bad", help: "")])]),
        ])
        #expect(program.problems() == [
            "<x> of 'a' is optional but a required argument follows it",
            "'b' has both subcommands and arguments; a group takes only a subcommand",
            "'--bad' in 'b c' is not a usable option name (no dashes, no '=')",
        ])
    }
}
