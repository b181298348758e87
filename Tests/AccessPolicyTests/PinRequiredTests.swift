import Testing
@testable import AccessPolicy

@Suite("PIN required once")
struct PinRequiredTests {
    @Test("the first digest is recorded without requiring a PIN")
    func firstDigest() {
        var lock = Harness()
        #expect(lock.send(.enrolledSetChanged(digest: "d1")).contains(.persist))
        #expect(lock.match().unlocked)
    }

    @Test("the same digest again changes nothing")
    func sameDigest() {
        var lock = Harness()
        lock.send(.enrolledSetChanged(digest: "d1"))
        #expect(lock.send(.enrolledSetChanged(digest: "d1")).isEmpty)
        #expect(lock.match().unlocked)
    }

    @Test("a changed enrolled set: the next finger needs the PIN once")
    func changedDigest() {
        var lock = Harness()
        lock.send(.enrolledSetChanged(digest: "d1"))
        let change = lock.send(.enrolledSetChanged(digest: "d2"))
        #expect(change.eventNames == ["enrolled-set-changed", "pin-required"])
        let refused = lock.match()
        #expect(refused.denials == [.pinRequired(.enrolledSetChanged)])
        #expect(refused.fields(of: "pin-required") == ["reason": "enrolledSetChanged", "user": "alice"])
        #expect(lock.send(.pinEntered(user: "alice", correct: true)).unlocked)
        lock.advance(10)
        #expect(lock.match().unlocked)
    }

    @Test("the change is detected across a restart (digest persisted)")
    func changedAcrossRestart() throws {
        var lock = Harness()
        lock.send(.enrolledSetChanged(digest: "d1"))
        try lock.restart(downtime: 60)
        lock.send(.enrolledSetChanged(digest: "d2"))
        #expect(lock.match().denials == [.pinRequired(.enrolledSetChanged)])
    }

    @Test("a set the fleet hub changed is taken without a PIN, also across a restart")
    func changedByTheHub() throws {
        var lock = Harness()
        lock.send(.enrolledSetChanged(digest: "d1"))
        let change = lock.send(.enrolledSetFromHub(digest: "d2"))
        #expect(change.eventNames == ["enrolled-set-changed"])
        #expect(change.contains(.persist))
        #expect(lock.match().unlocked)
        // The service's refresh at its next start finds the set the hub authorised: nothing asked.
        try lock.restart(downtime: 60)
        lock.send(.enrolledSetChanged(digest: "d2"))
        #expect(lock.match().unlocked)
        #expect(lock.send(.enrolledSetFromHub(digest: "d2")).isEmpty)
    }

    @Test("a PIN a local change required stays required when the hub changes the set after it")
    func hubChangeAfterALocalOne() {
        var lock = Harness()
        lock.send(.enrolledSetChanged(digest: "d1"))
        lock.send(.enrolledSetChanged(digest: "d2"))
        lock.send(.enrolledSetFromHub(digest: "d3"))
        #expect(lock.match().denials == [.pinRequired(.enrolledSetChanged)])
    }

    @Test("switched off: a changed set needs no PIN")
    func changeRuleOff() {
        var lock = Harness { $0.pinRequiredAfterEnrolledSetChange = false }
        lock.send(.enrolledSetChanged(digest: "d1"))
        lock.send(.enrolledSetChanged(digest: "d2"))
        #expect(lock.match().unlocked)
    }

    @Test("PIN after restart: off by default, required once when on")
    func afterRestart() throws {
        var off = Harness()
        try off.restart(downtime: 5)
        #expect(off.match().unlocked)

        var on = Harness { $0.pinRequiredAfterRestart = true }
        #expect(on.match().denials == [.pinRequired(.restart)])
        on.send(.pinEntered(user: nil, correct: true))
        #expect(on.match().unlocked)
        try on.restart(downtime: 5)
        #expect(on.match().denials == [.pinRequired(.restart)])
    }

    @Test("PIN after N hours: required at exactly N h since the last PIN, not before")
    func periodicBoundary() {
        var lock = Harness { $0.pinRequiredAfterHoursWithoutPin = 24 }
        #expect(lock.match().denials == [.pinRequired(.noPinForTooLong)], "no PIN ever entered")
        lock.send(.pinEntered(user: nil, correct: true))
        lock.advance(24 * 3600 - 0.001)
        #expect(lock.match().unlocked)
        lock.advance(0.001)
        #expect(lock.match().denials == [.pinRequired(.noPinForTooLong)])
    }

    @Test("a grace reuse also needs the PIN once the set changed")
    func graceHonoursPinRequirement() {
        var lock = Harness { $0.graceSeconds = 120 }
        lock.send(.enrolledSetChanged(digest: "d1"))
        _ = lock.match()
        lock.send(.enrolledSetChanged(digest: "d2"))
        #expect(lock.send(.unlockRequested).denials == [.freshMatchRequired])
    }

    @Test("the admin clear does not lift a PIN requirement")
    func adminClearKeepsPinRequirement() {
        var lock = Harness()
        lock.send(.enrolledSetChanged(digest: "d1"))
        lock.send(.enrolledSetChanged(digest: "d2"))
        lock.send(.adminClear)
        #expect(lock.match().denials == [.pinRequired(.enrolledSetChanged)])
    }

    @Test("a failure under a PIN requirement still counts")
    func failuresCountWhilePinRequired() {
        var lock = Harness { $0.pinRequiredAfterRestart = true }
        lock.noMatch(times: 5)
        #expect(lock.match().denials == [.lockedOut(remaining: 30)])
    }
}
