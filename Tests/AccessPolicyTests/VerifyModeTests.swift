import Foundation
import Testing
@testable import AccessPolicy

extension Harness {
    @discardableResult
    mutating func card(_ user: String? = "alice", enabled: Bool = true, mode: VerifyMode? = nil) -> [PolicyEffect] {
        send(.cardPresented(CardPresentation(user: user, enabled: enabled, userVerifyMode: mode,
                                             label: user.map { "card of \($0)" } ?? "unknown card")))
    }

    @discardableResult
    mutating func finger(_ user: String = "alice", mode: VerifyMode? = nil, duress: Bool = false) -> [PolicyEffect] {
        send(.fingerMatched(user: user, slot: 1, score: 120, isAdmin: false, isDuress: duress,
                            fingerprintUnlockEnabled: true, verifyMode: mode))
    }

    @discardableResult
    mutating func pin(_ user: String? = "alice", correct: Bool = true, mode: VerifyMode? = nil) -> [PolicyEffect] {
        send(.pinEntered(user: user, correct: correct, verifyMode: mode))
    }

    /// A lock whose door takes `mode`.
    init(mode: VerifyMode) {
        self.init { $0.verifyMode = mode }
    }
}

extension Array where Element == PolicyEffect {
    /// What a person at the door (and anyone on the event stream) sees: everything but the
    /// audit rows, which only admins read.
    var outward: [PolicyEffect] {
        filter { if case .audit = $0 { false } else { true } }
    }
}

@Suite("Verify modes: credentials alone")
struct VerifyModeAloneTests {
    @Test("finger-or-pin, the default, is today's behaviour: a finger or a PIN opens, a card does not and is not counted")
    func defaultMode() {
        var lock = Harness()
        #expect(lock.config.verifyMode == .fingerOrPin)
        #expect(lock.finger().unlocks == [.fingerprint])
        #expect(lock.pin().unlocks == [.pin])
        let card = lock.card()
        #expect(card.denials == [.factorNotAccepted(.card, mode: .fingerOrPin)])
        #expect(!card.unlocked)
        #expect(lock.state.cardFailures == nil)
    }

    @Test("card: a known card opens with reason card; an unknown one is refused and counted; a switched-off one is refused, not counted")
    func cardMode() {
        var lock = Harness(mode: .card)
        let known = lock.card()
        #expect(known.unlocks == [.card])
        #expect(known.fields(of: "card-ok") == ["user": "alice"])
        let unknown = lock.card(nil)
        #expect(unknown.denials == [.unknownCard])
        #expect(unknown.eventNames == ["card-unknown"])
        #expect(lock.state.cardCounter.consecutive == 1)
        let off = lock.card("bob", enabled: false)
        #expect(off.denials == [.cardDisabled])
        #expect(lock.state.cardCounter.consecutive == 1)
        #expect(lock.card().unlocked)
        #expect(lock.state.cardFailures == nil)
    }

    @Test("card: five unknown cards lock cards for 30 s, a known card waits it out; an admin clear ends it")
    func cardLockout() {
        var lock = Harness(mode: .card)
        for _ in 0..<4 { lock.card(nil) }
        let fifth = lock.card(nil)
        #expect(fifth.eventNames.contains("card-lockout"))
        #expect(fifth.fields(of: "card-lockout")?["seconds"] == "30")
        #expect(lock.card().denials == [.cardLockedOut(remaining: 30)])
        #expect(lock.state.cardCounter.consecutive == 5)
        #expect(nextDeadline(lock.state)?.monotonic == lock.monotonic + 30)
        lock.advance(29.999)
        #expect(!lock.card().unlocked)
        #expect(lock.tick(after: 0.001).fields(of: "lockout-ended") == ["credential": "card"])
        #expect(lock.card().unlocked)

        var cleared = Harness(mode: .card)
        for _ in 0..<5 { cleared.card(nil) }
        #expect(cleared.send(.adminClear).fields(of: "lockout-cleared") == ["credential": "card"])
        #expect(cleared.card().unlocked)
    }

    @Test("card: PIN-only mode after tamper refuses cards too")
    func cardInPinOnly() {
        var lock = Harness(mode: .card)
        lock.send(.tamper(active: true))
        #expect(lock.card().denials == [.pinOnlyMode(.tamperSwitch)])
    }

    @Test("pin: a finger is refused without counting; the PIN opens")
    func pinMode() {
        var lock = Harness(mode: .pin)
        let finger = lock.finger()
        #expect(finger.denials == [.factorNotAccepted(.finger, mode: .pin)])
        #expect(finger.fields(of: "factor-refused") == ["factor": "finger", "mode": "pin", "user": "alice"])
        lock.send(.fingerNotMatched)
        #expect(lock.state.fingerprintFailures.consecutive == 0)
        #expect(lock.pin().unlocks == [.pin])
    }

