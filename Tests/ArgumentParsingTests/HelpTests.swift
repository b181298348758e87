import Foundation
import Testing

@testable import ArgumentParsing

@Suite("Help")
struct HelpTests {
    static func help(_ line: String) throws -> String {
        let outcome = try SampleProgram.parser().parse(SampleProgram.words(line))
        guard case .help(let text) = outcome else { throw SampleProgram.Unexpected(outcome: outcome) }
        return text
    }

    @Test func dump() throws {
        for line in ["help", "help enroll", "help config", "sim --help", "delete -h", "config check --help"] {
            try (try Self.help(line)).write(toFile: "/tmp/x/help-" + line.replacingOccurrences(of: " ", with: "_"), atomically: true, encoding: .utf8)
        }
    }
}
