import Foundation
import Glibc
import Testing

/// Runs the real `fpmod` binary built beside this test bundle, with its own store directory.
final class CLI {
    struct Result {
        var status: Int32
        /// True when the process was ended by a signal (`status` is then the signal number).
        var signaled: Bool
        var stdout: String
        var stderr: String

        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
        }
    }

    /// `.build/debug/fpmod`: the test bundle (`fpmodPackageTests.xctest`) sits in the same directory.
    /// `swift test` does not link executables, so the README's test command runs `swift build` first.
    static var binary: String {
        let path = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("fpmod").path
        if !FileManager.default.isExecutableFile(atPath: path) {
            Issue.record("\(path) is missing: `swift test` builds test bundles but not executables. Run `swift build && swift test` (the README's test command).")
        }
        return path
    }

    let directory: String
    var environment: [String: String]

    init() {
        directory = NSTemporaryDirectory() + "fpmod-cli-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FPMOD_") }
        environment["FPMOD_STORE"] = directory + "/store.db"
        environment["FPMOD_STORE_KEY"] = directory + "/key"
        // The default socket directory of `fpmod run` and of the admin commands looking for it:
        // each test's own, so a service running on the machine is never reached (nor started on).
        environment["RUNTIME_DIRECTORY"] = directory + "/run"
        self.environment = environment
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var simulatorState: String { directory + "/sim-r307.state" }

    @discardableResult
    func run(_ arguments: [String], environment extra: [String: String] = [:], stdin: String? = nil,
             executable: String = CLI.binary) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a chatty child never blocks.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                      stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// `fpmod --sim [--sim-finger F] ARGS…`
    @discardableResult
    func sim(_ arguments: [String], finger: String? = nil, environment extra: [String: String] = [:],
             stdin: String? = nil) throws -> Result {
        try run(["--sim"] + (finger.map { ["--sim-finger", $0] } ?? []) + arguments, environment: extra, stdin: stdin)
    }

    func auditEvents() throws -> [String] {
        let result = try run(["log", "--limit", "1000", "--json"])
        let entries = result.json?["entries"] as? [[String: Any]] ?? []
        return entries.compactMap { $0["event"] as? String }
    }

    func userNames() throws -> [String] {
        let users = try run(["list", "--json"]).json?["users"] as? [[String: Any]] ?? []
        return users.compactMap { $0["name"] as? String }
    }
}
