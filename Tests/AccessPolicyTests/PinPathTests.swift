import Testing
@testable import AccessPolicy

/// Every verb that checks a PIN (`pin`, `unlock`, `clear`) goes through one path: refused
/// without a check during a PIN lockout, every wrong PIN counted alike (issue 10, item 1).
@Suite("One PIN path for every purpose")
struct PinPathTests {
    static let purposes: [PinPurpose] = [.unlock, .adminUnlock, .adminClear]

    /// A lock whose PIN entry is in a timed lockout (5 wrong PINs) or disabled (20).
    static func lockedOut(permanently: Bool) -> Harness {
        var lock = Harness()
        for n in 1...(permanently ? 20 : 5) {
            lock.send(.pinEntered(user: nil, correct: false))
            if !permanently || n == 20 { continue }
            if n % 5 == 0 { lock.advance(30) }
        }
        return lock
    }

    @Test("during a PIN lockout an offered PIN is refused before any check, for every purpose",
          arguments: [false, true])
    func offeredDuringLockout(permanently: Bool) {
        for purpose in Self.purposes {
            var lock = Self.lockedOut(permanently: permanently)
            let counted = lock.state.pinFailures
            let refused = lock.send(.pinOffered(user: "boss", purpose: purpose))
            #expect(refused.denials == [permanently ? .pinPermanentlyLockedOut : .pinLockedOut(remaining: 30)], "\(purpose)")
            #expect(lock.state.pinFailures == counted)
        }
    }

    @Test("a correct admin PIN for clear does not end a PIN lockout (no oracle)", arguments: [false, true])
    func correctClearDuringLockout(permanently: Bool) {
        for purpose in Self.purposes {
            var lock = Self.lockedOut(permanently: permanently)
            let right = lock.send(.pinEntered(user: "boss", correct: true, isAdmin: true, purpose: purpose))
            var other = Self.lockedOut(permanently: permanently)
            let wrong = other.send(.pinEntered(user: "boss", correct: false, isAdmin: true, purpose: purpose))
            // The right PIN and a wrong one get the same answer, and nothing changes.
            #expect(right == wrong, "\(purpose)")
            #expect(!right.unlocked)
            #expect(!right.eventNames.contains("admin-clear"))
            #expect(lock.state.pinFailures == Self.lockedOut(permanently: permanently).state.pinFailures)
        }
    }

    @Test("outside a lockout an offered PIN has no effect")
    func offeredOutsideLockout() {
        var lock = Harness()
        #expect(lock.send(.pinOffered(user: nil, purpose: .adminClear)).isEmpty)
    }

    @Test("wrong PINs of every purpose share one counter; the fifth says the lockout started")
    func mixedPurposesShareTheCounter() {
        var lock = Harness()
        for purpose in [PinPurpose.unlock, .adminUnlock, .adminClear, .unlock] {
            #expect(lock.send(.pinEntered(user: "boss", correct: false, purpose: purpose)).denials == [.wrongPin])
        }
        let fifth = lock.send(.pinEntered(user: "boss", correct: false, purpose: .adminClear))
        #expect(fifth.denials == [.wrongPinLockoutStarted(seconds: 30)])
        #expect(fifth.denials.first?.description.contains("locked for 30 s") == true)
        #expect(fifth.eventNames.contains("pin-lockout"))
        #expect(lock.state.pinFailures.remaining(at: lock.state.clock) == 30)
    }

    @Test("the twentieth wrong PIN says PIN entry is now disabled")
    func twentiethSaysPermanent() {
        var lock = Harness()
        for n in 1...19 {
            lock.send(.pinEntered(user: nil, correct: false))
            if n % 5 == 0 { lock.advance(30) }
        }
        let twentieth = lock.send(.pinEntered(user: nil, correct: false, purpose: .adminUnlock))
        #expect(twentieth.denials == [.wrongPinPermanentLockoutStarted])
        #expect(twentieth.eventNames.contains("pin-lockout-permanent"))
    }

    @Test("a non-admin's correct PIN for an admin purpose counts as a wrong PIN")
    func nonAdminForAdminPurpose() {
        for purpose in [PinPurpose.adminUnlock, .adminClear] {
            var lock = Harness()
            lock.noMatch(times: 5)
            let effects = lock.send(.pinEntered(user: "alice", correct: true, isAdmin: false, purpose: purpose))
            #expect(effects.denials == [.notAnAdmin])
            #expect(!effects.unlocked)
            #expect(lock.state.pinFailures.consecutive == 1)
            #expect(lock.state.fingerprintFailures.remaining(at: lock.state.clock) != nil, "not cleared")
        }
    }

    @Test("a correct admin PIN for clear ends lockouts without unlocking")
    func adminClearByPin() {
        var lock = Harness()
        lock.noMatch(times: 20)
        lock.wrongPin(times: 2)
        let effects = lock.send(.pinEntered(user: "boss", correct: true, isAdmin: true, purpose: .adminClear))
        #expect(!effects.unlocked)
        #expect(effects.eventNames.contains("admin-clear"))
        #expect(!lock.state.fingerprintFailures.permanent)
        #expect(lock.state.pinFailures.consecutive == 0)
    }

    @Test("an admin finger ends a PIN lockout; an ordinary finger does not")
    func adminFingerClearsPinLockout() {
        var admin = Self.lockedOut(permanently: true)
        let effects = admin.match("boss", admin: true)
        #expect(effects.fields(of: "lockout-cleared") == ["credential": "pin"])
        #expect(admin.send(.pinEntered(user: "alice", correct: true)).unlocked)

        var user = Self.lockedOut(permanently: true)
        _ = user.match("alice")
        #expect(user.state.pinFailures.permanent)
    }

    @Test("an admin finger refused by a fingerprint lockout does not end a PIN lockout")
    func blockedAdminFingerKeepsPinLockout() {
        var lock = Self.lockedOut(permanently: false)
        lock.noMatch(times: 5)
        _ = lock.match("boss", admin: true)
        #expect(lock.state.pinFailures.remaining(at: lock.state.clock) != nil)
    }

    @Test("root's clear (no PIN) ends a permanent PIN lockout")
    func rootClear() {
        var lock = Self.lockedOut(permanently: true)
        #expect(lock.send(.adminClear).fields(of: "lockout-cleared") == ["credential": "pin"])
        #expect(lock.send(.pinEntered(user: nil, correct: true)).unlocked)
    }

    @Test("an unreadable saved state starts with a PIN required")
    func unreadableState() {
        var lock = Harness()
        let effects = lock.send(.savedStateUnreadable("not JSON"))
        #expect(effects.eventNames == ["pin-required"])
        #expect(effects.contains { if case .audit("policy-state-unreadable", _, _) = $0 { true } else { false } })
        #expect(lock.match().denials == [.pinRequired(.savedStateUnreadable)])
        #expect(lock.send(.pinEntered(user: "alice", correct: true)).unlocked)
        #expect(lock.match().unlocked)
    }

    @Test("a store failure on the way from slot to user is refused: not a match, not tamper")
    func unresolvedMatch() {
        var lock = Harness()
        let effects = lock.send(.matchUnresolved(slot: 3, problem: "disk I/O error"))
        #expect(!effects.unlocked)
        #expect(effects.eventNames == ["error"])
        #expect(lock.state.pinOnly == nil)
        #expect(lock.state.fingerprintFailures.consecutive == 0)
    }
}
