import Foundation
import Testing
@testable import AccessPolicy

/// Issue 27, item 5: the wall clock stepped back an hour or forward a day (NTP on a Pi without
/// a real-time clock does this at every boot) never shortens a lockout or extends a grace
/// window. Durations count on the monotonic clock; the boot id tells a restart from a reboot.
@Suite("Clock jumps")
struct ClockJumpTests {
    static let day = 86_400.0

    @Test("wall +1 day within a run: still locked out")
    func wallForwardWithinRun() {
        var lock = Harness()
        lock.noMatch(times: 5)
        lock.jumpWall(Self.day)
        lock.advance(10)
        #expect(lock.match().denials == [.lockedOut(remaining: 20)])
        #expect(nextDeadline(lock.state)?.monotonic == lock.monotonic + 20)
    }

    @Test("wall −1 h within a run: the lockout ends exactly when configured")
    func wallBackWithinRun() {
        var lock = Harness()
        lock.noMatch(times: 5)
        lock.jumpWall(-3600)
        lock.advance(29.999)
        #expect(lock.match().lockoutRemaining != nil, "still locked a millisecond before")
        lock.advance(0.001)
        #expect(lock.match().unlocked)
    }

    @Test("restart in the same boot with the wall a day ahead: locked for the remainder")
    func restartSameBootWallForward() throws {
        var lock = Harness()
        lock.noMatch(times: 5)
        lock.advance(10)
        let start = try lock.restartService(downtime: 5, wallStep: Self.day)
        #expect(start.fields(of: "wall-clock-stepped")?["seconds"] == "86400")
        #expect(lock.match().denials == [.lockedOut(remaining: 15)])
        lock.advance(14.999)
        #expect(lock.match().lockoutRemaining != nil, "still locked a millisecond before")
        lock.advance(0.001)
        #expect(lock.match().unlocked)
    }

    @Test("restart in the same boot with the wall an hour back: the remainder is exact")
    func restartSameBootWallBack() throws {
        var lock = Harness()
        lock.noMatch(times: 5)
        lock.advance(10)
        let start = try lock.restartService(downtime: 5, wallStep: -3600)
        #expect(start.fields(of: "wall-clock-stepped")?["seconds"] == "-3600")
        #expect(lock.match().denials == [.lockedOut(remaining: 15)])
        lock.advance(15)
        #expect(lock.match().unlocked)
    }

    @Test("reboot (new boot id) with the wall a day ahead: the lockout keeps its remainder")
    func rebootWallForward() throws {
        var lock = Harness()
        lock.noMatch(times: 5)
        lock.advance(10)
        lock.send(.tick)
        let start = try lock.restart(downtime: 5, wallError: Self.day)
        #expect(start.contains(.persist), "the new boot's anchor is saved at once")
        #expect(!start.eventNames.contains("wall-clock-stepped"), "across a boot a step cannot be told")
        #expect(lock.match().denials == [.lockedOut(remaining: 20)])
        lock.advance(20)
        #expect(lock.match().unlocked)
    }

    @Test("a state saved without a boot id (before it was recorded) restarts as after a reboot")
    func savedWithoutBootID() throws {
        var lock = Harness()
        lock.bootID = nil
        lock.noMatch(times: 5)
        lock.advance(10)
        lock.send(.tick)
        lock.bootID = "boot-1"
        try lock.restartService(downtime: 5)
        #expect(lock.match().denials == [.lockedOut(remaining: 20)])
    }

    @Test("grace window, then a reboot: ended")
    func graceEndsAtReboot() throws {
        var lock = Harness { $0.graceSeconds = 300 }
        _ = lock.match()
        lock.tick(after: 3)
        try lock.restart(downtime: 1)
        #expect(lock.send(.unlockRequested).denials == [.freshMatchRequired])
    }

    @Test("grace window, then the wall an hour back: not extended")
    func graceNotExtendedByWallBack() {
        var lock = Harness { $0.graceSeconds = 60 }
        _ = lock.match()
        lock.jumpWall(-3600)
        lock.advance(59.999)
        #expect(lock.send(.unlockRequested).unlocks == [.grace])
        lock.advance(0.001)
        #expect(lock.send(.unlockRequested).denials == [.freshMatchRequired])
    }

    @Test("grace window, then the wall a day ahead: not shortened")
    func graceNotShortenedByWallForward() {
        var lock = Harness { $0.graceSeconds = 60 }
        _ = lock.match()
        lock.jumpWall(Self.day)
        lock.advance(30)
        #expect(lock.send(.unlockRequested).unlocks == [.grace])
    }

