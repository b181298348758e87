import DoorLock
import Testing

/// "A door never opens on a corrupted frame": with every reply damaged on the wire, a touch by
/// an enrolled finger must leave the relay off; once the line is clean again, the same finger
/// opens the door.
@Suite(.serialized)
struct CorruptedLinkTests {
    @Test func everyReplyCorruptedKeepsTheDoorShut() throws {
        let lock = try LockHarness(configJSON: #"{"policy": {"relayPulseSeconds": 0.3}}"#)
        lock.simulator.fault(.noise)
        let before = lock.events.count
        lock.press("alice-index")
        let event = try lock.waitForEvent(after: before) {
            ["disconnected", "match", "no-match", "retry-scan", "misplaced", "module-unavailable"].contains($0.name)
        }
        #expect(event.name != "match")
        lock.liftFinger()
        #expect(!lock.relayChanges.contains(true))
        #expect(lock.events(named: "unlocked").isEmpty)

        lock.simulator.fault(.none)
        if event.name == "disconnected" { try lock.waitForEvent(named: "reconnected", after: before) }
        let match = try lock.scan("alice-index", expecting: ["match", "no-match", "module-unavailable"])
        #expect(match.name == "match")
        try waitUntil("the relay pulse") { lock.relayChanges.contains(true) }
    }
}
