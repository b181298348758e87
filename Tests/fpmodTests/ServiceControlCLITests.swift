import Foundation
import Glibc
import Testing

/// `fpmod enroll/list/delete/status` while `fpmod run` holds the module: the real binary, a real
/// service subprocess (simulated module and GPIO), its real control socket.
@Suite(.serialized)
struct ServiceControlCLITests {
    /// A running `fpmod --config FILE run --sim --sim-gpio` with its sockets in the CLI's directory.
    final class RunningService {
        let cli: CLI
        let config: String
        let sockets: String
        let service: LoggedProcess
        var process: Process { service.process }

        /// `policy`: the config's policy section (JSON); `sections`: more top-level members
        /// (`"nfc": {…}`), without a leading comma; `environment`: more for the service alone;
        /// `launcher`: a program that execs the service (`/usr/bin/env`).
        init(_ cli: CLI, policy: String = #"{"relayPulseSeconds": 0.3}"#, sections: String? = nil,
             environment: [String: String] = [:], launcher: String? = nil) throws {
            self.cli = cli
            sockets = cli.directory + "/sockets"
            config = cli.directory + "/config.json"
            try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
            let json = #"{"board": "gpio-vm", "policy": \#(policy), "# + (sections.map { $0 + ", " } ?? "")
                + #""control": {"socket": "\#(sockets)/control.sock"}, "events": {"socket": "\#(sockets)/events.sock"}}"#
            try json.write(toFile: config, atomically: true, encoding: .utf8)
            let arguments = ["--config", config, "run", "--sim", "--sim-gpio"]
            service = try LoggedProcess(cli, executable: launcher ?? CLI.binary,
                                        arguments: (launcher == nil ? [] : [CLI.binary]) + arguments, environment: environment)
            try waitFor("the service to report its module connected") {
                let status = try cli.run(["--config", config, "status", "--json"])
                return status.status == 0 && status.json?["module"] as? String == "connected"
            }
        }

        var log: String { service.log }

        /// A line to the simulator's control socket (`touch NAME N`: a finger for N captures).
        func simulator(_ line: String) throws {
            let reply = try CLI.unixRequest(path: sockets + "/sim-control.sock", line: line)
            #expect(reply.contains("ok") || reply.contains("true"), "simulator said: \(reply)")
        }

        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }

