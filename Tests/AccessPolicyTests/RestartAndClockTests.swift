import Foundation
import Testing
@testable import AccessPolicy

@Suite("Restarts, persistence and clock jumps")
struct RestartAndClockTests {
    @Test("state round-trips through JSON unchanged")
    func jsonRoundTrip() throws {
        var lock = Harness { $0.graceSeconds = 30 }
        lock.send(.enrolledSetChanged(digest: "abc"))
        lock.noMatch(times: 7)
        lock.wrongPin(times: 2)
        lock.send(.moduleTamper(.unknownSlot(9)))
        lock.send(.doorClosed)
        lock.send(.exitButton)
        let data = try JSONEncoder().encode(lock.state)
        #expect(try JSONDecoder().decode(PolicyState.self, from: data) == lock.state)
    }

    @Test("a start always locks, even if the state was saved unlocked")
    func startLocks() throws {
        var lock = Harness { $0.mode = .kiosk }
        _ = lock.match()
        let start = try lock.restart(downtime: 1)
        #expect(start.first == .lock)
        #expect(start.filter { $0 == .lock }.count == 1)
        #expect(!start.unlocked)
        #expect(lock.state.lock == .locked)
    }

    @Test("no unlock is replayed after a restart: grace ends with the run")
    func noReplay() throws {
        var lock = Harness { $0.graceSeconds = 300 }
        _ = lock.match()
        try lock.restart(downtime: 1)
        #expect(lock.send(.unlockRequested).denials == [.freshMatchRequired])
    }

    @Test("a lockout continues across a restart in the same boot; downtime counts")
    func lockoutAcrossRestart() throws {
        var lock = Harness()
        lock.noMatch(times: 5)
        lock.advance(10)
        try lock.restartService(downtime: 5)
        #expect(lock.match().denials == [.lockedOut(remaining: 15)])
        #expect(nextDeadline(lock.state) == lock.now.advanced(by: 15))
        lock.advance(15)
        #expect(lock.match().unlocked)
    }

    @Test("a lockout continues across a reboot; the time since it was last observed does not count")
    func lockoutAcrossReboot() throws {
        var lock = Harness()
        lock.noMatch(times: 5)
        lock.advance(10)
        try lock.restart(downtime: 5)
        #expect(lock.match().denials == [.lockedOut(remaining: 30)])
        lock.advance(30)
        #expect(lock.match().unlocked)
    }

    @Test("a permanent lockout and the failure count survive a restart")
    func permanentAcrossRestart() throws {
        var lock = Harness()
        FingerprintLockoutTests.fail(&lock, 20)
        try lock.restart(downtime: 3600)
        #expect(lock.match().denials == [.permanentlyLockedOut])

        var counting = Harness()
        counting.noMatch(times: 4)
        try counting.restart(downtime: 3600)
        counting.send(.fingerNotMatched)
        #expect(counting.match().denials == [.lockedOut(remaining: 30)])
    }

    @Test("wall clock back 1 h across a restart: the lockout resumes, not extended an hour")
    func wallBackAcrossRestart() throws {
        var lock = Harness()
        lock.noMatch(times: 5)
        lock.advance(10)
        lock.send(.tick)
        try lock.restart(downtime: 5, wallError: -3600)
        // No time is counted for the gap (it cannot be measured), so 20 s remain as last seen.
        #expect(lock.match().denials == [.lockedOut(remaining: 20)])
        lock.advance(20)
        #expect(lock.match().unlocked)
    }

    @Test("wall clock forward a day within a run: the lockout is not shortened")
    func wallForwardWithinRun() {
        var lock = Harness()
        lock.noMatch(times: 5)
        lock.jumpWall(86_400)
        lock.advance(1)
        #expect(lock.match().denials == [.lockedOut(remaining: 29)])
    }

    @Test("wall clock back a day within a run: the lockout is not extended")
    func wallBackWithinRun() {
        var lock = Harness()
        lock.noMatch(times: 5)
        lock.jumpWall(-86_400)
        lock.advance(30)
        #expect(lock.match().unlocked)
    }

    @Test("a relay pulse ends on time despite a wall jump back")
    func pulseDespiteWallJump() {
        var lock = Harness()
        _ = lock.match()
        lock.jumpWall(-3600)
        #expect(lock.tick(after: 3).locked)
    }

    @Test("a reboot without .started (monotonic went back) credits nothing")
    func monotonicBackWithoutStarted() throws {
        var lock = Harness()
        lock.noMatch(times: 5)
        lock.monotonicMillis = 2_000 // the runtime forgot to send .started
        lock.advance(12)
        #expect(lock.match().denials == [.lockedOut(remaining: 30)])
    }

    @Test(".started across restarts never moves the clock backwards")
    func clockMonotone() throws {
        var lock = Harness()
        let before = lock.state.clock
        try lock.restart(downtime: 0, wallError: -500)
        #expect(lock.state.clock >= before)
        lock.advance(3)
        #expect(lock.state.clock >= before)
    }

    @Test("persist is hinted when durable state changes, not for clock or transient changes")
    func persistHint() {
        var lock = Harness()
        #expect(!lock.tick(after: 1).contains(.persist))
        #expect(!lock.match().contains(.persist), "a match with nothing to reset")
        #expect(!lock.tick(after: 3).contains(.persist), "re-lock is transient")
        #expect(lock.send(.fingerNotMatched).contains(.persist))
        #expect(lock.send(.pinEntered(user: nil, correct: true)).contains(.persist))
    }

    @Test("nextDeadline is nil for an idle lock and the earliest of several timers")
    func nextDeadlineEarliest() {
        var lock = Harness()
        #expect(nextDeadline(lock.state) == nil)
        #expect(nextDeadline(PolicyState()) == nil)
        lock.send(.doorClosed)
        lock.noMatch(times: 5)            // lockout ends at +30
        lock.send(.exitButton)            // pulse ends at +3
        lock.send(.doorOpened)            // held-open at +30
        #expect(nextDeadline(lock.state) == lock.now.advanced(by: 3))
        lock.tick(after: 3)
        #expect(nextDeadline(lock.state) == lock.now.advanced(by: 27))
    }

    @Test("ticks are idempotent: a second tick at the same time does nothing")
    func idempotentTick() {
        var lock = Harness()
        _ = lock.match()
        #expect(lock.tick(after: 3).locked)
        #expect(lock.send(.tick).isEmpty)
    }

    @Test("the AccessPolicy struct gives the same answers as the free functions")
    func structWrapper() {
        var config = PolicyConfig()
        config.relayPulseSeconds = 4
        let policy = AccessPolicy(config: config)
        let now = PolicyTime(wall: 100, monotonic: 5)
        let event = PolicyEvent.pinEntered(user: "x", correct: true)
        let (state, effects) = policy.decide(PolicyState(), event, now: now)
        let (state2, effects2) = decide(PolicyState(), event, now: now, config: config)
        #expect(state == state2 && effects == effects2)
        #expect(policy.nextDeadline(state) == now.advanced(by: 4))
    }
}
