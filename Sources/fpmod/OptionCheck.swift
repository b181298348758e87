import ArgumentParsing
import DoorLock
import SerialPort

/// Checks every typed option before a command does anything, so a bad value is always a usage
/// error (64), whatever else is wrong or missing (no port, no store) and whichever command runs.
/// Commands parse the same options again where they use them; the checks here are the same calls.
enum OptionCheck {
    static func validate(_ parsed: ParsedCommand) throws {
        func declared(_ name: String) -> Bool { parsed.command.options.contains { $0.name == name } }
        if declared("timeout") { _ = try parsed.duration("timeout") }
        if declared("captures") { _ = try parsed.int("captures", range: 2...15) }
        if declared("limit") { _ = try parsed.int("limit", range: 1...100_000) }
        // A config file named explicitly (--config, FPMOD_CONFIG) decides where the store is:
        // an unreadable one is an error, not a silent fall-back to the default store. `run` and
        // `config check` report it themselves; `setup` may be about to write it.
        let checksItself: Set<String> = ["run", "config check", "setup", "sim", "demo", "bench"]
        if let path = parsed.string("config"), !checksItself.contains(parsed.path.joined(separator: " ")) {
            do {
                _ = try LockConfig.load(path: path)
            } catch {
                throw CommandFailure(.config, error.description)
            }
        }
        // Global options: declared for every command.
        _ = try parsed.hexUInt32("address")
        _ = try parsed.hexUInt32("password")
        if parsed.isExplicit("baud"), let baud = try parsed.int("baud", range: 9600...115_200), !BaudRate.isSupported(baud) {
            throw CommandFailure(.usage, "--baud \(baud) is not a module baud rate; use 9600 × N for N from 1 to 12: "
                                 + BaudRate.supported.map(String.init).joined(separator: ", ") + ". \(parsed.hint)")
        }
    }
}
