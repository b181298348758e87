import Foundation
import Glibc
import ServiceClient

/// A real `fpmod` process of the campaign, on one iteration's store (FPMOD_STORE,
/// FPMOD_STORE_KEY, RUNTIME_DIRECTORY in its directory: no running service is ever reached),
/// optionally SIGKILLed after a delay: the power cut.
enum PowerLossProcess {
    struct Result: Sendable {
        /// nil when the process was ended by a signal.
        var exitStatus: Int32?
        var signal: Int32?
        var seconds: Double
        /// The first lines of its standard error (for a report).
        var errorText: String

        var summary: String {
            let how = exitStatus.map { "exit \($0)" } ?? "signal \(signal ?? 0)"
            return errorText.isEmpty ? how : "\(how): \(errorText)"
        }
    }

    static func environment(directory: String, failpoint: String?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FPMOD_") }
        environment["FPMOD_STORE"] = directory + "/" + PowerLossBaseline.databaseName
        environment["FPMOD_STORE_KEY"] = directory + "/" + PowerLossBaseline.keyName
        environment["RUNTIME_DIRECTORY"] = directory + "/run"
        if let failpoint { environment["FPMOD_FAILPOINT"] = failpoint }
        return environment
    }

    /// `argv` in `directory` with the iteration's environment, nothing on stdin or stdout, and
    /// stderr into a fresh `errorPath` (returned open: the caller closes it).
    static func prepare(_ argv: [String], directory: String, failpoint: String?, errorPath: String) -> (Process, FileHandle?) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        process.environment = environment(directory: directory, failpoint: failpoint)
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let errorFile = FileHandle(forWritingAtPath: errorPath)
        process.standardError = errorFile ?? FileHandle.nullDevice
        return (process, errorFile)
    }

    /// Runs `argv` to its end, or SIGKILLs it `killAfter` seconds after it started.
    static func run(_ argv: [String], directory: String, failpoint: String? = nil, killAfter: Double? = nil) -> Result {
        let errorPath = directory + "/.stderr"
        let (process, errorFile) = prepare(argv, directory: directory, failpoint: failpoint, errorPath: errorPath)
        let start = ContinuousClock.now
        do { try process.run() } catch {
            try? errorFile?.close()
            return Result(exitStatus: 127, signal: nil, seconds: 0, errorText: "cannot start \(argv[0]): \(error)")
        }
        if let killAfter {
            let deadline = start + .nanoseconds(Int64(killAfter * 1e9))
            while process.isRunning, ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: min(0.002, DurationText.seconds(deadline - ContinuousClock.now)))
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        let seconds = DurationText.seconds(ContinuousClock.now - start)
        try? errorFile?.close()
        let errorText = ((try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
            .split(separator: "\n").suffix(3).joined(separator: " / ")
        if process.terminationReason == .uncaughtSignal {
            return Result(exitStatus: nil, signal: process.terminationStatus, seconds: seconds, errorText: errorText)
        }
        return Result(exitStatus: process.terminationStatus, signal: nil, seconds: seconds, errorText: errorText)
    }

    /// The restart after the cut: the real service (`fpmod --sim run`, the same store and flash)
    /// until its status says the module is connected — its open settled whatever the cut
    /// interrupted — then SIGTERM, as systemd stops it. nil when all went well, else why not.
    static func restartService(executable: String, directory: String) -> String? {
        let logPath = directory + "/.service"
        let (process, log) = prepare([executable, "--sim", "run"], directory: directory, failpoint: nil, errorPath: logPath)
        defer { try? log?.close() }
        do { try process.run() } catch { return "cannot start fpmod run: \(error)" }
        // Reached as every front end reaches it (ServiceClient): the socket in RUNTIME_DIRECTORY.
        let address = ServiceAddress(configPath: nil, environment: environment(directory: directory, failpoint: nil),
                                     storeDatabase: directory + "/" + PowerLossBaseline.databaseName)
        let deadline = ContinuousClock.now + .seconds(60)
        var connected = false
        while !connected, process.isRunning, ContinuousClock.now < deadline {
            if let status = try? ServiceConnection.require(address).send(.status, lineTimeout: .seconds(5)),
               status["module"] == .string("connected") {
                connected = true
            } else {
                usleep(20_000)
            }
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        if connected && process.terminationReason == .exit && process.terminationStatus == 0 { return nil }
        let lines = ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").suffix(3).joined(separator: " / ")
        if !connected { return "the restarted service never said its module is connected: \(lines)" }
        return "the restarted service did not stop cleanly (\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)): \(lines)"
    }
}
