import Foundation
import Posix
import Testing

/// An NFC reader at a running door, through the real binaries: `fpmod run --sim --sim-gpio`
/// with an `nfc` section polls `fpmod sim --profile pn532` (another process, a real pseudo-
/// terminal) through real libnfc; cards are placed on the simulator's control socket. A held
/// card opens once; a garbled reader and a silent one are events, never an opening; the service
/// takes the reader back when it answers again; doctor does not disturb it.
@Suite(.serialized)
struct NFCServiceTests {
    typealias RunningService = ServiceControlCLITests.RunningService
    typealias Simulator = CardCommandTests.Simulator

    static let aliceUID = "04A1B2C3D4E5F6"

    /// The service's public events, read off its events socket as they come.
    final class EventTap {
        let connection: UnixConnection
        private(set) var seen: [[String: Any]] = []

        init(_ path: String) throws { connection = try UnixConnection.connect(path: path) }
        deinit { connection.close() }

        /// Reads until an event named `name` whose fields contain `fields`; throws at the timeout.
        @discardableResult
        func next(_ name: String, _ fields: [String: String] = [:], within timeout: Duration = .seconds(30)) throws -> [String: Any] {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                guard let line = try connection.readLine(deadline: deadline) else { break }
                guard let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
                seen.append(event)
                if event["event"] as? String == name, fields.allSatisfy({ event[$0.key] as? String == $0.value }) { return event }
            }
            throw TapError(message: "no \(name) \(fields) within \(timeout); seen: \(seen.map { $0["event"] ?? "?" })")
        }

