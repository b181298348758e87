import Foundation
import Testing

/// Issue 21, item 12: an obvious PIN (1234, 4321, 123456, 1111, 1212, 2580…) is refused
/// wherever one is set through the binary, with a reason and what to choose instead, without
/// the PIN in the message; nothing is changed.
@Suite struct PINRuleCLITests {
    static let obvious = ["1234", "4321", "123456", "654321", "0000", "1212", "2468", "2580"]

    @Test func pinRefusesObviousPINsFromTheOptionStdinAndTheEnvironment() throws {
        let cli = CLI()
        let enrolled = try cli.sim(["enroll", "alice"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        for pin in Self.obvious {
            for result in [try cli.run(["pin", "alice", "--pin", pin]), try cli.run(["pin", "alice"], stdin: pin + "\n"),
                           try cli.run(["pin", "alice"], environment: ["FPMOD_PIN": pin])] {
                #expect(result.status == 64, "\(pin): \(result.stderr)")
                #expect(result.stderr.contains("is among the first anybody tries") || result.stderr.contains("most common"),
                        "says why: \(result.stderr)")
                #expect(result.stderr.contains("Choose one with 4 to 12 digits without an obvious pattern"), "says what: \(result.stderr)")
                // The rule's own examples aside, the PIN does not appear.
                var message = result.stderr
                for example in ["(like 1234, 4321, 7890 or 2468)", "(like 1212 or 123123)", "like 1234 or 2468", "like 1111 or 1212"] {
                    message = message.replacingOccurrences(of: example, with: "")
                }
                #expect(!message.contains(pin), "the PIN is echoed: \(result.stderr)")
                #expect(!result.stdout.contains(pin))
            }
        }
        let users = try cli.userList()
        #expect(users.first?["hasPIN"] as? Bool == false, "nothing was set")
        let events = try cli.auditEvents()
        #expect(!events.contains("pin-set"), "\(events)")
        let accepted = try cli.run(["pin", "alice", "--pin", "4826"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }

    @Test func setupRefusesAnObviousPINTypedOrFromTheEnvironment() throws {
        let fromEnvironment = CLI()
        let refused = try fromEnvironment.sim(["--config", fromEnvironment.directory + "/config.json", "setup", "--defaults"],
                                              environment: ["FPMOD_PIN": "123456"])
        #expect(refused.status == 64, "\(refused.stdout)\n\(refused.stderr)")
        #expect(refused.stderr.contains("FPMOD_PIN is not accepted: a PIN whose digits go up or down"), "\(refused.stderr)")

        let typed = CLI()
        let result = try typed.sim(["--config", typed.directory + "/config.json", "setup"],
                                   stdin: "dave\n\n4321\n4826\n4826\n\n\ny\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Not accepted: a PIN whose digits go up or down"), "\(result.stdout)")
        #expect(result.stdout.contains("✔ Set dave's PIN"), "\(result.stdout)")
    }
}

extension CLI {
    func userList() throws -> [[String: Any]] {
        try run(["list", "--json"]).json?["users"] as? [[String: Any]] ?? []
    }
}
