import Foundation

/// A background process (usually `fpmod … run --sim --sim-gpio`) whose stdout and stderr go to
/// one log file, so a test can wait for a line and show the whole log when it fails. Stopping
/// is the caller's: tests differ on SIGTERM, SIGKILL or a SIGHUP first.
final class LoggedProcess {
    let process = Process()
    let logPath: String

    /// Starts `executable` (default: the built `fpmod`) with `arguments` in `cli`'s environment
    /// and `environment` on top.
    init(_ cli: CLI, executable: String = CLI.binary, arguments: [String], logPath: String? = nil,
         environment: [String: String] = [:]) throws {
        self.logPath = logPath ?? cli.directory + "/run.log"
        _ = FileManager.default.createFile(atPath: self.logPath, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: self.logPath))
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = cli.environment.merging(environment) { $1 }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
    var isRunning: Bool { process.isRunning }
    var processIdentifier: Int32 { process.processIdentifier }
    func waitUntilExit() { process.waitUntilExit() }
}
