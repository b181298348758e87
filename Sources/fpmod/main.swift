import ArgumentParsing
import Foundation
import GPIO

// fpmod: parse, run one command, exit with a sysexits-style code (architecture.md).
// Results go to stdout, progress and errors to stderr.

let environment = ProcessInfo.processInfo.environment
let parser = ArgumentParser(program: Program.spec, environment: environment)

let outcome: ParseOutcome
do {
    outcome = try parser.parse(CommandLine.arguments.dropFirst())
} catch {
    StandardStreams.writeError(error.description + "\n")
    exit(error.exitCode.rawValue)
}

switch outcome {
case .help(let text):
    StandardStreams.writeOutput(text.hasSuffix("\n") ? text : text + "\n")
    exit(0)
case .version(let text):
    // The second line says which libgpiod backend this binary was built with (picked at build
    // time from the <gpiod.h> found) and which library it loaded.
    let gpio = "libgpiod \(LibgpiodChip.libraryVersion) (v\(LibgpiodChip.apiMajor) API)"
    StandardStreams.writeOutput(text + "\n" + gpio + "\n")
    exit(0)
case .run(let parsed):
    let invocation = Invocation(parsed: parsed, environment: environment)
    exit(Commands.run(invocation).rawValue)
}
