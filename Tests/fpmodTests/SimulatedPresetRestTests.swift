import Foundation
import Glibc
import Testing

/// Issue 21, item 6: `fpmod run --sim --sim-gpio` on each Raspberry Pi preset starts with every
/// simulated input at rest — door closed, tamper switch quiet, no finger — whatever the line's
/// polarity and pull (the presets' door contact and tamper switch are active-high with a
/// pull-up, so a floating line would read "open"). An enrolled finger then opens the door.
@Suite(.serialized)
struct SimulatedPresetRestTests {
    @Test(arguments: ["rpi3", "rpi4", "rpi5", "rpi-zero2w"])
    func theSimulatedLinesStartAtRest(board: String) throws {
        let cli = CLI()
        let enrolled = try cli.sim(["enroll", "alice", "--finger", "right-index"], finger: "alice-right-index")
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        let sockets = cli.directory + "/sockets"
        try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
        let config = cli.directory + "/config.json"
        try """
            {"board": "\(board)", "policy": {"relayPulseSeconds": 0.3, "pinRequiredAfterEnrolledSetChange": false},
             "control": {"socket": "\(sockets)/control.sock"}, "events": {"socket": "\(sockets)/events.sock"}}
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let service = try LoggedProcess(cli, arguments: ["--config", config, "--json", "run", "--sim", "--sim-gpio"])
        defer {
            if service.isRunning { kill(service.processIdentifier, SIGTERM) }
            service.waitUntilExit()
        }
        var status: [String: Any] = [:]
        try waitFor("the module") {
            guard service.isRunning else { throw ExternalTools.Failure(message: "fpmod run ended:\n\(service.log)") }
            status = try cli.run(["--config", config, "status", "--json"]).json ?? [:]
            return status["module"] as? String == "connected"
        }
        #expect(status["door"] as? String == "closed", "\(board): \(status)")
        #expect(status["tamper"] as? Bool == false, "\(board): \(status)")
        #expect(status["pinOnly"] is NSNull, "\(board): \(status)")
        #expect(status["scanInFlight"] as? Bool == false, "no finger: \(status)")
        #expect(!events(service.log).contains("tamper") && !events(service.log).contains("door-opened"), "\(service.log)")

        _ = try CLI.unixRequest(path: sockets + "/sim-control.sock", line: "touch alice-right-index")
        try waitFor("alice's finger to open the door") { events(service.log).contains("unlocked") }
        let unlocked = eventObjects(service.log).first { $0["event"] as? String == "unlocked" }
        #expect(unlocked?["user"] as? String != nil, "\(service.log)")
    }

    private func eventObjects(_ log: String) -> [[String: Any]] {
        log.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("{") else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    private func events(_ log: String) -> [String] { eventObjects(log).compactMap { $0["event"] as? String } }
}