    @Test("finger: a correct PIN opens nothing but still clears what a PIN clears, so the next finger opens")
    func fingerMode() {
        var lock = Harness(mode: .finger)
        lock.send(.enrolledSetChanged(digest: "d1"))
        lock.send(.enrolledSetChanged(digest: "d2"))
        #expect(lock.finger().denials == [.pinRequired(.enrolledSetChanged)])
        let pin = lock.pin()
        #expect(!pin.unlocked)
        #expect(pin.fields(of: "pin-ok") == ["user": "alice", "opens": "no", "mode": "finger"])
        #expect(lock.finger().unlocks == [.fingerprint])
        #expect(lock.pin(correct: false).denials == [.wrongPin])
        #expect(lock.state.pinFailures.consecutive == 1)
    }
}

@Suite("Verify modes: combinations")
struct VerifyModeCombinationTests {
    @Test("card-and-finger: card then finger of one user opens with reason card-and-finger; either alone opens nothing")
    func cardThenFinger() {
        var lock = Harness(mode: .cardAndFinger)
        let card = lock.card()
        #expect(!card.unlocked && card.denials.isEmpty)
        #expect(card.fields(of: "factor-needed") == ["next": "finger", "mode": "card-and-finger", "seconds": "10"])
        #expect(lock.state.pendingFactor?.user == "alice")
        let finger = lock.finger()
        #expect(finger.unlocks == [.cardAndFinger])
        #expect(finger.fields(of: "verified") == ["user": "alice", "factors": "card+finger"])
        #expect(lock.state.pendingFactor == nil)
    }

    @Test("card-and-finger: finger first, then the card, also opens")
    func fingerThenCard() {
        var lock = Harness(mode: .cardAndFinger)
        #expect(lock.finger().fields(of: "factor-needed")?["next"] == "card")
        #expect(lock.card().unlocks == [.cardAndFinger])
    }

    @Test("the first factor is not revealed: a known, an unknown and a switched-off card look the same to the door, as do a matched and an unmatched finger")
    func firstFactorNotRevealed() {
        var a = Harness(mode: .cardAndFinger), b = Harness(mode: .cardAndFinger), c = Harness(mode: .cardAndFinger)
        let known = a.card().outward
        #expect(!known.isEmpty)
        #expect(known == b.card(nil).outward)
        #expect(known == c.card("alice", enabled: false).outward)
        var d = Harness(mode: .cardAndFinger), e = Harness(mode: .cardAndFinger)
        let matched = d.finger().outward
        let unmatched = e.send(.fingerNotMatched).outward
        #expect(matched == unmatched)
    }

    @Test("card-and-finger: a wrong second factor is refused without saying which and counted; the right first one is not counted")
    func wrongSecondFactor() {
        var lock = Harness(mode: .cardAndFinger)
        lock.card()
        let stranger = lock.send(.fingerNotMatched)
        #expect(stranger.denials == [.credentialsNotAccepted])
        #expect(stranger.eventNames == ["not-accepted"])
        #expect(lock.state.fingerprintFailures.consecutive == 1)
        #expect(lock.state.cardFailures == nil)

        lock.card()
        let bob = lock.finger("bob")
        #expect(bob.denials == [.credentialsNotAccepted])
        #expect(lock.state.fingerprintFailures.consecutive == 2)

        lock.card(nil)
        let afterUnknown = lock.finger()
        #expect(afterUnknown.denials == [.credentialsNotAccepted])
        #expect(lock.state.cardCounter.consecutive == 1)
        #expect(lock.state.fingerprintFailures.consecutive == 2)

        lock.card("alice", enabled: false)
        #expect(lock.finger().denials == [.credentialsNotAccepted])
        #expect(lock.state.cardCounter.consecutive == 1 && lock.state.fingerprintFailures.consecutive == 2)

        lock.card()
        #expect(lock.finger().unlocked)
        #expect(lock.state.fingerprintFailures.consecutive == 0 && lock.state.cardFailures == nil)
    }

    @Test("card-and-finger: five wrong fingers after a card lock fingerprints as five no-matches would")
    func combinationLockout() {
        var lock = Harness(mode: .cardAndFinger)
        for _ in 0..<4 {
            lock.card()
            lock.send(.fingerNotMatched)
        }
        lock.card()
        let fifth = lock.send(.fingerNotMatched)
        #expect(fifth.eventNames == ["not-accepted", "lockout"])
        lock.card()
        #expect(lock.finger().denials == [.lockedOut(remaining: 30)])
        #expect(lock.state.pendingFactor == nil)
    }

    @Test("the second factor must come within the window: the wait ends at its deadline, unannounced as to why, and nothing is counted")
    func window() {
        var lock = Harness { $0.verifyMode = .cardAndFinger; $0.factorWindowSeconds = 8 }
        lock.card(nil)
        #expect(nextDeadline(lock.state)?.monotonic == lock.monotonic + 8)
        lock.advance(7.999)
        #expect(lock.send(.tick).isEmpty)
        let expired = lock.tick(after: 0.001)
        #expect(expired.eventNames == ["factor-timeout"])
        #expect(lock.state.pendingFactor == nil && lock.state.cardFailures == nil)
        #expect(nextDeadline(lock.state) == nil)
        let late = lock.finger()
        #expect(!late.unlocked)
        #expect(late.fields(of: "factor-needed")?["next"] == "card")
    }

