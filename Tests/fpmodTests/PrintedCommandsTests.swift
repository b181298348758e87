import ArgumentParsing
import Foundation
import Testing
@testable import fpmod

/// Every `fpmod …` command a message tells the user to run (in backticks, in a string of the
/// sources), with its placeholders filled as a user would, is a command line the real parser
/// accepts: never a usage error for following the program's own advice. (Running each would
/// wipe, pair and restore; `SetupNextStepsTests` runs setup's own list for real.)
@Suite struct PrintedCommandsTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources").path

    /// What a user types for each placeholder.
    static let fillings: [String: String] = [
        "NAME": "alice", "OLD": "alice", "NEW": "bob", "FILE": "/tmp/backup.fpmod", "BACKUP": "/tmp/backup.fpmod",
        "PATH": "/dev/ttyUSB0", "N": "17", "LABEL": "right-index", "\\(user)": "alice", "\\(label)": "right-index",
        "\\(path)": "/tmp/sensor.sock", "\\(Printable.escaped(user))": "alice", "\\(Printable.escaped(label))": "right-index",
        "\\(connstring)": "pn532_uart:/dev/ttyS0:115200",
    ]

    /// The backticked commands in string literals (comments and usage synopses left out).
    static func printedCommands() throws -> [(file: String, command: String)] {
        var found: [(String, String)] = []
        let files = FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        let pattern = try NSRegularExpression(pattern: "`(fpmod [^`]*)`")
        for file in files {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.contains("\"") {
                let string = String(line)
                for match in pattern.matches(in: string, range: NSRange(string.startIndex..., in: string)) {
                    guard let range = Range(match.range(at: 1), in: string) else { continue }
                    let command = String(string[range])
                    // A synopsis ([optional], a|b, …, <name>) describes a command; it is not one to run.
                    if command.contains(where: { "[]|…<>".contains($0) }) { continue }
                    found.append((file, command))
                }
            }
        }
        return found
    }

    @Test func everyPrintedCommandParses() throws {
        let commands = try Self.printedCommands()
        #expect(commands.count > 10, "the sources were not found at \(Self.sources)")
        let parser = ArgumentParser(program: Program.spec, environment: [:])
        let commandNames = Set(Program.spec.commands.flatMap { [$0.name] + $0.subcommands.map(\.name) })
        for (file, command) in commands {
            let words = command.split(separator: " ").dropFirst().map { Self.fillings[String($0)] ?? String($0) }
            // "fpmod delete" alone (or the command just run, `fpmod \(command)`) names a command in a
            // sentence; it is not a line to run.
            if words.allSatisfy(commandNames.contains) && words.count <= 2 || words == ["\\(command)"] { continue }
            if words.contains(where: { $0.contains("\\(") }) {
                Issue.record("\(file): `\(command)` has a placeholder this test does not know how to fill")
                continue
            }
            do {
                _ = try parser.parse(words)
            } catch {
                Issue.record("\(file): `\(command)` is refused by the parser: \(error.description)")
            }
        }
    }
}
