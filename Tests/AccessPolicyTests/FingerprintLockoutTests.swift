import Testing
@testable import AccessPolicy

@Suite("Fingerprint lockout")
struct FingerprintLockoutTests {
    @Test("4 failures: a match still unlocks")
    func fourFailuresDoNotLock() {
        var lock = Harness()
        lock.noMatch(times: 4)
        #expect(lock.match().unlocked)
    }

    @Test("5 failures: a match is refused with the remaining time")
    func fiveFailuresLock() {
        var lock = Harness()
        lock.noMatch(times: 4)
        let fifth = lock.send(.fingerNotMatched)
        #expect(fifth.denials == [.noMatch])
        #expect(fifth.eventNames.contains("lockout"))
        #expect(fifth.fields(of: "lockout") == ["failures": "5", "seconds": "30"])
        #expect(fifth.contains(.led(.lockout)))
        let effects = lock.match()
        #expect(!effects.unlocked)
        #expect(effects.denials == [.lockedOut(remaining: 30)])
        #expect(effects.eventNames == ["lockout"])
    }

    @Test("the timed lockout ends at exactly 30 s, not at 29.999 s")
    func lockoutBoundary() throws {
        var lock = Harness()
        lock.noMatch(times: 5)
        lock.advance(29.999)
        let early = lock.match()
        #expect(!early.unlocked)
        let remaining = try #require(early.lockoutRemaining)
        #expect(remaining > 0 && remaining < 0.01)
        lock.advance(0.001)
        #expect(lock.match().unlocked)
    }

    @Test("the tick at the lockout's end reports it and turns the LED back to idle")
    func lockoutEndTick() {
        var lock = Harness()
        lock.noMatch(times: 5)
        let deadline = nextDeadline(lock.state)
        #expect(deadline == PolicyTime(wall: lock.wall + 30, monotonic: lock.monotonic + 30, bootID: lock.bootID))
        let ended = lock.tick(after: 30)
        #expect(ended.fields(of: "lockout-ended") == ["credential": "fingerprint"])
        #expect(ended.contains(.led(.idle)))
        #expect(nextDeadline(lock.state) == nil)
    }

    @Test("attempts during a lockout are refused and not counted")
    func attemptsDuringLockoutNotCounted() {
        var lock = Harness()
        lock.noMatch(times: 5)
        lock.advance(10)
        let during = lock.send(.fingerNotMatched)
        #expect(during.denials == [.lockedOut(remaining: 20)])
        #expect(lock.state.fingerprintFailures.consecutive == 5)
    }

    @Test("lockout again at every multiple of 5", arguments: [5, 10, 15])
    func lockoutAtMultiples(failures: Int) {
        var lock = Harness()
        for n in 1...failures {
            let effects = lock.send(.fingerNotMatched)
            if n % 5 == 0 {
                #expect(effects.eventNames.contains("lockout"), "failure \(n)")
                if n < failures { lock.advance(30) }
            } else {
                #expect(!effects.eventNames.contains("lockout"), "failure \(n)")
            }
        }
        #expect(lock.match().denials == [.lockedOut(remaining: 30)])
        #expect(!lock.state.fingerprintFailures.permanent)
    }

    /// Fails `count` times, waiting out each timed lockout.
    static func fail(_ lock: inout Harness, _ count: Int) {
        for n in 1...count {
            lock.send(.fingerNotMatched)
            if n % 5 == 0 { lock.advance(30) }
        }
    }

    @Test("19 failures: not permanent; a match after the lockout still unlocks")
    func nineteenFailures() {
        var lock = Harness()
        Self.fail(&lock, 19)
        #expect(!lock.state.fingerprintFailures.permanent)
        #expect(lock.match().unlocked)
    }

    @Test("20 failures: permanent lockout, no timer ends it")
    func twentyFailures() {
        var lock = Harness()
        Self.fail(&lock, 19)
        let twentieth = lock.send(.fingerNotMatched)
        #expect(twentieth.eventNames.contains("lockout-permanent"))
        #expect(!twentieth.eventNames.contains("lockout"))
        #expect(lock.state.fingerprintFailures.permanent)
        #expect(nextDeadline(lock.state) == nil)
        lock.advance(86_400)
        let effects = lock.match()
        #expect(effects.denials == [.permanentlyLockedOut])
        #expect(effects.eventNames == ["lockout-permanent"])
    }

