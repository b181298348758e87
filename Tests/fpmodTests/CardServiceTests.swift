import Foundation
import Testing

/// Cards at a running door, through the real binary: `fpmod card add` and `fpmod mode` write the
/// store, `fpmod run --sim --sim-gpio` reads it at each card, and `card NUMBER` on its control
/// socket (what a kiosk's or a test's reader sends; a Wiegand reader's cards take the same path,
/// see the GPIO VM test) is decided by the verify mode.
@Suite(.serialized)
struct CardServiceTests {
    typealias RunningService = ServiceControlCLITests.RunningService

    func card(_ service: RunningService, _ number: String) throws -> [String: Any] {
        let reply = try CLI.unixRequest(path: service.sockets + "/control.sock", line: "card \(number)")
        return try #require(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any], "reply: \(reply)")
    }

    func touch(_ service: RunningService, _ cli: CLI, _ finger: String, expecting event: String) throws {
        let before = try cli.auditEvents().count
        try service.simulator("touch \(finger) 1")
        do {
            try waitFor("the audit row \(event)") { try cli.auditEvents().dropFirst(before).contains(event) }
        } catch {
            Issue.record("\(error)\n\(try cli.run(["log", "--limit", "20"]).stdout)\n\(service.log)")
            throw error
        }
    }

    @Test func cardAndFingerAtTheDoor() throws {
        let cli = CLI()
        let service = try RunningService(cli, policy: #"{"relayPulseSeconds": 0.3, "verifyMode": "card-and-finger", "factorWindowSeconds": 30, "pinRequiredAfterEnrolledSetChange": false}"#)
        defer { service.stop() }
        let config = ["--config", service.config]

        try service.simulator("touch alice-right-index 6")
        let enrolled = try cli.run(config + ["enroll", "alice", "--finger", "right-index"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")

        // Every input is checked before the store is touched.
        let badNumber = try cli.run(config + ["card", "add", "alice", "26:300:1"])
        #expect(badNumber.status == 64 && badNumber.stderr.contains("facility 300 does not fit a 26-bit card"), "\(badNumber.stderr)")
        let badLabel = try cli.run(config + ["card", "add", "alice", "26:123:4567", "--label", "blue fob"])
        #expect(badLabel.status == 64, "\(badLabel.stderr)")
        #expect(try cli.run(config + ["card", "add", "nobody", "26:123:4567"]).status == 64)
        #expect((try cli.run(config + ["card", "list", "--json"]).json?["cards"] as? [Any])?.isEmpty == true, "nothing was added")

        let added = try cli.run(config + ["card", "add", "alice", "26:123:4567", "--label", "badge"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("Added alice's Wiegand card badge"), "\(added.stdout)")
        #expect(!added.stdout.contains("4567"))
        let taken = try cli.run(config + ["card", "add", "alice", "26:123:4567"])
        #expect(taken.status != 0, "\(taken.stderr)")
        #expect(taken.stderr.contains("already alice's (badge)"), "\(taken.stderr)")

        // The simulator's first touch was scanned before the enrollment reached the service: an
        // unmatched finger now waits for a card. A card nobody has settles it either way (it
        // decides that attempt, or waits and is replaced by the next card).
        _ = try card(service, "26:1:1")

        // The card alone waits for the finger; the finger opens.
        let first = try card(service, "26:123:4567")
        #expect(first["result"] as? String == "factor-needed" && first["next"] as? String == "finger", "\(first)")
        try touch(service, cli, "alice-right-index", expecting: "verified")

        // An unknown card looks the same at first, and the finger after it opens nothing.
        let unknown = try card(service, "26:123:9999")
        #expect(unknown["result"] as? String == "factor-needed", "\(unknown)")
        try touch(service, cli, "alice-right-index", expecting: "not-accepted")

        // Switched off: the same, and audited.
        #expect(try cli.run(config + ["card", "disable", "alice", "badge"]).status == 0)
        #expect(try card(service, "26:123:4567")["result"] as? String == "factor-needed")
        try touch(service, cli, "alice-right-index", expecting: "not-accepted")
        #expect(try cli.run(config + ["card", "enable", "alice", "badge"]).status == 0)

        // Alice's own mode: her card alone opens.
        #expect(try cli.run(config + ["mode", "alice", "card-or-finger"]).status == 64)
        #expect(try cli.run(config + ["mode", "alice", "card"]).status == 0)
        let alone = try card(service, "26:123:4567")
        #expect(alone["result"] as? String == "unlocked" && alone["user"] as? String == "alice", "\(alone)")
        #expect(try cli.run(config + ["mode", "alice", "door"]).status == 0)

        let malformed = try CLI.unixRequest(path: service.sockets + "/control.sock", line: "card 4567")
        #expect(malformed.contains("not a card number"), "\(malformed)")

        let listed = try cli.run(config + ["card", "list"])
        #expect(listed.stdout.contains("alice  badge  Wiegand card"), "\(listed.stdout)")
        #expect(try cli.run(config + ["card", "delete", "alice", "badge"]).status == 0)
        #expect(try card(service, "26:123:4567")["result"] as? String == "factor-needed")

        let audit = try cli.auditEvents()
        for event in ["card-added", "factor-pending", "verified", "not-accepted", "card-disabled", "card-enabled", "verify-mode", "card-ok", "card-deleted"] {
            #expect(audit.contains(event), "\(event) in \(audit)")
        }
        #expect(!service.log.contains("4567"), "\(service.log)")
    }
}
