import Foundation
import Glibc
import Testing

/// `fpmod run --sensor-socket PATH`: the door service on a simulated FPC1020 that another
/// process serves (`fpmod sim --profile fpc1020 --link PATH`), matching on the host. The
/// simulator is stopped under the running service and started again: the service reports the
/// reader gone, keeps the door locked, and opens again for alice once the sensor is back.
@Suite(.serialized) struct SensorSocketServiceTests {
    final class Setup {
        let cli = CLI()
        var simulator: LoggedProcess?
        var service: LoggedProcess?
        var control: String { cli.directory + "/sensor.ctl" }
        var link: String { cli.directory + "/sensor.link" }
        var config: String { cli.directory + "/config.json" }

        func startSimulator() throws {
            let process = try LoggedProcess(cli, arguments: ["sim", "--profile", "fpc1020", "--control", control, "--link", link],
                                            logPath: cli.directory + "/sim-\(UUID().uuidString.prefix(6)).log")
            simulator = process
            try waitFor("the sensor simulator's sockets") {
                !process.isRunning || (FileManager.default.fileExists(atPath: control) && FileManager.default.fileExists(atPath: link))
            }
            guard process.isRunning else { throw Failure(description: "fpmod sim ended at once:\n\(process.log)") }
        }

        func stopSimulator() {
            guard let simulator else { return }
            if simulator.isRunning { kill(simulator.processIdentifier, SIGTERM) }
            simulator.waitUntilExit()
            self.simulator = nil
        }

        @discardableResult
        func sensor(_ line: String) throws -> String { try CLI.unixRequest(path: control, line: line) }

        func startService() throws {
            let sockets = cli.directory + "/sockets"
            try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
            try """
                {"policy": {"relayPulseSeconds": 5, "pinRequiredAfterEnrolledSetChange": false},
                 "privacy": {"log": "full"},
                 "control": {"socket": "\(sockets)/control.sock"}, "events": {"socket": "\(sockets)/events.sock"}}
                """.write(toFile: config, atomically: true, encoding: .utf8)
            let process = try LoggedProcess(cli, arguments: ["--config", config, "--json", "--sensor-socket", link, "run"])
            service = process
            try waitForReader("connected")
        }

        func status() throws -> [String: Any] {
            try cli.run(["--config", config, "status", "--json"]).json ?? [:]
        }

        func waitForReader(_ state: String) throws {
            try waitFor("the service to report its reader \(state)", timeout: .seconds(60)) {
                guard service?.isRunning == true else { throw Failure(description: "fpmod run ended:\n\(service?.log ?? "")") }
                return try status()["module"] as? String == state
            }
        }

        var events: [String] {
            (service?.log ?? "").split(separator: "\n").compactMap { line in
                guard line.hasPrefix("{"),
                      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
                return object["event"] as? String
            }
        }

        /// Captures the simulated sensor has taken so far.
        func captures() throws -> Int {
            let reply = try sensor("status")
            let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any]
            return object?["captures"] as? Int ?? -1
        }

        /// Touches `finger` and returns the decision event the scan led to, once the service has
        /// seen the finger lifted: one capture for the scan, one more that finds the sensor
        /// empty. (A second touch before that would be taken for the first finger still lying
        /// there, as on a real sensor.)
        func scan(_ finger: String) throws -> String {
            let before = events.count
            let capturesBefore = try captures()
            #expect(try sensor("touch \(finger)").hasPrefix("ok"))
            let decisions: Set<String> = ["match", "no-match", "retry-scan", "misplaced", "lockout", "pin-required", "error"]
            var found: String?
            try waitFor("the scan of \(finger): \(service?.log ?? "")") {
                found = events.dropFirst(before).first { decisions.contains($0) }
                return found != nil
            }
            try waitFor("the service to see \(finger) lifted") { try captures() >= capturesBefore + 2 }
            return found!
        }

        deinit {
            if let service, service.isRunning { kill(service.processIdentifier, SIGTERM); service.waitUntilExit() }
            stopSimulator()
        }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    @Test func theServiceRunsOnAnotherProcessesSensorAndSurvivesItsRestart() throws {
        let setup = Setup()
        try setup.startSimulator()
        // Enrolled beforehand through the same link, the simulator touching at every wait.
        #expect(try setup.sensor("auto-touch alice-right-index").hasPrefix("ok"))
        let enroll = try setup.cli.run(["--sensor-socket", setup.link, "enroll", "alice"])
        #expect(enroll.status == 0, "\(enroll.stderr)")
        try setup.sensor("auto-touch off")

        try setup.startService()
        let status = try setup.status()
        #expect(status["readerKind"] as? String == "image-sensor", "\(status)")
        #expect(try setup.scan("alice-right-index") == "match", "\(setup.service?.log ?? "")")
        #expect(try setup.scan("bob-right-index") == "no-match", "\(setup.service?.log ?? "")")

        setup.stopSimulator()
        try setup.waitForReader("disconnected")
        #expect(setup.service?.log.contains("fingerprint reader:") == true)

        try setup.startSimulator()
        try setup.waitForReader("connected")
        #expect(try setup.scan("alice-right-index") == "match", "\(setup.service?.log ?? "")")
    }
}
