import Foundation
import Glibc
import Testing

/// `fpmod card enroll` and `card read`'s secure verdict through the real binary, against
/// `fpmod sim --profile pn532` in another process holding a simulated DESFire EV1: real libnfc
/// and real libfreefare on our side, cards placed and faults set on the control socket.
@Suite(.serialized) struct CardEnrollCommandTests {
    typealias Simulator = CardCommandTests.Simulator
    static let uid = "04527A92C15E80"
    static let otherUID = "04E1D2C3B4A596"

    func control(_ simulator: Simulator, _ line: String) throws {
        let reply = try CLI.unixRequest(path: simulator.control, line: line)
        #expect(reply.contains("\"ok\":true"), "\(reply)")
    }

    func device(_ simulator: Simulator) -> [String] { ["--device", "pn532_uart:\(simulator.link)", "--timeout", "5s"] }

    @Test func enrollThenReadAuthenticates() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let simulator = try Simulator(cli, card: "desfire:\(Self.uid)")
        try #require(FileManager.default.fileExists(atPath: simulator.link))

        // No DESFire card enrolled yet: nothing to authenticate with.
        let before = try cli.run(["--json", "card", "read"] + device(simulator))
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.json?["secure"] as? String == "not-checked", "\(before.stdout)")

        // Inputs are checked before anything is touched: an unknown user, a bad device.
        #expect(try cli.run(["card", "enroll", "nobody"] + device(simulator)).status != 0)
        #expect(try cli.run(["card", "enroll", "alice", "--device", "pn999:/dev/null"]).status == 64)
        let untouched = try cli.run(["--json", "card", "read"] + device(simulator))
        #expect(untouched.json?["secure"] as? String == "not-checked", "no master key may be made by a refused enroll: \(untouched.stdout)")

        let enrolled = try cli.run(["card", "enroll", "alice", "--label", "badge"] + device(simulator))
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        #expect(enrolled.stdout.contains("Enrolled alice's DESFire card badge"), "\(enrolled.stdout)")
        #expect(!enrolled.stdout.contains(Self.uid) && !enrolled.stderr.contains(Self.uid))
        let log = try cli.run(["log", "--limit", "10"])
        #expect(log.stdout.contains("card-enroll-started") && log.stdout.contains("card-added"), "\(log.stdout)")
        let list = try cli.run(["card", "list"])
        #expect(list.stdout.contains("alice  badge  DESFire card (AES)"), "\(list.stdout)")

        let read = try cli.run(["card", "read"] + device(simulator))
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("AES authentication passed"), "\(read.stdout)")
        #expect(!read.stderr.contains("clone"), "\(read.stderr)")

        // The same card twice: refused with who has it.
        let again = try cli.run(["card", "enroll", "alice"] + device(simulator))
        #expect(again.status == 65, "\(again.stderr)")
        #expect(again.stderr.contains("enrolled already, as alice's badge"), "\(again.stderr)")
    }

    @Test func anotherStoresCardFailsAuthenticationAndIsNotRekeyed() throws {
        let first = CLI(), second = CLI()
        #expect(try first.sim(["enroll", "alice"]).status == 0)
        #expect(try second.sim(["enroll", "bob"]).status == 0)
        let simulator = try Simulator(first, card: "desfire:\(Self.uid)")
        try #require(FileManager.default.fileExists(atPath: simulator.link))
        #expect(try first.run(["card", "enroll", "alice"] + device(simulator)).status == 0)
        // The second store gets its own master key with a card of its own.
        try control(simulator, #"{"place":"desfire","uid":"\#(Self.otherUID)"}"#)
        #expect(try second.run(["card", "enroll", "bob"] + device(simulator)).status == 0)

        try control(simulator, #"{"place":"desfire","uid":"\#(Self.uid)"}"#)
        let read = try second.run(["--json", "card", "read"] + device(simulator))
        #expect(read.status == 1, "a card keyed by another store must not pass: \(read.stdout) \(read.stderr)")
        #expect(read.json?["secure"] as? String == "wrong-key", "\(read.stdout)")
        let rekey = try second.run(["card", "enroll", "bob", "--label", "stolen"] + device(simulator))
        #expect(rekey.status == 77, "\(rekey.stderr)")
        #expect(rekey.stderr.contains("keyed by another fpmod store"), "\(rekey.stderr)")
        // Still the first store's card.
        #expect(try first.run(["--json", "card", "read"] + device(simulator)).json?["secure"] as? String == "authenticated")
    }

    @Test func aCardWithANonDefaultPICCKeyIsRefusedWithTheFix() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let simulator = try Simulator(cli, card: nil)
        try control(simulator, #"{"place":"desfire","uid":"\#(Self.uid)","piccKey":"0102030405060708"}"#)
        let refused = try cli.run(["card", "enroll", "alice"] + device(simulator))
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(refused.stderr.contains("PICC master key is not the factory key"), "\(refused.stderr)")
        #expect(try cli.run(["card", "list"]).stdout.contains("No cards"))

        try control(simulator, #"{"place":"classic","uid":"0A1B2C3D"}"#)
        let classic = try cli.run(["card", "enroll", "alice"] + device(simulator))
        #expect(classic.status == 65, "\(classic.stderr)")
        #expect(classic.stderr.contains("not a MIFARE DESFire EV1"), "\(classic.stderr)")
    }

    @Test func garbledAnswersAndASilentReaderAreTypedErrors() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let simulator = try Simulator(cli, card: "desfire:\(Self.uid)")
        #expect(try cli.run(["card", "enroll", "alice"] + device(simulator)).status == 0)

        try control(simulator, #"{"fault":"exchangeGarbage"}"#)
        let garbled = try cli.run(["card", "read"] + device(simulator))
        #expect(garbled.status == 74, "\(garbled.stderr)")
        #expect(garbled.stderr.contains("mifare_desfire_") && garbled.stderr.contains("garbled"), "\(garbled.stderr)")
        #expect(!garbled.stdout.contains("passed"))

        try control(simulator, #"{"fault":"exchangeSilent"}"#)
        let stalled = try cli.run(["card", "read"] + device(simulator))
        #expect(stalled.status == 69, "\(stalled.stderr)")
        #expect(stalled.stderr.contains("mifare_desfire_") && stalled.stderr.contains("stopped answering"), "\(stalled.stderr)")

        try control(simulator, #"{"fault":"silent"}"#)
        let silent = try cli.run(["card", "read"] + device(simulator))
        #expect(silent.status == 69, "\(silent.stderr)")
        #expect(!silent.stdout.contains("passed"))
    }
}
