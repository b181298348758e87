import Testing

@testable import ArgumentParsing

@Suite("Help")
struct HelpTests {
    static func help(_ line: String) throws -> String {
        let outcome = try SampleProgram.parser().parse(SampleProgram.words(line))
        guard case .help(let text) = outcome else { throw SampleProgram.Unexpected(outcome: outcome) }
        return text
    }

    static let globalOptions = """
        GLOBAL OPTIONS:
          -p, --port <PATH>       Serial device of the module. (default: /dev/ttyS0;
                                  env: FPMOD_PORT)
          --baud <N>              Baud rate. (default: 57600)
          --address <HEX>         Module address. (default: 0xFFFFFFFF)
          --password <HEX>        Module password. (env: FPMOD_PASSWORD)
          --sim                   Use the built-in simulator instead of a serial port.
                                  (env: FPMOD_SIM)
          --json                  Print results as JSON.
          -v, --verbose           Say more; repeat for even more. (repeatable)
          -h, --help              Show help information.
          --version               Show the version.
        """

    @Test func commandHelpSnapshot() throws {
        #expect(try Self.help("help enroll") == """
            OVERVIEW: Enroll a finger for a user.

            Asks for the finger several times and stores the merged template in the module
            and in the store.

            USAGE: fpmod enroll [<options>] <name>

            ARGUMENTS:
              <name>                  User name.

            OPTIONS:
              --finger <LABEL>        Which finger. (default: right-index)
              -c, --captures <N>      Number of captures to merge. (default: 3)
              --timeout <DURATION>    How long to wait for each touch. (default: 10s)
              --admin                 The user may administer the lock.

            GLOBAL OPTIONS:
              -p/--port, --baud, --address, --password, --sim, --json, -v/--verbose,
              -h/--help, --version
              Every command takes them; 'fpmod help' describes each.

            """)
    }

    /// Issue 21: a command's page is about the command. The global options, described in the
    /// overview, are named at its end in a few lines, not described again before a reader
    /// scrolling back finds the command's own.
    @Test func aCommandsPageNamesTheGlobalOptionsWithoutDescribingThem() throws {
        let text = try Self.help("help enroll")
        let own = try #require(text.range(of: "OPTIONS:\n  --finger"))
        let global = try #require(text.range(of: "GLOBAL OPTIONS:"))
        #expect(own.lowerBound < global.lowerBound)
        #expect(!text.contains("Serial device of the module"))
        #expect(text[global.lowerBound...].split(separator: "\n").count <= 5, "\(text)")
        for option in SampleProgram.spec.globalOptions {
            #expect(text[global.lowerBound...].contains("--" + option.name), "\(option.name)")
        }
        let overview = try Self.help("help")
        #expect(overview.contains("Serial device of the module"), "the overview describes them")
    }

    @Test func overviewSnapshot() throws {
        #expect(try Self.help("help") == """
            OVERVIEW: Drive UART fingerprint modules and the door lock built on them.

            USAGE: fpmod [<global options>] <command> [<options>] [<arguments>]

            COMMANDS:
              enroll                  Enroll a finger for a user.
              delete                  Delete users or slots.
              sim                     Run a simulated module on a pseudo-terminal.
              config check            Validate the configuration file.
              help                    Show help for a command.

            \(Self.globalOptions)

            See 'fpmod help <command>' for detailed help.

            """)
        #expect(try Self.help("--help") == Self.help("help"))
        #expect(try Self.help("-h") == Self.help("help"))
    }

    @Test func choicesAndShortUsageLine() throws {
        let text = try Self.help("sim --help")
        #expect(text.hasPrefix("""
            OVERVIEW: Run a simulated module on a pseudo-terminal.

            USAGE: fpmod sim [--profile <NAME>] [<link>]

            ARGUMENTS:
              <link>                  Symlink to create for the terminal.

            OPTIONS:
              --profile <NAME>        Module family to simulate. (values: r307, as608, r503;
                                      default: r307; env: FPMOD_PROFILE)

            """))
    }

    @Test func groupHelpListsSubcommands() throws {
        let text = try Self.help("help config")
        #expect(text.contains("USAGE: fpmod config <subcommand>\n"))
        #expect(text.contains("SUBCOMMANDS:\n  check                   Validate the configuration file.\n"))
        #expect(text.hasSuffix("See 'fpmod help config <subcommand>' for detailed help.\n"))
        #expect(try Self.help("help config check").hasPrefix("OVERVIEW: Validate the configuration file.\n\nUSAGE: fpmod config check [<file>]\n"))
    }

    @Test func everyWayOfAskingGivesTheSameText() throws {
        let reference = try Self.help("help enroll")
        for line in ["enroll --help", "enroll -h", "--help enroll", "enroll alice --json --help", "-v enroll -h"] {
            #expect(try Self.help(line) == reference, "\(line)")
        }
        #expect(try SampleProgram.parser().helpText(for: ["enroll"]) == reference)
    }

    @Test func helpAfterDoubleDashIsAnArgument() throws {
        #expect(try SampleProgram.run("delete -- --help").strings("names") == ["--help"])
    }

    @Test func helpForUnknownCommandIsAUsageError() {
        #expect(SampleProgram.usageError("help enrol")?.kind == .unknownCommand("enrol", suggestion: "enroll"))
        // --help does not hide a command that does not exist behind the general help.
        #expect(SampleProgram.usageError("enrol --help")?.kind == .unknownCommand("enrol", suggestion: "enroll"))
        #expect(SampleProgram.usageError("nosuch -h")?.kind == .unknownCommand("nosuch", suggestion: nil))
        #expect(SampleProgram.usageError("config chek --help")?.kind == .unknownCommand("chek", suggestion: "check"))
        #expect(SampleProgram.usageError("help config chek")?.kind == .unknownCommand("chek", suggestion: "check"))
        #expect(SampleProgram.usageError("help config chek")?.commandPath == ["config"])
    }

    @Test func everyLineFitsIn80Columns() throws {
        for line in ["help", "help enroll", "help sim", "help delete", "help config", "help config check"] {
            for row in try Self.help(line).split(separator: "\n") {
                #expect(row.count <= 80, "\(line): \(row)")
            }
        }
    }

    @Test func longLabelsPutTheHelpOnTheNextLine() throws {
        let program = ProgramSpec(name: "tool", abstract: "Tool.", commands: [
            CommandSpec(name: "go", abstract: "Go.", options: [
                .option("a-very-long-option-name", valueName: "SOMETHING", help: "Text."),
            ]),
        ])
        let text = try ArgumentParser(program: program).helpText(for: ["go"])
        #expect(text.contains("  --a-very-long-option-name <SOMETHING>\n                          Text.\n"))
    }

    @Test func longUsageLineWraps() throws {
        let program = ProgramSpec(name: "tool", abstract: "Tool.", commands: [
            CommandSpec(name: "go", abstract: "Go.",
                        arguments: (1...8).map { .positional("argument-number-\($0)", help: "") }),
        ])
        let text = try ArgumentParser(program: program).helpText(for: ["go"])
        let usage = text.split(separator: "\n\n")[1]
        #expect(usage.hasPrefix("USAGE: tool go <argument-number-1>"))
        #expect(usage.contains("\n  <argument-number-"))
        #expect(usage.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func noVersionOptionWithoutAVersion() throws {
        let program = ProgramSpec(name: "tool", abstract: "Tool.", commands: [CommandSpec(name: "go", abstract: "Go.")])
        let parser = ArgumentParser(program: program)
        #expect(try !parser.helpText().contains("--version"))
        #expect(throws: UsageError.self) { try parser.parse(["--version"]) }
    }

    @Test func wrappingKeepsParagraphsAndIndents() {
        let text = TextWrapping.wrap("one two three four\n\nfive", width: 10, indent: 2)
        #expect(text == "one two\n  three\n  four\n\n  five")
    }
}