    @Test("a second card while one waits starts the attempt over with the new card")
    func sameFactorTwice() {
        var lock = Harness(mode: .cardAndFinger)
        lock.card("bob")
        lock.card()
        #expect(lock.finger().unlocks == [.cardAndFinger])
    }

    @Test("finger-and-pin: finger then the owner's PIN opens and clears PIN-required; a wrong PIN is counted toward the PIN lockout")
    func fingerAndPin() {
        var lock = Harness(mode: .fingerAndPin)
        lock.send(.enrolledSetChanged(digest: "d1"))
        lock.send(.enrolledSetChanged(digest: "d2"))
        #expect(lock.finger().fields(of: "factor-needed")?["next"] == "pin")
        let opened = lock.pin()
        #expect(opened.unlocks == [.fingerAndPin])
        #expect(lock.state.pinRequired.isEmpty && lock.state.lastPinAt != nil)

        for _ in 0..<4 {
            lock.finger()
            #expect(lock.pin(correct: false).denials == [.credentialsNotAccepted])
        }
        lock.finger()
        #expect(lock.pin(correct: false).eventNames == ["not-accepted", "pin-lockout"])
        #expect(lock.state.pinFailures.consecutive == 5)
        lock.finger()
        #expect(lock.send(.pinOffered(user: "alice")).denials == [.pinLockedOut(remaining: 30)])
        #expect(lock.state.pendingFactor == nil)
    }

    @Test("card-and-pin: the PIN first, then the card")
    func cardAndPin() {
        var lock = Harness(mode: .cardAndPin)
        #expect(lock.pin().fields(of: "factor-needed")?["next"] == "card")
        #expect(lock.card().unlocks == [.cardAndPin])
        #expect(lock.finger().denials == [.factorNotAccepted(.finger, mode: .cardAndPin)])
    }

    @Test("card-and-finger with PIN required: the pair is right, and the PIN is asked for before fingers open again")
    func combinationNeedsPin() {
        var lock = Harness(mode: .cardAndFinger)
        lock.send(.enrolledSetChanged(digest: "d1"))
        lock.send(.enrolledSetChanged(digest: "d2"))
        lock.card()
        #expect(lock.finger().denials == [.pinRequired(.enrolledSetChanged)])
        #expect(!lock.pin().unlocked)
        lock.card()
        #expect(lock.finger().unlocked)
    }

    @Test("a user's own mode overrides the door's: alice needs card and finger at a finger-or-pin door, bob does not")
    func perUserMode() {
        var lock = Harness()
        let alice = lock.finger("alice", mode: .cardAndFinger)
        #expect(!alice.unlocked && alice.fields(of: "factor-needed")?["next"] == "card")
        #expect(lock.card("alice", mode: .cardAndFinger).unlocks == [.cardAndFinger])
        #expect(lock.finger("bob").unlocks == [.fingerprint])
    }

    @Test("a duress finger as a first factor raises the silent alarm once, and still waits like any finger")
    func duressInCombination() {
        var lock = Harness(mode: .cardAndFinger)
        let effects = lock.finger(duress: true)
        #expect(effects.filter { $0 == .duressAlarm(user: "alice") }.count == 1)
        #expect(effects.fields(of: "factor-needed") != nil)
        var plain = Harness(mode: .finger)
        #expect(plain.finger(duress: true).filter { $0 == .duressAlarm(user: "alice") }.count == 1)
    }

    @Test("a restart drops a waiting factor; a state saved before cards existed reads as it is")
    func restartAndOldState() throws {
        var lock = Harness(mode: .cardAndFinger)
        lock.card()
        try lock.restart(downtime: 1)
        #expect(lock.state.pendingFactor == nil)
        #expect(!lock.finger().unlocked)

        var old = Harness()
        old.noMatch(times: 2)
        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(old.state)) as! [String: Any]
        json.removeValue(forKey: "cardFailures")
        json.removeValue(forKey: "pendingFactor")
        let back = try JSONDecoder().decode(PolicyState.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(back.fingerprintFailures.consecutive == 2)
        #expect(back.cardFailures == nil)
    }

    @Test("config: verifyMode and factorWindowSeconds decode and are checked; cardLockout like the others")
    func config() throws {
        let json = #"{"verifyMode":"card-and-finger","factorWindowSeconds":15,"cardLockout":{"timedLockoutSeconds":60}}"#
        let c = try JSONDecoder().decode(PolicyConfig.self, from: Data(json.utf8))
        #expect(c.verifyMode == .cardAndFinger && c.factorWindowSeconds == 15 && c.cardLockout.timedLockoutSeconds == 60)
        #expect(c.validate().isEmpty)
        var bad = PolicyConfig()
        bad.factorWindowSeconds = 0
        bad.cardLockout.failuresPerTimedLockout = 0
        let problems = bad.validate()
        #expect(problems.contains { $0.hasPrefix("policy.factorWindowSeconds:") })
        #expect(problems.contains { $0.hasPrefix("policy.cardLockout.failuresPerTimedLockout:") })
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(PolicyConfig.self, from: Data(#"{"verifyMode":"card-or-finger"}"#.utf8))
        }
    }
}