        deinit { stop() }
    }

    @Test func adminCommandsGoThroughTheRunningService() throws {
        let cli = CLI()
        let service = try RunningService(cli)
        defer { service.stop() }
        let config = ["--config", service.config]

        let status = try cli.run(config + ["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("locked, relay off"), "\(status.stdout)")
        #expect(status.stdout.contains("Module:      connected"))

        try service.simulator("touch carol-left-index 6")
        let enrolled = try cli.run(config + ["enroll", "carol", "--finger", "left-index", "--duress", "--display-name", "Carol C. Cole"])
        #expect(enrolled.status == 0, "stderr: \(enrolled.stderr)\nservice: \(service.log)")
        #expect(enrolled.stderr.contains("Place your finger (1/2)"))
        #expect(enrolled.stderr.contains("Lift your finger"))
        #expect(enrolled.stderr.contains("Place your finger (2/2)"))
        #expect(enrolled.stdout.contains("Enrolled carol's left-index as a duress finger in slot"), "\(enrolled.stdout)")

        let list = try cli.run(config + ["list", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        let users = try #require(list.json?["users"] as? [[String: Any]])
        let carol = try #require(users.first { $0["name"] as? String == "carol" })
        #expect(carol["displayName"] as? String == "Carol C. Cole")
        #expect((carol["fingers"] as? [[String: Any]])?.first?["duress"] as? Bool == true)
        #expect(try cli.run(config + ["list"]).stdout.contains("left-index: slot 0 (duress)"))

        // A refusal from the service keeps its meaning in the exit status (64: usage).
        let unknown = try cli.run(config + ["delete", "nobody"])
        #expect(unknown.status == 64, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("no user named nobody"))

        let deleted = try cli.run(config + ["delete", "carol", "--json"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.json?["userRemoved"] as? Bool == true)
        #expect((deleted.json?["fingers"] as? [[String: Any]])?.first?["label"] as? String == "left-index")
        #expect((try cli.run(config + ["list", "--json"]).json?["users"] as? [[String: Any]])?.isEmpty == true)

        let statusJSON = try #require(try cli.run(config + ["status", "--json"]).json)
        #expect(statusJSON["locked"] as? Bool == true)
        #expect((statusJSON["events"] as? Int ?? 0) > 0)
        #expect(statusJSON["controlSocket"] as? String == service.sockets + "/control.sock")
    }

    /// `pair --force` beside a running service competed with it for the serial port and would
    /// re-pair the store under it: refused, naming the service and the fix, whichever way the
    /// command names the port, and with --direct too. The service keeps its module.
    @Test func pairRefusesWhileTheServiceHoldsThePortOrTheStore() throws {
        let cli = CLI()
        let service = try RunningService(cli)
        defer { service.stop() }
        let config = ["--config", service.config]
        let status = try #require(try cli.run(config + ["status", "--json"]).json)
        let port = try #require(status["port"] as? String)
        let pid = try #require(status["pid"] as? Int)
        let auditBefore = try cli.auditEvents()

        for arguments in [["--port", port, "pair", "--force"], ["--direct", "--port", port, "pair", "--force"],
                          ["pair"], ["--port", cli.directory + "/another-port", "pair", "--force"]] {
            let pair = try cli.run(config + arguments)
            #expect(pair.status == 75, "\(arguments): \(pair.stderr)")
            #expect(pair.stderr.contains("The fpmod service (pid \(pid), control socket \(service.sockets)/control.sock)"),
                    "\(arguments): \(pair.stderr)")
            #expect(pair.stderr.contains("sudo systemctl stop fpmod"), "\(arguments): \(pair.stderr)")
        }
        // The last one named another port but the service's store.
        #expect(try cli.run(config + ["--port", cli.directory + "/another-port", "pair"]).stderr.contains("holds the store"))
        #expect(try cli.auditEvents() == auditBefore, "nothing was paired")
        let after = try #require(try cli.run(config + ["status", "--json"]).json)
        #expect(after["module"] as? String == "connected", "\(service.log)")

        // Another store and another port: not this service's business.
        let elsewhere = try cli.run(config + ["--store", cli.directory + "/other.db", "--key", cli.directory + "/other.key",
                                              "--port", cli.directory + "/another-port", "pair"])
        #expect(!elsewhere.stderr.contains("The fpmod service"), "\(elsewhere.stderr)")
    }

    @Test func withoutAServiceStatusSays69AndAStaleSocketFallsBackToTheStore() throws {
        let cli = CLI()
        let config = cli.directory + "/config.json"
        let socket = cli.directory + "/control.sock"
        try #"{"board": "gpio-vm", "control": {"socket": "\#(socket)"}}"#.write(toFile: config, atomically: true, encoding: .utf8)

        let none = try cli.run(["--config", config, "status"])
        #expect(none.status == 69, "\(none.stderr)")
        #expect(none.stderr.contains("No fpmod service answers on \(socket)"))

        // A socket file whose listener is gone: left over from a service that died.
        let made = try cli.runPython("import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.close()", [socket])
        try #require(made == 0 && FileManager.default.fileExists(atPath: socket))
        #expect(try cli.run(["--config", config, "status"]).status == 69)
        let list = try cli.run(["--config", config, "list"])
        // No service, and no store either: said as such, not "Nobody is enrolled yet".
        #expect(list.status == 78, "\(list.stderr)")
        #expect(list.stderr.contains("Nobody answers on \(socket)"))
        #expect(list.stderr.contains("there is no store at"))
    }

    /// The default socket (no --config): the service started without one is found the same way.
    @Test func theDefaultSocketDirectoryIsWhereBothLook() throws {
        let cli = CLI()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["run", "--sim", "--sim-gpio"]
        process.environment = cli.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        try waitFor("the service's status") { try cli.run(["status"]).status == 0 }
        let status = try #require(try cli.run(["status", "--json"]).json)
        #expect(status["controlSocket"] as? String == cli.environment["RUNTIME_DIRECTORY"]! + "/control.sock")
        // --direct bypasses it: list reads the store itself (and says nothing about the service).
        let direct = try cli.run(["--direct", "list"])
        #expect(direct.status == 0)
        #expect(!direct.stderr.contains("service"))
    }
}

/// Polls until `condition` holds (a bound, never a timing assertion).
func waitFor(_ what: String, timeout: Duration = .seconds(30), _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return }
        Thread.sleep(forTimeInterval: 0.1)
    }
    struct Timeout: Error, CustomStringConvertible { var description: String }
    throw Timeout(description: "timed out waiting for \(what)")
}

extension CLI {
    /// One line to a Unix socket and its one-line reply (through Python's socket module, so the
    /// test does not share code with what it tests).
    static func unixRequest(path: String, line: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(sys.argv[1])
            s.sendall((sys.argv[2] + "\\n").encode())
            data = b""
            while not data.endswith(b"\\n"):
                chunk = s.recv(4096)
                if not chunk: break
                data += chunk
            print(data.decode().strip())
            """, path, line]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func runPython(_ script: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script] + arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
