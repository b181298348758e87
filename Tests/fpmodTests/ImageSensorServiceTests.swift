import Foundation
import Glibc
import Testing

/// Issue 14: the door service on an image sensor matched on the host, end to end. The real
/// binary runs `fpmod run --sim --sim-profile fpc1020 --sim-gpio` (a simulated FPC1020, the
/// host matcher through libfprint, a real store, memory GPIO); alice is enrolled through the
/// service's control socket with her touches put on the sensor's control socket, and the
/// policy then decides on her finger and a stranger's exactly as it does on a module.
@Suite(.serialized)
struct ImageSensorServiceTests {
    /// A running service on the simulated image sensor, its events read from `--json` stdout.
    final class SensorService {
        let cli: CLI
        let config: String
        let sockets: String
        let service: LoggedProcess

        /// `gpio`: the memory GPIO of `--sim-gpio`, whose touch line follows the sensor; false:
        /// a board without GPIO, where the service polls the sensor. `run`: more global options.
        init(_ cli: CLI, gpio: Bool = true, run extra: [String] = []) throws {
            self.cli = cli
            sockets = cli.directory + "/sockets"
            config = cli.directory + "/config.json"
            try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
            // Three failures start a lockout long enough to outlast the test; names unmasked in
            // the journal so the events can say whose finger it was.
            try """
                {\(gpio ? #""board": "gpio-vm","# : "")
                 "policy": {"relayPulseSeconds": 5, "pinRequiredAfterEnrolledSetChange": false,
                            "fingerprintLockout": {"failuresPerTimedLockout": 3, "timedLockoutSeconds": 600}},
                 "privacy": {"log": "full"},
                 "control": {"socket": "\(sockets)/control.sock"}, "events": {"socket": "\(sockets)/events.sock"}}
                """.write(toFile: config, atomically: true, encoding: .utf8)
            service = try LoggedProcess(cli, arguments: ["--config", config, "--json", "--sim-profile", "fpc1020"] + extra
                                        + ["run", "--sim"] + (gpio ? ["--sim-gpio"] : []))
            try waitFor("the service to report its reader connected") {
                guard service.isRunning else { return true }
                return try status()["module"] as? String == "connected"
            }
            guard service.isRunning else { throw Failure(description: "fpmod run ended at once:\n\(service.log)") }
        }

        struct Failure: Error, CustomStringConvertible { var description: String }

        var log: String { service.log }

        func status() throws -> [String: Any] {
            try cli.run(["--config", config, "status", "--json"]).json ?? [:]
        }

        /// The public events so far, in order (the JSON lines of stdout).
        var events: [[String: Any]] {
            log.split(separator: "\n").compactMap { line in
                guard line.hasPrefix("{") else { return nil }
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return object?["event"] == nil ? nil : object
            }
        }

        /// A line to the simulated sensor's control socket.
        @discardableResult
        func sensor(_ line: String) throws -> String {
            try CLI.unixRequest(path: sockets + "/sim-control.sock", line: line)
        }

        /// Touches `finger` and returns the first decision event the scan led to (`match`,
        /// `no-match`, …) with every event that came with it.
        func scan(_ finger: String) throws -> (decision: [String: Any], events: [[String: Any]]) {
            let before = events.count
            let reply = try sensor("touch \(finger)")
            #expect(reply.hasPrefix("ok"), "sensor said: \(reply)")
            // What the policy says about a scan: a match, or why not (a refusal names its reason).
            let decisions: Set<String> = ["match", "no-match", "retry-scan", "misplaced", "lockout", "lockout-permanent",
                                          "pin-required", "fingerprint-disabled", "error"]
            var found: [String: Any]?
            try waitFor("the scan of \(finger)") {
                found = events.dropFirst(before).first { decisions.contains($0["event"] as? String ?? "") }
                return found != nil
            }
            // The rest of this decision's events (unlocked, lockout…) are written right after it.
            Thread.sleep(forTimeInterval: 0.3)
            return (found!, Array(events.dropFirst(before)))
        }

