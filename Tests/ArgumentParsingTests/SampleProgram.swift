import ArgumentParsing

/// A cut-down fpmod: enough commands and options to exercise every parser feature.
enum SampleProgram {
    enum Profile: String, CaseIterable { case r307, as608, r503 }

    static let spec = ProgramSpec(
        name: "fpmod",
        abstract: "Drive UART fingerprint modules and the door lock built on them.",
        version: "fpmod 0.1.0",
        globalOptions: [
            .option("port", short: "p", valueName: "PATH", help: "Serial device of the module.",
                    default: "/dev/ttyS0", env: "FPMOD_PORT"),
            .option("baud", valueName: "N", help: "Baud rate.", default: "57600"),
            .option("address", valueName: "HEX", help: "Module address.", default: "0xFFFFFFFF"),
            .option("password", valueName: "HEX", help: "Module password.", env: "FPMOD_PASSWORD"),
            .flag("sim", help: "Use the built-in simulator instead of a serial port.", env: "FPMOD_SIM"),
            .flag("json", help: "Print results as JSON."),
            .flag("verbose", short: "v", help: "Say more; repeat for even more.", repeatable: true),
        ],
        commands: [
            CommandSpec(
                name: "enroll", abstract: "Enroll a finger for a user.",
                discussion: "Asks for the finger several times and stores the merged template in the module and in the store.",
                arguments: [.positional("name", help: "User name.")],
                options: [
                    .option("finger", valueName: "LABEL", help: "Which finger.", default: "right-index"),
                    .option("captures", short: "c", valueName: "N", help: "Number of captures to merge.", default: "3"),
                    .option("timeout", valueName: "DURATION", help: "How long to wait for each touch.", default: "10s"),
                    .flag("admin", help: "The user may administer the lock."),
                ]),
            CommandSpec(
                name: "delete", abstract: "Delete users or slots.",
                arguments: [.positional("names", help: "Users to delete.", repeating: true)],
                options: [.option("tag", valueName: "TEXT", help: "Audit tag.", repeatable: true)]),
            CommandSpec(
                name: "sim", abstract: "Run a simulated module on a pseudo-terminal.",
                arguments: [.positional("link", help: "Symlink to create for the terminal.", optional: true)],
                options: [.option("profile", valueName: "NAME", help: "Module family to simulate.",
                                  default: "r307", env: "FPMOD_PROFILE", choices: ["r307", "as608", "r503"])]),
            CommandSpec(
                name: "config", abstract: "Work with the configuration file.",
                subcommands: [CommandSpec(name: "check", abstract: "Validate the configuration file.",
                                          arguments: [.positional("file", help: "Config file.", optional: true)])]),
        ])

    static func parser(environment: [String: String] = [:]) -> ArgumentParser {
        ArgumentParser(program: spec, environment: environment)
    }

    /// Parses a command line written as one string (split on spaces) and expects a command to run.
    static func run(_ line: String, environment: [String: String] = [:]) throws -> ParsedCommand {
        let outcome = try parser(environment: environment).parse(words(line))
        guard case .run(let parsed) = outcome else { throw Unexpected(outcome: outcome) }
        return parsed
    }

    /// The usage error a command line produces (nil if it parses).
    static func usageError(_ line: String, environment: [String: String] = [:]) -> UsageError? {
        do {
            _ = try parser(environment: environment).parse(words(line))
            return nil
        } catch {
            return error
        }
    }

    static func words(_ line: String) -> [String] {
        line.split(separator: " ").map(String.init)
    }

    struct Unexpected: Error { var outcome: ParseOutcome }
}
