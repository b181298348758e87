import DoorLock
import Foundation
import Testing

@Suite(.serialized)
struct ServiceEffectsTests {
    @Test func hooksRunWithUserInTheEnvironment() throws {
        let out = "/tmp/fpl-hook-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let config = #"{"policy": {"relayPulseSeconds": 0.3}, "hooks": {"onUnlock": ["/bin/sh", "-c", "echo $FPMOD_EVENT $FPMOD_USER $FPMOD_SLOT > \#(out)"]}}"#
        let lock = try LockHarness(configJSON: config)
        try lock.scan("alice-index", expecting: ["match"])
        try waitUntil("the hook wrote its file") {
            (try? String(contentsOfFile: out, encoding: .utf8)) == "unlock alice 0\n"
        }
    }

    @Test func duressFingerOpensSilently() throws {
        let out = "/tmp/fpl-duress-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let config = #"{"policy": {"relayPulseSeconds": 0.3}, "hooks": {"onDuress": ["/bin/sh", "-c", "echo $FPMOD_USER > \#(out)"]}}"#
        let lock = try LockHarness(configJSON: config, beforeStart: { LockHarness.enroll($0, finger: "alice-pinky", slot: 2) },
                                   setUpStore: { store in
                                       try store.addFinger(user: "alice", label: "left-pinky", slot: 2,
                                                           template: LockHarness.template(for: "alice-pinky"), quality: 100,
                                                           duress: true)
                                   })
        let subscriber = try EventSubscriber(path: lock.options.eventsSocket)
        let match = try lock.scan("alice-pinky", expecting: ["match"])
        #expect(match.fields["user"] == "alice")
        let duress = try lock.waitForEvent(named: "duress")
        #expect(!duress.isPublic)
        try waitUntil("the duress hook ran") { (try? String(contentsOfFile: out, encoding: .utf8)) == "alice\n" }
        #expect(try lock.store.auditEntries(limit: 50).contains { $0.event == "duress" })
        let lines = try subscriber.lines(until: { $0.contains("\"unlocked\"") })
        #expect(lines.contains { $0.contains("\"event\":\"match\"") })
        #expect(!lines.contains { $0.contains("duress") })
    }

    @Test func controlSocketRejectsUnknownCommandsAndNonAdmins() throws {
        let lock = try LockHarness()
        let unknown = try lock.control("open-sesame")
        #expect(unknown["ok"] as? Bool == false)
        #expect((unknown["error"] as? String)?.contains("unknown command") == true)
        let notAdmin = try lock.control("clear alice 4826")
        #expect(notAdmin["ok"] as? Bool == false)
        let admin = try lock.control("unlock boss 7391")
        #expect(admin["result"] as? String == "unlocked")
        let cleared = try lock.control("clear boss 7391")
        #expect(cleared["result"] as? String == "cleared")
    }

    @Test func scanCommandWorksWithoutTouchEdge() throws {
        let lock = try LockHarness(configJSON: #"{"policy": {"relayPulseSeconds": 0.3}}"#)
        lock.simulator.place("alice-index")
        let reply = try lock.control("scan")
        #expect(reply["result"] as? String == "scanning")
        let event = try lock.waitForEvent { ["match", "no-match"].contains($0.name) }
        #expect(event.name == "match")
    }

    @Test func reloadKeepsTheOldConfigWhenTheNewOneIsInvalid() throws {
        let lock = try LockHarness(configLoader: {
            try LockConfig.parse(Data(#"{"board": "gpio-vm", "policy": {"graceSeconds": 301}}"#.utf8))
        })
        lock.service.requestReload()
        let event = try lock.waitForEvent(named: "config-invalid")
        #expect(event.fields["reason"]?.contains("policy.graceSeconds") == true)
        #expect(try lock.control("status")["ok"] as? Bool == true)
    }

    @Test func aHookThatCannotRunIsAWarningAtStartAndGoneAfterAFixingReload() throws {
        let broken = #"{"board": "gpio-vm", "hooks": {"onUnlock": ["/nonexistent/notify-door"]}}"#
        let lock = try LockHarness(configJSON: broken, configLoader: {
            try LockConfig.parse(Data(#"{"board": "gpio-vm", "hooks": {"onUnlock": ["/bin/true"]}}"#.utf8))
        })
        let warnings = try lock.control("status")["configWarnings"] as? [String]
        #expect(warnings == ["hooks.onUnlock: /nonexistent/notify-door does not exist; give the full path of the program to run"])
        try lock.scan("alice-index", expecting: ["match"])
        lock.service.requestReload()
        try lock.waitForEvent(named: "config-reloaded")
        #expect(try lock.control("status")["configWarnings"] as? [String] == [])
    }

    @Test func tamperSwitchEntersPinOnly() throws {
        let lock = try LockHarness()
        lock.setInput(LockHarness.tamper, active: true)
        try lock.waitForEvent(named: "tamper")
        let refused = try lock.scan("alice-index", expecting: ["match", "pin-only"])
        #expect(refused.name == "pin-only")
        #expect(!lock.relayChanges.contains(true))
    }
}

/// A client of the events socket, reading JSON lines.
final class EventSubscriber {
    let connection: UnixConnectionBox

    init(path: String) throws { connection = try UnixConnectionBox(path: path) }

    func lines(until done: (String) -> Bool) throws -> [String] {
        var lines: [String] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            guard let line = try connection.readLine(deadline: deadline) else { break }
            lines.append(line)
            if done(line) { return lines }
        }
        throw HarnessError("events socket never delivered the expected line; got \(lines)")
    }
}