    @Test("a PIN every 24 h: a restart in the boot keeps the window, a reboot ends it")
    func pinWindowEndsAtReboot() throws {
        var lock = Harness { $0.pinRequiredAfterHoursWithoutPin = 24 }
        lock.send(.pinEntered(user: nil, correct: true))
        lock.tick(after: 3)
        try lock.restartService(downtime: 60, wallStep: -Self.day)
        #expect(lock.match().unlocked)
        lock.tick(after: 3)
        try lock.restart(downtime: 60)
        #expect(lock.match().denials == [.pinRequired(.noPinForTooLong)])
        lock.send(.pinEntered(user: nil, correct: true))
        #expect(lock.tick(after: 3).locked)
        #expect(lock.match().unlocked)
    }

    @Test("a kiosk unlock saved before a reboot is not resumed")
    func kioskUnlockEndsAtReboot() throws {
        var lock = Harness { $0.mode = .kiosk }
        _ = lock.match()
        let start = try lock.restart(downtime: 1)
        #expect(start.first == .lock)
        #expect(start.eventNames == ["started"])
        #expect(lock.state.lock == .locked)
        #expect(nextDeadline(lock.state) == nil)
    }

    @Test("a kiosk unlock when the monotonic clock went back without .started: re-locked at once, not stretched")
    func kioskUnlockEndsWhenMonotonicWentBack() {
        var lock = Harness { $0.mode = .kiosk }
        _ = lock.match()
        lock.monotonicMillis = 2_000
        let seen = lock.send(.activity)
        #expect(seen.locked)
        #expect(seen.fields(of: "locked")?["cause"] == "timeout")
    }

    @Test("a verification from another boot is not fresh")
    func verificationFromAnotherBoot() throws {
        var lock = Harness()
        let verified = VerifiedIdentity(user: "alice", isAdmin: false, verifiedAt: lock.now)
        try lock.restart(downtime: 0)
        lock.monotonicMillis = 1_000_100 // the new boot's clock happens to be just past the old one's
        let effects = lock.send(.requestToggleFingerprintUnlock(user: "alice", enable: false, verifiedBy: verified))
        #expect(effects.denials == [.verificationRequired])
    }

    @Test("a wall step within a run: one event with both clocks, then every event and audit row carries both")
    func stepReported() throws {
        var lock = Harness()
        lock.jumpWall(1.5)
        #expect(lock.tick(after: 1).isEmpty, "a drift under 2 s is no step")
        lock.jumpWall(Self.day)
        let seen = lock.tick(after: 1)
        let fields = seen.fields(of: "wall-clock-stepped")
        #expect(fields?["seconds"] == "86400")
        #expect(fields?["wall"] == String(Int(lock.wall.rounded())), "whole seconds")
        #expect(fields?["monotonic"] == String(Int(lock.monotonic.rounded())))
        #expect(fields?["wall-offset"] == "86402")
        #expect(seen.contains(.audit(event: "wall-clock-stepped", user: nil,
                                     detail: "wall clock stepped forward 1 d 0 h 0 min; lockouts and grace windows count on the monotonic clock")))
        #expect(seen.contains(.persist), "the new offset is saved, so a restart does not report the step again")
        #expect(lock.tick(after: 1).isEmpty, "reported once")
        #expect(try lock.restartService(downtime: 1).fields(of: "wall-clock-stepped") == nil)

        let denied = lockOut(&lock)
        #expect(denied.fields(of: "lockout")?["wall-offset"] == "86402")
        #expect(denied.fields(of: "lockout")?["policy-clock"] == String(Int(lock.state.clock)))
        let row = denied.compactMap { if case .audit("lockout", _, let detail) = $0 { detail } else { nil } }.first
        #expect(row?.hasSuffix(" [policy clock \(Int(lock.state.clock)) s, wall offset +86402 s]") == true, "\(row ?? "no row")")
    }

    @Test("while the clocks agree, events carry neither field")
    func agreeingClocksAddNothing() {
        var lock = Harness()
        lock.advance(100)
        let denied = lockOut(&lock)
        #expect(denied.fields(of: "lockout")?["wall-offset"] == nil)
        #expect(denied.fields(of: "lockout")?["policy-clock"] == nil)
    }

    @Test("the step's words", arguments: [
        (86_400.0, "forward 1 d 0 h 0 min"), (-3600.0, "back 1 h 0 min"), (-200.0, "back 3 min 20 s"), (45.4, "forward 45 s")
    ])
    func stepWords(seconds: Double, words: String) {
        #expect(WallClockStep.text(seconds).hasPrefix("wall clock stepped \(words); "))
    }

    /// Five non-matching fingers: the effects of the fifth (the lockout).
    private func lockOut(_ lock: inout Harness) -> [PolicyEffect] {
        lock.noMatch(times: 4)
        return lock.send(.fingerNotMatched)
    }
}
