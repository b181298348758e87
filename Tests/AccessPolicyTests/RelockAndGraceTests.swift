import Testing
@testable import AccessPolicy

@Suite("Re-lock and grace window")
struct RelockAndGraceTests {
    @Test("door mode: a match pulses the relay for 3 s and says until when")
    func doorPulse() {
        var lock = Harness()
        let effects = lock.match()
        #expect(effects.contains(.unlock(.fingerprint, user: "alice", until: lock.now.advanced(by: 3))))
        #expect(effects.contains(.relayPulse(seconds: 3)))
        #expect(nextDeadline(lock.state) == lock.now.advanced(by: 3))
    }

    @Test("door mode: locked again at exactly the pulse's end, not before")
    func doorRelockBoundary() {
        var lock = Harness()
        _ = lock.match()
        #expect(!lock.tick(after: 2.999).locked)
        let end = lock.tick(after: 0.001)
        #expect(end.locked)
        #expect(end.fields(of: "locked") == ["cause": "timeout"])
        #expect(lock.state.lock == .locked)
    }

    @Test("a late tick still re-locks, and the first event after the deadline re-locks too")
    func lateRelock() {
        var lock = Harness()
        _ = lock.match()
        lock.advance(60)
        let effects = lock.send(.fingerNotMatched)
        #expect(effects.first == .lock)
    }

    @Test("a second unlock during the pulse extends it")
    func extendPulse() {
        var lock = Harness()
        _ = lock.match()
        lock.advance(2)
        _ = lock.match("bob")
        #expect(!lock.tick(after: 2).locked)
        #expect(lock.tick(after: 1).locked)
    }

    @Test("relay pulse length is configurable")
    func customPulse() {
        var lock = Harness { $0.relayPulseSeconds = 7 }
        #expect(lock.match().contains(.relayPulse(seconds: 7)))
        #expect(!lock.tick(after: 6.5).locked)
        #expect(lock.tick(after: 0.5).locked)
    }

    @Test("kiosk mode: unlocked until 10 s without activity, no relay pulse")
    func kioskIdle() {
        var lock = Harness { $0.mode = .kiosk }
        let effects = lock.match()
        #expect(effects.unlocks == [.fingerprint])
        #expect(!effects.contains { if case .relayPulse = $0 { true } else { false } })
        #expect(!lock.tick(after: 9.999).locked)
        #expect(lock.tick(after: 0.001).locked)
    }

    @Test("kiosk mode: activity pushes the re-lock back")
    func kioskActivity() {
        var lock = Harness { $0.mode = .kiosk }
        _ = lock.match()
        lock.advance(8)
        lock.send(.activity)
        #expect(!lock.tick(after: 8).locked)
        #expect(nextDeadline(lock.state) == lock.now.advanced(by: 2))
        #expect(lock.tick(after: 2).locked)
    }

    @Test("kiosk mode: background re-locks within the background timeout")
    func kioskBackground() {
        var lock = Harness {
            $0.mode = .kiosk
            $0.idleTimeoutSeconds = 60
            $0.backgroundTimeoutSeconds = 10
        }
        _ = lock.match()
        lock.advance(5)
        lock.send(.background)
        #expect(!lock.tick(after: 9.999).locked)
        #expect(lock.tick(after: 0.001).locked)
    }

    @Test("kiosk mode: background with a 0 s timeout locks at once")
    func kioskBackgroundImmediate() {
        var lock = Harness {
            $0.mode = .kiosk
            $0.backgroundTimeoutSeconds = 0
        }
        _ = lock.match()
        #expect(lock.send(.background).locked)
    }

    @Test("door mode ignores activity and background")
    func doorIgnoresActivity() {
        var lock = Harness()
        _ = lock.match()
        lock.advance(2)
        #expect(lock.send(.activity).isEmpty)
        #expect(lock.send(.background).isEmpty)
        #expect(lock.tick(after: 1).locked)
    }

    @Test("grace off (default): an unlock request needs a fresh match")
    func graceOffByDefault() {
        var lock = Harness()
        _ = lock.match()
        lock.tick(after: 3)
        let effects = lock.send(.unlockRequested)
        #expect(effects.denials == [.freshMatchRequired])
        #expect(effects.eventNames == ["match-required"])
    }

    @Test("grace 60 s: honoured at 59.999 s, refused at 60 s")
    func graceBoundary() {
        var lock = Harness { $0.graceSeconds = 60 }
        _ = lock.match()
        lock.advance(59.999)
        let reuse = lock.send(.unlockRequested)
        #expect(reuse.contains(.unlock(.grace, user: "alice", until: lock.now.advanced(by: 3))))
        lock.advance(0.001)
        #expect(lock.send(.unlockRequested).denials == [.freshMatchRequired])
    }

    @Test("a PIN unlock opens no grace window")
    func pinOpensNoGrace() {
        var lock = Harness { $0.graceSeconds = 60 }
        lock.send(.pinEntered(user: "alice", correct: true))
        #expect(lock.send(.unlockRequested).denials == [.freshMatchRequired])
    }

    @Test("a lockout during the grace window ends it")
    func lockoutEndsGrace() {
        var lock = Harness { $0.graceSeconds = 300 }
        _ = lock.match()
        lock.noMatch(times: 5)
        lock.advance(30)
        #expect(lock.send(.unlockRequested).denials == [.freshMatchRequired])
    }
}