    @Test("an admin finger does not clear a permanent lockout")
    func adminFingerDoesNotClear() {
        var lock = Harness()
        Self.fail(&lock, 20)
        #expect(lock.match("root", admin: true).denials == [.permanentlyLockedOut])
        #expect(lock.state.fingerprintFailures.permanent)
    }

    @Test("a correct PIN clears a permanent lockout")
    func pinClearsPermanent() {
        var lock = Harness()
        Self.fail(&lock, 20)
        let pin = lock.send(.pinEntered(user: "alice", correct: true))
        #expect(pin.unlocks == [.pin])
        #expect(pin.eventNames.contains("lockout-cleared"))
        lock.advance(5)
        #expect(lock.match().unlocked)
        #expect(lock.state.fingerprintFailures == FailureCounter())
    }

    @Test("a correct PIN clears a timed lockout early")
    func pinClearsTimed() {
        var lock = Harness()
        lock.noMatch(times: 5)
        lock.send(.pinEntered(user: nil, correct: true))
        #expect(lock.match().unlocked)
    }

    @Test("the admin clear from the control socket clears a permanent lockout")
    func adminClearClearsPermanent() {
        var lock = Harness()
        Self.fail(&lock, 20)
        let cleared = lock.send(.adminClear)
        #expect(cleared.eventNames.contains("lockout-cleared"))
        #expect(!cleared.unlocked)
        #expect(lock.match().unlocked)
    }

    @Test("a success resets the counter: 4 + success + 4 does not lock")
    func successResets() {
        var lock = Harness()
        lock.noMatch(times: 4)
        #expect(lock.match().unlocked)
        lock.noMatch(times: 4)
        #expect(lock.state.fingerprintFailures.consecutive == 4)
        #expect(lock.match().unlocked)
    }

    @Test("poor or misplaced captures never count", arguments: [CaptureProblem.poorQuality, .misplaced])
    func rejectedCapturesNotCounted(problem: CaptureProblem) {
        var lock = Harness()
        lock.noMatch(times: 4)
        for _ in 0..<10 {
            let effects = lock.send(.captureRejected(problem))
            #expect(effects.denials.isEmpty)
            #expect(effects.contains(.buzzer(.retry)))
        }
        #expect(lock.state.fingerprintFailures.consecutive == 4)
        #expect(lock.match().unlocked)
    }

    @Test("capture problems map to fprintd-like event names")
    func captureEventNames() {
        var lock = Harness()
        #expect(lock.send(.captureRejected(.poorQuality)).eventNames == ["retry-scan"])
        #expect(lock.send(.captureRejected(.misplaced)).eventNames == ["misplaced"])
    }

    @Test("a no-match is denied with no-match feedback")
    func noMatchFeedback() {
        var lock = Harness()
        let effects = lock.send(.fingerNotMatched)
        #expect(effects.denials == [.noMatch])
        #expect(effects.contains(.led(.deny)))
        #expect(effects.contains(.buzzer(.deny)))
        #expect(effects.eventNames == ["no-match"])
        #expect(effects.contains(.persist))
    }

    @Test("custom thresholds are honoured")
    func customThresholds() {
        var lock = Harness {
            $0.fingerprintLockout = LockoutThresholds(failuresPerTimedLockout: 3, timedLockoutSeconds: 60,
                                                      failuresForPermanentLockout: 6)
        }
        lock.noMatch(times: 3)
        #expect(lock.match().denials == [.lockedOut(remaining: 60)])
        lock.advance(60)
        lock.noMatch(times: 3)
        #expect(lock.state.fingerprintFailures.permanent)
    }

    @Test("fingerprints switched off in the config: refused, not counted")
    func globallyDisabled() {
        var lock = Harness { $0.fingerprintUnlockEnabled = false }
        #expect(lock.match().denials == [.fingerprintDisabledGlobally])
        lock.noMatch(times: 6)
        #expect(lock.state.fingerprintFailures.consecutive == 0)
        #expect(lock.send(.pinEntered(user: nil, correct: true)).unlocked)
    }
}
