import ConsoleAuth
import DoorLock
import Foundation
import Glibc
import JSONValue
import Posix
import ServiceClient
import TemplateStore

/// `--console-load RATE`: touch-to-relay of `fpmod run --sim --sim-gpio` with its web console
/// on, first idle, then while curl (an independent HTTPS client) asks the console's API RATE
/// times a second (`/api/v1/status`, which the console answers through the service's control
/// socket, the busiest path it has). The times are the service's own stamps: from the touch
/// line's edge to the relay (`latencyMs.relayOn` of the `unlocked` event).
public enum ConsoleLoadBench {
    public struct Result {
        public var table: TextTable
        public var notes: [String]
        public var json: JSONValue
    }

    public static func run(executable: String, rate: Int, touches: Int = 40, progress: (String) -> Void) -> Result {
        var table = TextTable(["console load", "touches", "p50", "p95", "max", "requests answered"])
        var rows: [JSONValue] = []
        var notes: [String] = []
        switch measure(executable: executable, rate: rate, touches: touches, progress: progress) {
        case .failure(let reason):
            notes.append("not measured: \(reason)")
        case .success(let phases):
            for phase in phases {
                guard let d = Distribution(phase.samples) else { continue }
                let answered = phase.rate == 0 ? "–" : "\(phase.answered) (\(phase.ok) × 200), \(String(format: "%.0f", phase.achievedRate))/s"
                table.add([phase.rate == 0 ? "none" : "\(phase.rate) requests/s", String(d.count), DurationText.format(d.p50),
                           DurationText.format(d.p95), DurationText.format(d.max), answered])
                rows.append(["rate": .int(Int64(phase.rate)), "count": .int(Int64(d.count)), "p50_ms": .double(DurationText.milliseconds(d.p50)),
                             "p95_ms": .double(DurationText.milliseconds(d.p95)), "max_ms": .double(DurationText.milliseconds(d.max)),
                             "answered": .int(Int64(phase.answered)), "ok": .int(Int64(phase.ok)), "achieved_rate": .double(phase.achievedRate)])
            }
            notes.append("The console runs on libmicrohttpd's threads; the door's loop answers its control-socket requests between decisions. The simulated module's own capture and search times are in every row.")
        }
        return Result(table: table, notes: notes, json: .object(["rows": .array(rows)]))
    }

    struct Phase {
        var rate: Int
        var samples: [Int64]
        var answered = 0
        var ok = 0
        var achievedRate = 0.0
    }

