import Foundation
import Testing

/// Issue 10, item 6: `fpmod run --sim --sim-gpio` can be driven through the simulator's
/// control socket alone: a touch starts a scan (the touch line follows the sensor), and the
/// exit button, door contact and tamper switch are verbs there too. The real binary.
@Suite(.serialized)
struct SimulatedServiceTests {
    @Test func touchScansAndTheGPIOInputsAreVerbsOfTheSimulatorSocket() throws {
        let cli = CLI()
        let service = try ServiceControlCLITests.RunningService(cli)
        defer { service.stop() }
        let config = ["--config", service.config]
        try service.simulator("touch carol-left-index 6")
        let enrolled = try cli.run(config + ["enroll", "carol", "--finger", "left-index"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)\n\(service.log)")
        // The service's finger steps, sent as values, reach the CLI's prompter and read as ever.
        #expect(enrolled.stderr.contains("Place your finger (1/2)\n") && enrolled.stderr.contains("Lift your finger\n")
                && enrolled.stderr.contains("Storing the template in slot"), "\(enrolled.stderr)")

        // The enrolled set changed, so carol's finger is refused for a PIN: proof that the
        // touch alone started a scan that reached the policy with her name.
        try service.simulator("touch carol-left-index")
        // (`fpmod run`'s lines show names as privacy.log says: masked by default.)
        try waitFor("the scan started by the touch") { service.log.contains("pin-required reason=enrolledSetChanged user=c***l") }

        try service.simulator("exit")
        try waitFor("the exit button's unlock") { service.log.contains("unlocked reason=exitButton") }
        try service.simulator("door open")
        try service.simulator("tamper open")
        try waitFor("door and tamper in the status") {
            let status = try cli.run(config + ["status", "--json"]).json ?? [:]
            return status["door"] as? String == "open" && status["tamper"] as? Bool == true
        }
        let refused = try CLI.unixRequest(path: service.sockets + "/sim-control.sock", line: "door ajar")
        #expect(refused.hasPrefix("error: usage"), "\(refused)")
        let unknown = try CLI.unixRequest(path: service.sockets + "/sim-control.sock", line: "bogus")
        #expect(unknown.contains("GPIO commands: exit"), "\(unknown)")
    }

    /// The runaway: an enroll waiting for a finger that stays on the sensor polled GenImg back
    /// to back (thousands of commands a second against the instant simulator, a core at
    /// 30–60 %) for its whole finger timeout, holding the module (scan: busy).
    @Test func anEnrollWaitingForALiftPollsAtAHumanPace() throws {
        let cli = CLI()
        let service = try ServiceControlCLITests.RunningService(cli)
        defer { service.stop() }
        try service.simulator("place dave-index")
        // The touch line went active with the finger: let that scan finish first.
        try waitFor("the scan of the placed finger") { service.log.contains("no-match") }
        func handled() throws -> Int {
            let status = try CLI.unixRequest(path: service.sockets + "/sim-control.sock", line: "status")
            let object = try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any]
            return try #require(object?["commandsHandled"] as? Int)
        }
        let before = try handled()
        // The finger never lifts: the enroll waits (1 s) for the lift between its captures.
        let enroll = try cli.run(["--config", service.config, "enroll", "dave", "--timeout", "1s"])
        #expect(enroll.stderr.contains("Lift your finger"), "\(enroll.stderr)")
        let used = try handled() - before
        // 50 ms between polls: about 20 in that second plus the captures; not thousands.
        #expect(used < 200, "GenImg polled \(used) times in one finger wait")
        let status = try cli.run(["--config", service.config, "status", "--json"]).json ?? [:]
        #expect(status["scanInFlight"] as? Bool == false, "\(status)")
    }
}
