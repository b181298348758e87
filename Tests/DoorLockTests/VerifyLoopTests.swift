import AccessPolicy
import DoorLock
import Foundation
import Testing

@Suite(.serialized)
struct VerifyLoopTests {
    static let fastDoor = #"{"policy": {"relayPulseSeconds": 0.3}}"#

    @Test func touchEdgeMatchPulsesTheRelay() throws {
        let lock = try LockHarness(configJSON: Self.fastDoor)
        let match = try lock.scan("alice-index", expecting: ["match", "no-match", "retry-scan", "misplaced"])
        #expect(match.name == "match")
        #expect(match.fields["user"] == "alice")
        #expect(match.fields["slot"] == "0")
        let stages = match.timing?.millisecondsFromEdge.map(\.stage) ?? []
        #expect(stages.contains("captureStart") && stages.contains("searchEnd") && stages.contains("relayOn"))
        try waitUntil("the relay pulse ends") { lock.relayChanges.suffix(2) == [true, false] }
        #expect(lock.relayChanges.first == false)  // requested inactive
        let audit = try lock.store.auditEntries(limit: 50)
        let row = try #require(audit.first { $0.event == "match" })
        #expect(row.user == "alice")
        #expect(row.latencyJSON?.contains("relayOn") == true)
    }

    @Test func strangerIsRefusedWithoutRelay() throws {
        let lock = try LockHarness(configJSON: Self.fastDoor)
        let event = try lock.scan("mallory", expecting: ["match", "no-match"])
        #expect(event.name == "no-match")
        #expect(!lock.relayChanges.contains(true))
        #expect(lock.events(named: "unlocked").isEmpty)
    }

    @Test func exitButtonOpensWhileAScanIsInFlight() throws {
        let lock = try LockHarness(configJSON: Self.fastDoor)
        lock.simulator.fault(.delay(milliseconds: 250))
        let before = lock.events.count
        lock.press("mallory")
        try waitUntil("the scan starts") { lock.service.snapshot.scanInFlight }
        lock.setInput(LockHarness.exitButton, active: true)
        let unlocked = try lock.waitForEvent(named: "unlocked", after: before)
        #expect(unlocked.fields["reason"] == "exitButton")
        #expect(lock.service.snapshot.scanInFlight)  // the scan is still running
        #expect(lock.events.dropFirst(before).allSatisfy { $0.name != "no-match" })
        lock.setInput(LockHarness.exitButton, active: false)
        lock.simulator.fault(.none)
        try lock.waitForEvent(named: "no-match", after: before)
        lock.liftFinger()
    }

    @Test func fiveStrangersLockOutThenPinClears() throws {
        let lock = try LockHarness(configJSON: Self.fastDoor)
        for _ in 0..<5 { try lock.scan("mallory", expecting: ["no-match", "lockout"]) }
        try lock.waitForEvent(named: "lockout")
        let before = lock.events.count
        let refused = try lock.scan("alice-index", expecting: ["match", "lockout", "lockout-permanent"])
        #expect(refused.name == "lockout")
        #expect(lock.events.dropFirst(before).allSatisfy { $0.name != "unlocked" })
        let status = try lock.control("status")
        #expect(status["fingerprintLockout"] as? String == "timed")

        let wrong = try lock.control("pin alice 0000")
        #expect(wrong["ok"] as? Bool == false)
        let reply = try lock.control("pin alice 4826")
        #expect(reply["result"] as? String == "unlocked")
        #expect(try lock.control("status")["fingerprintLockout"] as? String == "none")
        let match = try lock.scan("alice-index", expecting: ["match", "lockout"])
        #expect(match.name == "match")
    }

    @Test func doorHeldOpenRaisesTheAlarm() throws {
        let lock = try LockHarness(configJSON: #"{"policy": {"heldOpenSeconds": 0.2}}"#)
        lock.setInput(LockHarness.doorContact, active: true)
        try lock.waitForEvent(named: "door-held-open")
        #expect(try lock.control("status")["door"] as? String == "open")
    }

    @Test func silentModuleIsReportedAndReopened() throws {
        let lock = try LockHarness(configJSON: Self.fastDoor)
        lock.simulator.fault(.silence)
        let before = lock.events.count
        lock.press("alice-index")
        try lock.waitForEvent(named: "disconnected", after: before)
        lock.liftFinger()
        #expect(!lock.relayChanges.contains(true))
        #expect(try lock.control("status")["module"] as? String == "disconnected")
        lock.simulator.fault(.none)
        try lock.waitForEvent(named: "reconnected", after: before)
        let match = try lock.scan("alice-index", expecting: ["match", "no-match", "module-unavailable"])
        #expect(match.name == "match")
    }

    @Test func unknownSlotIsTamperNotAMatch() throws {
        // Written into the module's library behind the store's back, before the service reads the index.
        let lock = try LockHarness(configJSON: Self.fastDoor) { LockHarness.enroll($0, finger: "intruder", slot: 1) }
        let event = try lock.scan("intruder", expecting: ["tamper", "match", "no-match"])
        #expect(event.name == "tamper")
        #expect(event.fields["source"] == "module")
        #expect(!lock.relayChanges.contains(true))
        #expect(try lock.control("status")["pinOnly"] is String)
    }

    @Test func theServiceRequestsTheConfiguredDebounce() throws {
        let lock = try LockHarness(configJSON: #"{"gpio": {"lines": {"exit-button": {"debounceMs": 20}}}}"#)
        #expect(lock.chip.debounceMicroseconds(offset: LockHarness.exitButton) == 20_000)
        #expect(lock.chip.debounceMicroseconds(offset: LockHarness.doorContact) == 0)
        #expect(lock.chip.debounceMicroseconds(offset: LockHarness.touch) == 0)
    }

    @Test func stopLeavesRelayOffAndLinesReleased() throws {
        let lock = try LockHarness(configJSON: #"{"policy": {"relayPulseSeconds": 30}}"#)
        try lock.scan("alice-index", expecting: ["match"])
        try waitUntil("the relay is on") { lock.service.snapshot.relayOn }
        lock.service.stop()
        #expect(lock.relayChanges.last == false)
        #expect(lock.chip.consumer(offset: LockHarness.relay) == nil)
        #expect(lock.chip.consumer(offset: LockHarness.touch) == nil)
        #expect(!FileManager.default.fileExists(atPath: lock.options.controlSocket))
    }

    @Test func withoutTouchLineGenImgPollingFindsTheFinger() throws {
        let lock = try LockHarness(configJSON: #"{"scanIntervalMs": 50, "policy": {"relayPulseSeconds": 0.3}}"#, touchLine: false)
        lock.simulator.touch("alice-index")
        let event = try lock.waitForEvent { ["match", "no-match"].contains($0.name) }
        #expect(event.name == "match")
        let handled = lock.simulator.status().commandsHandled
        try waitUntil("more polls after the lift") { lock.simulator.status().commandsHandled > handled + 10 }
        #expect(lock.events(named: "match").count == 1)
    }
}