    static func measure(executable: String, rate: Int, touches: Int, progress: (String) -> Void) -> Swift.Result<[Phase], BenchFailure> {
        let directory = NSTemporaryDirectory() + "fpmod-bench-console-\(CurrentProcess.id)"
        try? FileManager.default.removeItem(atPath: directory)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = directory + "/store.db", key = directory + "/store.key"
        let control = directory + "/control.sock", events = directory + "/events.sock"
        let port = freePort()
        let config = #"{"board": "gpio-vm", "policy": {"relayPulseSeconds": 0.05, "pinRequiredAfterEnrolledSetChange": false, "pinRequiredAfterRestart": false}, "control": {"socket": "\#(control)"}, "events": {"socket": "\#(events)"}, "console": {"enabled": true, "bind": "127.0.0.1", "port": \#(port)}}"#
        let token: String
        do {
            let store = try TemplateStore(databasePath: database, keyPath: key)
            token = try BearerTokens(store: store).create(name: "bench", role: .viewer, by: "fpmod bench")
        } catch {
            return .failure(BenchFailure("the store could not be made: \(error)"))
        }
        let service: BenchService
        do {
            service = try BenchService(executable: executable, directory: directory, database: database, key: key, config: config,
                                       ready: { $0["module"] == .string("connected") })
        } catch {
            return .failure(error)
        }
        defer { service.stop() }
        let address = service.address
        // One finger enrolled through the service, its touches queued on the simulator first (the
        // service may scan one or two of them before the enrollment takes the reader).
        let simulator = directory + "/sim-control.sock"
        guard simulatorLine(simulator, "touch bench-finger 6") else { return .failure(BenchFailure("the simulator's control socket did not answer")) }
        do {
            let reply = try ServiceConnection.require(address).send(.enroll(EnrollRequest(user: try UserName(validating: "bench"))), lineTimeout: .seconds(30))
            guard reply["ok"]?.boolValue == true else { return .failure(BenchFailure("enroll refused: \(JSONValue.object(reply).encoded.prefix(200))")) }
        } catch {
            return .failure(BenchFailure("enroll failed: \(error)"))
        }
        // Touches left over from the enrollment are scanned (and refused) before measuring starts.
        usleep(1_500_000)
        guard let subscriber = try? UnixConnection.connect(path: events) else { return .failure(BenchFailure("the events socket did not answer")) }
        defer { subscriber.close() }
        func touchesToRelay() -> [Int64]? {
            var samples: [Int64] = []
            for _ in 0..<touches {
                guard simulatorLine(simulator, "touch bench-finger 1") else { return nil }
                let deadline = ContinuousClock.now + .seconds(10)
                while ContinuousClock.now < deadline, let line = try? subscriber.readLine(deadline: deadline) {
                    guard case .object(let event)? = try? JSONValue(parsing: line) else { continue }
                    if event["event"]?.stringValue == "unlocked" {
                        if let milliseconds = event["latencyMs"]?["relayOn"]?.numberValue { samples.append(Int64(milliseconds * 1_000_000)) }
                        break
                    }
                }
                // Past the relay's pulse and the relock, so each touch finds the door locked.
                usleep(150_000)
            }
            return samples
        }
        progress("fpmod bench: touch to relay, console idle…")
        guard let idle = touchesToRelay() else { return .failure(BenchFailure("the simulator stopped answering")) }
        progress("fpmod bench: touch to relay, console asked \(rate) times a second…")
        // Enough requests to outlast the touches (each about 0.2 s apart): curl ends by itself and
        // its tally is complete.
        let requests = max(rate, Int(Double(rate) * (Double(touches) * 0.2 + 1)))
        let load = Process()
        load.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        load.arguments = ["--silent", "--insecure", "--rate", "\(rate)/s", "--header", "Authorization: Bearer \(token)",
                          "--output", "/dev/null", "--write-out", "%{http_code}\\n", "https://127.0.0.1:\(port)/api/v1/status?n=[1-\(requests)]"]
        let codes = Pipe()
        load.standardOutput = codes
        load.standardError = FileHandle.nullDevice
        do { try load.run() } catch { return .failure(BenchFailure("cannot start curl (apt-get install curl): \(error)")) }
        let loadStart = ContinuousClock.now
        usleep(500_000)
        let loaded = touchesToRelay()
        let answers = String(decoding: codes.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        load.waitUntilExit()
        let elapsed = ContinuousClock.now - loadStart
        guard let loaded else { return .failure(BenchFailure("the simulator stopped answering under load")) }
        let seconds = DurationText.seconds(elapsed)
        return .success([Phase(rate: 0, samples: idle),
                         Phase(rate: rate, samples: loaded, answered: answers.count, ok: answers.filter { $0 == "200" }.count,
                               achievedRate: Double(answers.count) / max(seconds, 0.001))])
    }

    static func simulatorLine(_ path: String, _ line: String) -> Bool { simulatorReply(path, line) != nil }

    /// One line to a simulator's control socket and its reply line (5 s each way), or nil.
    static func simulatorReply(_ path: String, _ line: String) -> String? {
        guard let connection = try? UnixConnection.connect(path: path) else { return nil }
        defer { connection.close() }
        guard (try? connection.send(line: line, deadline: .now + .seconds(5))) != nil else { return nil }
        return (try? connection.readLine(deadline: .now + .seconds(5))) ?? nil
    }

    static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
