import DoorLock
import Foundation
import Glibc
import JSONValue
import Posix
import ServiceClient
import TemplateStore

/// The soak's real processes in a folder of their own: `fpmod sim` (a module on a pseudo-terminal,
/// its flash in a file, reached through a stable link as a USB adapter's by-id path would be) and
/// `fpmod run` on it (no GPIO: the service polls the sensor, as on a board without a touch line),
/// plus the faults that need a process: the device vanishing, the service killed, the store
/// locked by someone else (the real `sqlite3` shell).
final class SoakRig {
    let executable: String
    let directory: String
    var database: String { directory + "/store.db" }
    var key: String { directory + "/store.key" }
    var configPath: String { directory + "/config.json" }
    var link: String { directory + "/module" }
    var simulatorControl: String { directory + "/sim-control.sock" }
    var controlSocket: String { directory + "/control.sock" }
    var eventsSocket: String { directory + "/events.sock" }
    var serviceLog: String { directory + "/service.log" }

    /// The web console's port (HTTPS on 127.0.0.1), on in the service as a user would run it.
    let consolePort: Int

    private var simulator: Process?
    private(set) var service: Process?
    private(set) var serviceStarts = 0

    init(executable: String, directory: String) throws(BenchFailure) {
        self.executable = executable
        self.directory = directory
        consolePort = ConsoleLoadBench.freePort()
        try? FileManager.default.removeItem(atPath: directory)
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw BenchFailure("cannot make \(directory): \(error)")
        }
        // Lockouts far above what the mix reaches: a stranger's touch is a refusal to count, not a
        // reason for the regulars after it to be refused. PINs are never asked for after an
        // enrollment or a restart: the soak enrolls and restarts on purpose.
        let lockout = #"{"failuresPerTimedLockout": 1000, "timedLockoutSeconds": 1, "failuresForPermanentLockout": 100000}"#
        let config = """
            {"serialPort": "\(link)", "control": {"socket": "\(controlSocket)"}, "events": {"socket": "\(eventsSocket)"},
             "policy": {"relayPulseSeconds": 0.05, "pinRequiredAfterEnrolledSetChange": false, "pinRequiredAfterRestart": false,
                        "fingerprintLockout": \(lockout), "pinLockout": \(lockout)},
             "console": {"enabled": true, "bind": "127.0.0.1", "port": \(consolePort)}}
            """
        _ = FileManager.default.createFile(atPath: configPath, contents: Data(config.utf8))
        _ = FileManager.default.createFile(atPath: serviceLog, contents: Data())
    }

    // MARK: - The module simulator

    /// Starts `fpmod sim` on its flash file and waits until its control socket answers.
    func startSimulator() throws(BenchFailure) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["sim", "--link", link, "--state", directory + "/flash", "--control", simulatorControl]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw BenchFailure("cannot start \(executable) sim: \(error)") }
        simulator = process
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if simulatorLine("status") != nil, FileManager.default.fileExists(atPath: link) { return }
            guard process.isRunning else { throw BenchFailure("fpmod sim exited at start-up") }
            usleep(20_000)
        }
        throw BenchFailure("fpmod sim did not answer within 10 s")
    }

    /// Ends the simulator: its pseudo-terminal goes away under the service, as an unplugged
    /// adapter's does.
    func stopSimulator() {
        guard let simulator, simulator.isRunning else { return }
        simulator.terminate()
        simulator.waitUntilExit()
    }

    /// One line to the simulator's control socket; its reply, or nil when it did not answer.
    @discardableResult
    func simulatorLine(_ line: String) -> String? { ConsoleLoadBench.simulatorReply(simulatorControl, line) }

    /// Lifts the finger and waits until the service has asked the sensor twice more (it saw the
    /// finger gone, so the next placement is a new touch, not the same one still down).
    func liftAndWaitForPoll() {
        func commandsHandled() -> Int? {
            guard let line = simulatorLine("status"), case .object(let status)? = try? JSONValue(parsing: line) else { return nil }
            return status["commandsHandled"]?.intValue
        }
        simulatorLine("lift")
        guard let before = commandsHandled() else { return }
        let deadline = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < deadline {
            if let now = commandsHandled(), now >= before + 2 { return }
            usleep(5_000)
        }
    }

    // MARK: - The service

    /// Starts `fpmod run` and waits until its status says the module is connected (60 s at most:
    /// a restart after SIGKILL may first finish an enrollment the kill interrupted).
    func startService() throws(BenchFailure) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--store", database, "--key", key, "--config", configPath, "run"]
        var environment = ProcessInfo.processInfo.environment
        environment["RUNTIME_DIRECTORY"] = directory
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let log = FileHandle(forWritingAtPath: serviceLog)
        log?.seekToEndOfFile()
        process.standardError = log ?? FileHandle.nullDevice
        do { try process.run() } catch { throw BenchFailure("cannot start \(executable) run: \(error)") }
        service = process
        serviceStarts += 1
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let status = request(.status, timeout: .seconds(2)), status["module"] == .string("connected") { return }
            guard process.isRunning else { throw BenchFailure("fpmod run exited at start-up (see \(serviceLog))") }
            usleep(50_000)
        }
        throw BenchFailure("fpmod run did not say its module is connected within 60 s (see \(serviceLog))")
    }

    /// SIGKILL: no handler runs, nothing is flushed, as at a power cut of the process.
    func killService() {
        guard let service, service.isRunning else { return }
        kill(service.processIdentifier, SIGKILL)
        service.waitUntilExit()
    }

    /// SIGTERM, as systemd stops it.
    func stopService() {
        guard let service, service.isRunning else { return }
        service.terminate()
        service.waitUntilExit()
    }

    /// One request on the control socket; its reply, or nil when the service did not answer.
    func request(_ request: ControlRequest, timeout: Duration = .seconds(10)) -> [String: JSONValue]? {
        guard let connection = try? UnixConnection.connect(path: controlSocket) else { return nil }
        defer { connection.close() }
        guard (try? connection.send(line: request.line, deadline: .now + timeout)) != nil,
              let line = (try? connection.readLine(deadline: .now + timeout)) ?? nil,
              case .object(let reply)? = try? JSONValue(parsing: line) else { return nil }
        return reply
    }

    /// Enrolls `user` through the service, touching `finger` on the simulator at each "place
    /// your finger" step. True when the service said the enrollment is stored.
    func enroll(user: String, finger: String) -> Bool {
        guard let name = try? UserName(validating: user),
              let connection = try? UnixConnection.connect(path: controlSocket) else { return false }
        defer { connection.close() }
        let deadline = ContinuousClock.now + .seconds(30)
        guard (try? connection.send(line: ControlRequest.enroll(EnrollRequest(user: name)).line, deadline: deadline)) != nil else { return false }
        while let line = (try? connection.readLine(deadline: deadline)) ?? nil {
            guard case .object(let reply)? = try? JSONValue(parsing: line) else { return false }
            if let ok = reply["ok"]?.boolValue { return ok }
            if reply["step"]?.stringValue == "place-finger" { simulatorLine("touch \(finger) 1") }
        }
        return false
    }

    /// `GET /api/v1/PATH` on the web console with a bearer token, by curl (a client we did not
    /// write); true for a 200. Nil when there is no curl.
    func consoleRequest(_ path: String, token: String) -> Bool? {
        let curl = "/usr/bin/curl"
        guard FileManager.default.isExecutableFile(atPath: curl) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: curl)
        process.arguments = ["--silent", "--insecure", "--max-time", "10", "--header", "Authorization: Bearer \(token)",
                             "--output", "/dev/null", "--write-out", "%{http_code}", "https://127.0.0.1:\(consolePort)/api/v1/\(path)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let code = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return code == "200"
    }

    // MARK: - The store locked by another process

    /// The real `sqlite3` shell takes the store's write lock (`BEGIN EXCLUSIVE`, waiting up to
    /// 2 s for the service to finish a write) and holds it for `seconds`, in the background.
    /// Returns false when no lock was taken (no sqlite3, or the store stayed busy).
    func holdStoreLock(seconds: Double) -> Bool {
        let shell = "/usr/bin/sqlite3"
        guard FileManager.default.isExecutableFile(atPath: shell) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-cmd", ".timeout 2000", database]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        input.fileHandleForWriting.write(Data("BEGIN EXCLUSIVE;\nSELECT 'held';\n".utf8))
        // "held" comes back once the lock is ours; an error (busy) prints nothing on stdout.
        let reader = output.fileHandleForReading
        var pending = Data()
        let deadline = ContinuousClock.now + .seconds(4)
        var held = false
        while ContinuousClock.now < deadline, !held {
            var poller = pollfd(fd: reader.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { break }
            if poller.revents != 0 {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                held = String(decoding: pending, as: UTF8.self).contains("held")
            }
        }
        let writer = input.fileHandleForWriting
        let holdFor: UInt32 = held ? UInt32(seconds * 1_000_000) : 0
        Thread.detachNewThread {
            usleep(holdFor)
            writer.write(Data("ROLLBACK;\n.quit\n".utf8))
            try? writer.close()
            process.waitUntilExit()
        }
        return held
    }

    // MARK: - What the service holds

    /// The service's resident memory, open file descriptors and threads, from /proc.
    func serviceResources() -> (rssKiB: Int, descriptors: Int, threads: Int)? {
        guard let service, service.isRunning else { return nil }
        let pid = service.processIdentifier
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return nil }
            return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
        }
        guard let rss = field("VmRSS"), let threads = field("Threads"),
              let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count else { return nil }
        return (rss, descriptors, threads)
    }

    /// The size of the store's write-ahead log (0 when there is none).
    func walBytes() -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: database + "-wal"))?[.size] as? NSNumber)?.intValue ?? 0
    }

    func shutDown() {
        stopService()
        stopSimulator()
    }

    deinit { shutDown() }
}
