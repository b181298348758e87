import Testing
@testable import AccessPolicy

@Suite("PIN fallback")
struct PinTests {
    @Test("a correct PIN unlocks with reason pin and reports pin-ok")
    func correctPin() {
        var lock = Harness()
        let effects = lock.send(.pinEntered(user: "bob", correct: true))
        #expect(effects.unlocks == [.pin])
        #expect(effects.fields(of: "pin-ok") == ["user": "bob"])
        #expect(effects.contains(.relayPulse(seconds: 3)))
    }

    @Test("a wrong PIN is denied and counted")
    func wrongPin() {
        var lock = Harness()
        let effects = lock.send(.pinEntered(user: nil, correct: false))
        #expect(effects.denials == [.wrongPin])
        #expect(effects.eventNames == ["pin-wrong"])
        #expect(lock.state.pinFailures.consecutive == 1)
    }

    @Test("4 wrong PINs: the right one still works; 5: locked for 30 s")
    func pinLockoutBoundary() {
        var four = Harness()
        four.wrongPin(times: 4)
        #expect(four.send(.pinEntered(user: nil, correct: true)).unlocked)

        var five = Harness()
        five.wrongPin(times: 4)
        #expect(five.send(.pinEntered(user: nil, correct: false)).eventNames.contains("pin-lockout"))
        let refused = five.send(.pinEntered(user: nil, correct: true))
        #expect(refused.denials == [.pinLockedOut(remaining: 30)])
        #expect(!refused.unlocked)
        five.advance(29.999)
        #expect(!five.send(.pinEntered(user: nil, correct: true)).unlocked)
        five.advance(0.001)
        #expect(five.send(.pinEntered(user: nil, correct: true)).unlocked)
    }

    @Test("wrong PINs during a PIN lockout are not counted")
    func wrongDuringLockout() {
        var lock = Harness()
        lock.wrongPin(times: 5)
        lock.wrongPin(times: 3)
        #expect(lock.state.pinFailures.consecutive == 5)
    }

    @Test("20 wrong PINs: PIN disabled until an admin clears it; 19 is not enough")
    func permanentPinLockout() {
        var lock = Harness()
        for n in 1...19 {
            lock.send(.pinEntered(user: nil, correct: false))
            if n % 5 == 0 { lock.advance(30) }
        }
        #expect(!lock.state.pinFailures.permanent)
        let twentieth = lock.send(.pinEntered(user: nil, correct: false))
        #expect(twentieth.eventNames.contains("pin-lockout-permanent"))
        lock.advance(86_400)
        #expect(lock.send(.pinEntered(user: "root", correct: true, isAdmin: true)).denials
            == [.pinPermanentlyLockedOut])
        lock.send(.adminClear)
        #expect(lock.send(.pinEntered(user: nil, correct: true)).unlocked)
    }

    @Test("PIN and fingerprint counters are independent")
    func independentCounters() {
        var lock = Harness()
        lock.noMatch(times: 4)
        lock.wrongPin(times: 4)
        #expect(lock.state.fingerprintFailures.consecutive == 4)
        #expect(lock.state.pinFailures.consecutive == 4)
        lock.send(.fingerNotMatched)
        #expect(lock.state.fingerprintFailures.remaining(at: lock.state.clock) == 30)
        #expect(lock.state.pinFailures.lockedUntil == nil)
        #expect(lock.send(.pinEntered(user: nil, correct: true)).unlocked)
    }

    @Test("a correct PIN resets the PIN counter")
    func correctPinResets() {
        var lock = Harness()
        lock.wrongPin(times: 4)
        lock.send(.pinEntered(user: nil, correct: true))
        lock.wrongPin(times: 4)
        #expect(lock.state.pinFailures.consecutive == 4)
        #expect(lock.send(.pinEntered(user: nil, correct: true)).unlocked)
    }

    @Test("a fingerprint match does not reset the PIN counter")
    func matchKeepsPinCounter() {
        var lock = Harness()
        lock.wrongPin(times: 3)
        _ = lock.match()
        #expect(lock.state.pinFailures.consecutive == 3)
    }
}