        struct TapError: Error, CustomStringConvertible { let message: String; var description: String { message } }
    }

    func say(_ simulator: Simulator, _ line: String) throws {
        let connection = try UnixConnection.connect(path: simulator.control)
        defer { connection.close() }
        try connection.send(line: line)
        let reply = try #require(try connection.readLine(deadline: .now + .seconds(10)))
        #expect(reply.contains("true") || reply.contains("ok"), "simulator said \(reply)")
    }

    @Test func cardsFromThePolledReaderOpenOnceAndFaultsNever() throws {
        let cli = CLI()
        let simulator = try Simulator(cli, card: nil)
        let nfc = #""nfc": {"device": "pn532_uart:\#(simulator.link):115200", "mode": "uid"}"#
        let service = try RunningService(cli, policy: #"{"relayPulseSeconds": 0.3, "verifyMode": "card", "pinRequiredAfterEnrolledSetChange": false}"#,
                                         sections: nfc)
        defer { service.stop() }
        let config = ["--config", service.config]
        let events = try EventTap(service.sockets + "/events.sock")
        // The reader answered before the tap was there: its ready event went by; the log has it.
        try waitFor("the service to open the reader") { service.log.contains("nfc: reader pn532_uart:\(simulator.link):115200 answered") }
        #expect(service.log.contains("mode uid: a card's UID opens as its owner's credential. UIDs can be read and copied"), "\(service.log)")

        try service.simulator("touch alice-right-index 6")
        #expect(try cli.run(config + ["enroll", "alice", "--finger", "right-index"]).status == 0)
        #expect(try cli.run(config + ["card", "add", "alice", "uid:\(Self.aliceUID)", "--label", "fob"]).status == 0)

        // Alice's card, held on the reader for 3 s: one opening, one audit row.
        let before = try cli.auditEvents().filter { $0 == "card-ok" }.count
        try say(simulator, #"{"place":"classic","uid":"\#(Self.aliceUID)"}"#)
        let unlocked = try events.next("unlocked")
        #expect(unlocked["reason"] as? String == "card" && unlocked["user"] as? String == "alice", "\(unlocked)")
        usleep(3_000_000)
        try say(simulator, #"{"remove":true}"#)
        #expect(try cli.auditEvents().filter { $0 == "card-ok" }.count == before + 1, "a held card is taken once")

        // A card nobody has: refused, once.
        try say(simulator, #"{"place":"classic","uid":"0BADCAFE"}"#)
        try events.next("card-unknown")
        try say(simulator, #"{"remove":true}"#)

        // Doctor, with the service holding the reader: says so, sends the reader nothing.
        let doctor = try cli.run(config + ["doctor"])
        #expect(doctor.stdout.contains("in use by another fpmod program"), "\(doctor.stdout)")

        // A reader answering garbage: rejected reads, then the link is reopened; never an opening.
        try say(simulator, #"{"place":"classic","uid":"\#(Self.aliceUID)"}"#)
        try say(simulator, #"{"fault":"garbage"}"#)
        try events.next("nfc", ["result": "rejected", "reason": "garbled"])
        try events.next("nfc", ["result": "lost"])
        // A silent one: lost, then unavailable while it stays silent.
        try say(simulator, #"{"fault":"silent"}"#)
        try events.next("nfc", ["result": "unavailable"])
        #expect(!events.seen.contains { $0["event"] as? String == "unlocked" && ($0["time"] as? String ?? "") > (unlocked["time"] as? String ?? "") },
                "no opening while the reader was faulty: \(events.seen)")
        // Healed: the service finds the reader again, and alice's card (still on it) opens.
        try say(simulator, #"{"fault":"none"}"#)
        try events.next("nfc", ["result": "ready"], within: .seconds(60))
        let again = try events.next("unlocked")
        #expect(again["user"] as? String == "alice")

        #expect(!service.log.contains(Self.aliceUID) && !service.log.lowercased().contains(Self.aliceUID.lowercased()), "no UID in the log")
        #expect(!events.seen.contains { "\($0)".lowercased().contains(Self.aliceUID.lowercased()) }, "no UID in the events")
    }

    /// Mode desfire: alice's card, keyed by `fpmod card enroll`, opens once it proves its key; a
    /// Classic with the very same UID (a copy) and a DESFire card fpmod never keyed are refused
    /// without being looked up, counted toward the card lockout, and open nothing.
    @Test func desfireModeTakesOnlyCardsThatProveTheirKey() throws {
        let cli = CLI()
        let simulator = try Simulator(cli, card: nil)
        let device = ["--device", "pn532_uart:\(simulator.link):115200"]
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        try say(simulator, #"{"place":"desfire","uid":"\#(Self.aliceUID)"}"#)
        let enrolled = try cli.run(["card", "enroll", "alice", "--label", "badge"] + device)
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        try say(simulator, #"{"remove":true}"#)

        let nfc = #""nfc": {"device": "pn532_uart:\#(simulator.link):115200", "mode": "desfire"}"#
        let service = try RunningService(cli, policy: #"{"relayPulseSeconds": 0.3, "verifyMode": "card", "pinRequiredAfterEnrolledSetChange": false}"#,
                                         sections: nfc)
        defer { service.stop() }
        let events = try EventTap(service.sockets + "/events.sock")
        try waitFor("the service to open the reader") { service.log.contains("answered; polling for cards") }
        #expect(service.log.contains("mode desfire: only DESFire cards keyed by fpmod card enroll"), "\(service.log)")

        try say(simulator, #"{"place":"desfire","uid":"\#(Self.aliceUID)"}"#)
        let unlocked = try events.next("unlocked")
        #expect(unlocked["user"] as? String == "alice" && unlocked["reason"] as? String == "card", "\(unlocked)")
        try say(simulator, #"{"remove":true}"#)

        // A copy: a Classic answering with alice's UID.
        try say(simulator, #"{"place":"classic","uid":"\#(Self.aliceUID)"}"#)
        try events.next("nfc", ["result": "rejected", "reason": "not-secure"])
        try events.next("card-unknown")
        try say(simulator, #"{"remove":true}"#)
        // A DESFire card fpmod never keyed.
        try say(simulator, #"{"place":"desfire","uid":"04112233445566"}"#)
        try events.next("nfc", ["result": "rejected", "reason": "not-enrolled"])
        try events.next("card-unknown")
        try say(simulator, #"{"remove":true}"#)
        #expect(events.seen.filter { $0["event"] as? String == "unlocked" }.count == 1, "only alice's real card opened: \(events.seen)")
        #expect(!service.log.lowercased().contains(Self.aliceUID.lowercased()), "no UID in the log")
    }

    /// Doctor's NFC line from the reader's own checks: a node that is not there, and a path
    /// that is no device, each named with its fix; nothing is opened that is not a reader.
    @Test func doctorNamesAMissingOrWrongNode() throws {
        let cli = CLI()
        for (device, expected) in [("pn532_uart:\(cli.directory)/no-such-tty:115200", "does not exist"),
                                   ("pn532_uart:\(cli.directory):115200", "is not a device node")] {
            let config = cli.directory + "/nfc.json"
            try #"{"board": "gpio-vm", "nfc": {"device": "\#(device)", "mode": "uid"}}"#.write(toFile: config, atomically: true, encoding: .utf8)
            let doctor = try cli.run(["--config", config, "doctor"])
            let line = doctor.stdout.split(separator: "\n").first { $0.contains("NFC reader") }.map(String.init) ?? ""
            #expect(line.contains(expected), "\(doctor.stdout)")
        }
    }
}
