import Testing
@testable import AccessPolicy

@Suite("Door contact and exit button")
struct DoorContactTests {
    /// A started lock whose door was reported closed (the first report is a state).
    static func closedDoor(_ configure: (inout PolicyConfig) -> Void = { _ in }) -> Harness {
        var lock = Harness(configure)
        lock.send(.doorClosed)
        return lock
    }

    @Test("opened while locked: forced-open alarm")
    func forcedOpen() {
        var lock = Self.closedDoor()
        lock.advance(60)
        let effects = lock.send(.doorOpened)
        #expect(effects.alarms == [.forcedOpen])
        #expect(effects.eventNames == ["door-opened", "door-forced"])
    }

    @Test("opened during the relay pulse: no alarm")
    func openedDuringPulse() {
        var lock = Self.closedDoor()
        _ = lock.match()
        lock.advance(1)
        #expect(lock.send(.doorOpened).alarms.isEmpty)
    }

    @Test("opened just after the pulse, inside the exemption: no alarm; at its end: forced")
    func exemptionBoundary() {
        var early = Self.closedDoor()
        _ = early.match()
        early.tick(after: 3)
        early.advance(4.999)
        #expect(early.send(.doorOpened).alarms.isEmpty)

        var late = Self.closedDoor()
        _ = late.match()
        late.tick(after: 3)
        late.advance(5)
        #expect(late.send(.doorOpened).alarms == [.forcedOpen])
    }

    @Test("the exit button pulses the relay and exempts the opening")
    func exitButton() {
        var lock = Self.closedDoor()
        let effects = lock.send(.exitButton)
        #expect(effects.unlocks == [.exitButton])
        #expect(effects.contains(.relayPulse(seconds: 3)))
        #expect(effects.eventNames.contains("exit-request"))
        lock.tick(after: 3)
        lock.advance(2)
        #expect(lock.send(.doorOpened).alarms.isEmpty)
    }

    @Test("the exit button works during lockout and PIN-only mode")
    func exitButtonAlwaysWorks() {
        var lock = Self.closedDoor()
        lock.noMatch(times: 5)
        lock.send(.tamper(active: true))
        #expect(lock.send(.exitButton).unlocks == [.exitButton])
    }

    @Test("held open: no alarm at 29.999 s, alarm at exactly 30 s, only once")
    func heldOpenBoundary() {
        var lock = Self.closedDoor()
        _ = lock.match()
        lock.send(.doorOpened)
        lock.tick(after: 3)
        #expect(nextDeadline(lock.state) == lock.now.advanced(by: 27))
        #expect(lock.tick(after: 26.999).alarms.isEmpty)
        let alarm = lock.tick(after: 0.001)
        #expect(alarm.alarms == [.heldOpen])
        #expect(alarm.eventNames == ["door-held-open"])
        #expect(lock.tick(after: 60).alarms.isEmpty)
        #expect(nextDeadline(lock.state) == nil)
    }

    @Test("held-open event counts whole seconds, like the lockout's", arguments: [(2.0, "2"), (2.5, "3"), (30.0, "30")])
    func heldOpenWholeSeconds(configured: Double, shown: String) {
        var lock = Self.closedDoor { $0.heldOpenSeconds = configured }
        lock.send(.exitButton)
        lock.send(.doorOpened)
        let alarm = lock.tick(after: configured)
        #expect(alarm.fields(of: "door-held-open")?["seconds"] == shown)
        #expect(alarm.contains { if case .audit("door-held-open", _, let detail) = $0 { detail == "door open for \(shown) s" } else { false } })
    }

    @Test("held-open alarm cleared on close, and re-armed on the next opening")
    func heldOpenCleared() {
        var lock = Self.closedDoor()
        lock.send(.exitButton)
        lock.send(.doorOpened)
        lock.tick(after: 30)
        let closed = lock.send(.doorClosed)
        #expect(closed.contains(.alarmCleared(.heldOpen)))
        #expect(closed.eventNames.contains("door-held-open-cleared"))
        lock.send(.exitButton)
        lock.send(.doorOpened)
        #expect(lock.tick(after: 30).alarms == [.heldOpen])
    }

    @Test("closing before the limit: no held-open alarm, no clear")
    func closedInTime() {
        var lock = Self.closedDoor()
        lock.send(.exitButton)
        lock.send(.doorOpened)
        lock.advance(10)
        let closed = lock.send(.doorClosed)
        #expect(!closed.contains(.alarmCleared(.heldOpen)))
        #expect(lock.tick(after: 60).alarms.isEmpty)
    }

    @Test("door mode: closing after passing re-locks at once (anti-tailgating)")
    func relockOnClose() {
        var lock = Self.closedDoor()
        _ = lock.match()
        lock.advance(1)
        lock.send(.doorOpened)
        lock.advance(0.5)
        let closed = lock.send(.doorClosed)
        #expect(closed.locked)
        #expect(closed.fields(of: "locked") == ["cause": "door-closed"])
    }

    @Test("re-lock on close can be switched off")
    func relockOnCloseOff() {
        var lock = Self.closedDoor { $0.relockOnDoorClose = false }
        _ = lock.match()
        lock.send(.doorOpened)
        #expect(!lock.send(.doorClosed).locked)
        #expect(lock.tick(after: 3).locked)
    }

    @Test("the first door report after a start is a state, not a forced opening")
    func firstReportAfterStart() throws {
        var lock = Harness()
        let first = lock.send(.doorOpened)
        #expect(first.alarms.isEmpty)
        #expect(first.fields(of: "door-opened") == ["initial": "true"])
        #expect(lock.tick(after: 30).alarms == [.heldOpen], "held-open still watched")
        try lock.restart(downtime: 10)
        #expect(lock.send(.doorOpened).alarms.isEmpty)
    }

    @Test("a repeated open report is not a second edge")
    func duplicateOpen() {
        var lock = Self.closedDoor()
        lock.send(.doorOpened)
        #expect(lock.send(.doorOpened).isEmpty)
    }
}
