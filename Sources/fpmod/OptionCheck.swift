import ArgumentParsing
import SerialPort

/// Checks every typed option before a command does anything, so a bad value is always a usage
/// error (64), whatever else is wrong or missing (no port, no store) and whichever command runs.
/// Commands parse the same options again where they use them; the checks here are the same calls.
enum OptionCheck {
    static func validate(_ parsed: ParsedCommand) throws {
        func declared(_ name: String) -> Bool { parsed.command.options.contains { $0.name == name } }
        if declared("timeout") { _ = try parsed.duration("timeout") }
        if declared("captures") { _ = try parsed.int("captures", range: 2...6) }
        if declared("limit") { _ = try parsed.int("limit", range: 1...100_000) }
        // Global options: declared for every command.
        _ = try parsed.hexUInt32("address")
        _ = try parsed.hexUInt32("password")
        if parsed.isExplicit("baud"), let baud = try parsed.int("baud", range: 9600...115_200), !BaudRate.isSupported(baud) {
            throw CommandFailure(.usage, "--baud \(baud) is not a module baud rate; use 9600 × N for N = 1…12: "
                                 + BaudRate.supported.map(String.init).joined(separator: ", ") + ". \(parsed.hint)")
        }
    }
}
