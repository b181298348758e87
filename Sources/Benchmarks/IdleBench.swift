import JSONValue
import Foundation
import Glibc
import Posix

/// `--idle`: CPU time of `fpmod run --sim --sim-gpio` while nobody touches the sensor, read from
/// /proc/<pid>/stat (utime + stime) over a window after start-up, scaled to a minute.
public enum IdleBench {
    public struct Result {
        public var seconds: Int
        public var table: TextTable
        public var conclusion: String?
        public var json: JSONValue
    }

    /// Seconds measured after a settling period (start-up work is not idle cost).
    public static let window = 20
    public static let settle = 3

    /// `executable`: the fpmod binary whose `run` is measured.
    public static func run(executable: String) -> Result {
        let executable = URL(fileURLWithPath: executable).resolvingSymlinksInPath().path
        let directory = NSTemporaryDirectory() + "fpmod-bench-idle-\(CurrentProcess.id)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Without a touch line the service polls GenImg every scanIntervalMs, as the peers do.
        let polling = directory + "/polling.json"
        let pollingConfig = #"{"board": "gpio-vm", "gpio": {"lines": {"touch": null}}, "scanIntervalMs": 250}"#
        _ = FileManager.default.createFile(atPath: polling, contents: Data(pollingConfig.utf8))
        let common = ["--sim", "--store", directory + "/store.db", "--key", directory + "/store.key"]
        let cases: [(label: String, key: String, arguments: [String])] = [
            ("with a touch line (no polling)", "with_touch_line", common + ["run", "--sim-gpio"]),
            ("without a touch line (GenImg every 250 ms)", "without_touch_line", common + ["--config", polling, "run", "--sim-gpio"]),
        ]
        var table = TextTable(["fpmod run --sim --sim-gpio", "CPU s/min", "% of one core"])
        var json: [String: JSONValue] = [:]
        var conclusion: String?
        for (index, entry) in cases.enumerated() {
            switch measure(executable: executable, arguments: entry.arguments, runtimeDirectory: directory + "/run\(index)") {
            case let .success(perMinute):
                let percent = perMinute / 60 * 100
                table.add([entry.label, DurationText.fixed(perMinute, digits: 4), DurationText.fixed(percent, digits: 3) + " %"])
                json[entry.key] = .object(["cpu_seconds_per_minute": .double(perMinute), "percent_of_core": .double(percent)])
                if index == 0 {
                    let met = percent <= 0.1
                    json["met"] = .bool(met)
                    conclusion = "Target: idle with a touch line at most 0.1 % of one core — \(met ? "met" : "not met") "
                        + "(resolution: one clock tick in \(window) s, about 0.05 %)."
                }
            case let .failure(reason):
                table.add([entry.label, "not measured", "–"])
                json[entry.key] = .object(["measured": .bool(false), "reason": .string(reason)])
                if index == 0 { conclusion = "Not measured: \(reason)" }
            }
        }
        json["measured"] = .bool(json["met"] != nil)
        return Result(seconds: window, table: table, conclusion: conclusion, json: .object(json))
    }

    public enum Outcome { case success(Double), failure(String) }

    public static func measure(executable: String, arguments: [String], runtimeDirectory: String) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // Its own socket directory: never the one of a service running on this machine.
        try? FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["RUNTIME_DIRECTORY"] = runtimeDirectory
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { return .failure("cannot start \(executable): \(error)") }
        defer {
            if process.isRunning { process.terminate(); process.waitUntilExit() }
        }
        sleep(UInt32(settle))
        guard process.isRunning, let before = cpuTicks(pid: process.processIdentifier) else {
            let message = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return .failure("fpmod run exited at start-up (\(message.isEmpty ? "no message" : message)).")
        }
        let start = Date()
        sleep(UInt32(window))
        guard let after = cpuTicks(pid: process.processIdentifier) else { return .failure("fpmod run exited while measured.") }
        let elapsed = Date().timeIntervalSince(start)
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return .success(Double(after - before) / ticksPerSecond / elapsed * 60)
    }

    /// utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/<pid>/stat).
    public static func cpuTicks(pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        return parseCPUTicks(stat: text)
    }

    /// Fields after the command name, which is in parentheses and may contain spaces.
    public static func parseCPUTicks(stat: String) -> Int? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3), so utime (field 14) is fields[11], stime fields[12].
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }
}