        /// `enroll USER LABEL` on the service's control socket; each "place your finger" step
        /// is answered with a touch on the sensor's control socket. Python's socket module is
        /// the client, so the test shares no code with what it tests. Returns every reply line.
        func enroll(_ user: String, _ label: String) throws -> [[String: Any]] {
            let script = """
                import json, socket, sys
                control, sensor, user, label = sys.argv[1:5]
                def sensor_line(line):
                    s = socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(sensor)
                    s.sendall((line + "\\n").encode()); s.recv(4096); s.close()
                s = socket.socket(socket.AF_UNIX); s.settimeout(60); s.connect(control)
                s.sendall(("enroll %s %s\\n" % (user, label)).encode())
                buffer = b""
                while True:
                    chunk = s.recv(4096)
                    if not chunk: break
                    buffer += chunk
                    while b"\\n" in buffer:
                        line, buffer = buffer.split(b"\\n", 1)
                        print(line.decode(), flush=True)
                        reply = json.loads(line)
                        if reply.get("status") == "enroll-place-finger":
                            sensor_line("touch %s-%s" % (user, label))
                        if "ok" in reply: sys.exit(0)
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", script, sockets + "/control.sock", sockets + "/sim-control.sock", user, label]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        func stop() {
            if service.isRunning { kill(service.processIdentifier, SIGTERM) }
            service.waitUntilExit()
        }

        deinit { stop() }
    }

    @Test func aliceOpensTheDoorAStrangerIsDeniedAndThreeFailuresLockOut() throws {
        let cli = CLI()
        let service = try SensorService(cli)
        defer { service.stop() }

        // The status names the reader and where it matches.
        let status = try service.status()
        #expect(status["readerKind"] as? String == "image-sensor", "\(status)")
        #expect((status["reader"] as? String)?.contains("matching on the host") == true, "\(status)")
        let text = try cli.run(["--config", service.config, "status"])
        #expect(text.stdout.contains("FPC1020A (simulated)"), "\(text.stdout)")
        #expect(text.stdout.contains("Sensor:      connected"), "\(text.stdout)")
        #expect(!text.stdout.contains("Module:"), "\(text.stdout)")

        // Enrolled through the service: the host matcher's five captures, one touch each.
        let replies = try service.enroll("alice", "right-index")
        let done = try #require(replies.last, "no reply to enroll; service log:\n\(service.log)")
        #expect(done["ok"] as? Bool == true, "\(done)\n\(service.log)")
        #expect((3...8).contains(done["captures"] as? Int ?? 0), "\(done)")
        #expect(replies.contains { $0["progress"] as? String == "Place your finger (8/8)" }, "\(replies)")
        let list = try cli.run(["--config", service.config, "list", "--json"])
        let users = (list.json?["users"] as? [[String: Any]]) ?? []
        #expect(users.contains { $0["name"] as? String == "alice" }, "\(list.stdout)")

        // A stranger: no match, denied, the relay stays off.
        let stranger = try service.scan("mallory-right-index")
        #expect(stranger.decision["event"] as? String == "no-match", "\(stranger.events)\n\(service.log)")
        #expect(!stranger.events.contains { $0["event"] as? String == "unlocked" }, "\(stranger.events)")
        #expect(try service.status()["relay"] as? Bool == false)

        // Alice: a match with her name, and the door opens (the relay pulses for 5 s).
        let alice = try service.scan("alice-right-index")
        #expect(alice.decision["event"] as? String == "match", "\(alice.events)\n\(service.log)")
        #expect(alice.decision["user"] as? String == "alice", "\(alice.decision)")
        let unlocked = alice.events.first { $0["event"] as? String == "unlocked" }
        #expect(unlocked?["user"] as? String == "alice", "\(alice.events)")
        #expect(try service.status()["relay"] as? Bool == true, "the relay did not open for alice")
        try waitFor("the relay pulse to end") { try service.status()["relay"] as? Bool == false }

        // Three failures in a row: the policy's timed lockout.
        for attempt in 1...3 {
            let scan = try service.scan("mallory-left-thumb")
            #expect(scan.decision["event"] as? String == "no-match", "attempt \(attempt): \(scan.events)")
        }
        try waitFor("the lockout") { service.events.contains { $0["event"] as? String == "lockout" } }
        let locked = try service.status()
        #expect(locked["fingerprintLockout"] as? String == "timed", "\(locked)")
        #expect(locked["relay"] as? Bool == false)

        // During the lockout even alice's finger does not open the door: it is recognised
        // (the refusal names her) and refused for the lockout.
        let unlocksBefore = service.events.filter { $0["event"] as? String == "unlocked" }.count
        let refused = try service.scan("alice-right-index")
        #expect(refused.decision["event"] as? String == "lockout", "\(refused.events)")
        #expect(refused.decision["user"] as? String == "alice", "\(refused.decision)")
        #expect(service.events.filter { $0["event"] as? String == "unlocked" }.count == unlocksBefore, "\(service.log)")
        #expect(try service.status()["relay"] as? Bool == false)
    }

    /// A board without GPIO: no touch line, so the worker polls the sensor (a capture per scan
    /// interval, the finger's lift seen as an empty image) and the policy decides the same.
    @Test func withoutATouchLineTheServicePollsTheSensor() throws {
        let cli = CLI()
        let service = try SensorService(cli, gpio: false)
        defer { service.stop() }
        let done = try #require(try service.enroll("alice", "right-index").last, "\(service.log)")
        #expect(done["ok"] as? Bool == true, "\(done)\n\(service.log)")
        let alice = try service.scan("alice-right-index")
        #expect(alice.decision["event"] as? String == "match" && alice.decision["user"] as? String == "alice",
                "\(alice.events)\n\(service.log)")
        let stranger = try service.scan("mallory-right-index")
        #expect(stranger.decision["event"] as? String == "no-match", "\(stranger.events)")
    }

    /// --sim-images reaches the service's sensor: a finger with no folder under DIR is refused
    /// naming DIR/NAME, and a DIR that is no folder stops `run` before it serves anything.
    @Test func simImagesFeedsTheServicesSensor() throws {
        let cli = CLI()
        let images = cli.directory + "/images"
        try FileManager.default.createDirectory(atPath: images, withIntermediateDirectories: true)
        let service = try SensorService(cli, run: ["--sim-images", images])
        let replies = try service.enroll("alice", "right-index")
        service.stop()
        let done = try #require(replies.last, "\(service.log)")
        #expect(done["ok"] as? Bool == false, "\(done)")
        #expect((done["error"] as? String)?.contains(images + "/alice-right-index") == true, "\(done)")

        let missing = try cli.run(["--config", service.config, "--sim-profile", "fpc1020", "--sim-images", cli.directory + "/nowhere",
                                   "run", "--sim", "--sim-gpio"])
        #expect(missing.status == 64, "\(missing.stderr)")
        #expect(missing.stderr.contains(cli.directory + "/nowhere"), "\(missing.stderr)")
    }

    /// `run --spi PATH`: the service on a real FPC1020A. Without one here, what is checked is
    /// that the option leads to the sensor (not a serial port) and fails closed: the missing
    /// node is named with its fix, the reader counts as disconnected and retried, a scan is
    /// refused as unavailable, the door stays locked.
    @Test func aMissingSpidevNodeIsADisconnectedReaderNamingTheFix() throws {
        let cli = CLI()
        let sockets = cli.directory + "/sockets"
        let config = cli.directory + "/config.json"
        try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
        try #"{"board": "gpio-vm", "control": {"socket": "\#(sockets)/control.sock"}, "events": {"socket": "\#(sockets)/events.sock"}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let node = cli.directory + "/spidev9.9"
        let service = try LoggedProcess(cli, arguments: ["--config", config, "--spi", node, "run", "--sim-gpio"])
        defer {
            if service.isRunning { kill(service.processIdentifier, SIGTERM) }
            service.waitUntilExit()
        }
        try waitFor("the service to log why the sensor did not open") {
            !service.isRunning || service.log.contains("fingerprint reader: ")
        }
        #expect(service.isRunning, "\(service.log)")
        #expect(service.log.contains("image sensor on \(node)"), "\(service.log)")
        let why = service.log.split(separator: "\n").first { $0.hasPrefix("fingerprint reader: ") } ?? ""
        #expect(why.contains(node) && why.contains("dtparam=spi=on"), "the node and the fix are named: \(service.log)")
        let status = try cli.run(["--config", config, "status", "--json"]).json ?? [:]
        #expect(status["module"] as? String == "disconnected", "\(status)")
        #expect(status["locked"] as? Bool == true && status["relay"] as? Bool == false, "\(status)")
        let scan = try CLI.unixRequest(path: sockets + "/control.sock", line: "scan")
        #expect(scan.contains("unavailable"), "\(scan)")
    }
}
