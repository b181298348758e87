import Testing
@testable import AccessPolicy

/// Requests from Home Assistant (`RequestSource.remote`): what they may do, what they may not,
/// and that their wrong codes count like the keypad's.
@Suite("Remote requests (Home Assistant)")
struct RemoteRulesTests {
    static let client = "fpmod-front-door at 127.0.0.1:1883"
    static let remote = RequestSource.remote(client: client)

    func remotePin(_ lock: inout Harness, user: String? = "alice", correct: Bool = true, admin: Bool = false,
                   purpose: PinPurpose = .unlock) -> [PolicyEffect] {
        lock.send(.pinEntered(user: user, correct: correct, isAdmin: admin, purpose: purpose, source: Self.remote))
    }

    func audits(_ effects: [PolicyEffect]) -> [(name: String, user: String?, detail: String)] {
        effects.compactMap { if case let .audit(name, user, detail) = $0 { (name, user, detail) } else { nil } }
    }

    @Test("a correct remote code opens with reason remote; the audit row names the user and the connection")
    func remoteUnlock() {
        var lock = Harness()
        #expect(lock.send(.pinOffered(user: nil, purpose: .unlock, source: Self.remote)).denials.isEmpty)
        let effects = remotePin(&lock)
        #expect(effects.unlocks == [.remote])
        #expect(effects.fields(of: "unlocked") == ["reason": "remote", "user": "alice"])
        #expect(effects.fields(of: "pin-ok") == ["user": "alice", "source": "remote"])
        let row = audits(effects).first { $0.name == "remote-unlock" }
        #expect(row?.user == "alice")
        #expect(row?.detail.contains(Self.client) == true)
    }

    @Test("a wrong remote code counts toward the keypad's PIN lockout, and says it was remote")
    func wrongRemoteCodeCounts() {
        var lock = Harness()
        lock.send(.pinEntered(user: nil, correct: false))
        let wrong = remotePin(&lock, user: nil, correct: false)
        #expect(wrong.denials == [.wrongPin])
        #expect(wrong.fields(of: "pin-wrong")?["source"] == "remote")
        #expect(audits(wrong).first?.detail.contains(Self.client) == true)
        #expect(lock.state.pinFailures.consecutive == 2)
        lock.wrongPin(times: 3)
        // The PIN lockout refuses the remote code before it is checked.
        #expect(lock.send(.pinOffered(user: nil, purpose: .unlock, source: Self.remote)).denials.first.map {
            if case .pinLockedOut = $0 { true } else { false }
        } == true)
    }

    @Test("tamper refuses every remote request before its code is checked; the keypad PIN still opens")
    func tamperRefusesRemote() {
        for active in [true, false] {
            var lock = Harness()
            lock.send(.tamper(active: true))
            if !active { lock.send(.tamper(active: false)) }  // closed again: PIN-only mode stays
            for purpose in [PinPurpose.unlock, .adminUnlock, .adminClear, .adminCommand] {
                let offered = lock.send(.pinOffered(user: nil, purpose: purpose, source: Self.remote))
                #expect(offered.denials == [.remoteNotAllowed(.tamper)])
                #expect(offered.fields(of: "remote-refused") == ["reason": "tamper", "source": "remote"])
                // Even a correct code that raced the tamper.
                #expect(remotePin(&lock, admin: true, purpose: purpose).denials == [.remoteNotAllowed(.tamper)])
            }
            #expect(lock.state.pinFailures.consecutive == 0, "a refusal is not a wrong PIN")
            #expect(lock.send(.pinEntered(user: "alice", correct: true)).unlocks == [.pin])
        }
    }

    @Test("a permanent fingerprint lockout refuses remote unlocks and clears, not admin commands")
    func permanentLockoutRefusesRemote() {
        var lock = Harness { $0.fingerprintLockout = LockoutThresholds(failuresPerTimedLockout: 100, timedLockoutSeconds: 30, failuresForPermanentLockout: 3) }
        lock.noMatch(times: 3)
        #expect(lock.state.fingerprintFailures.permanent)
        for purpose in [PinPurpose.unlock, .adminUnlock, .adminClear] {
            #expect(remotePin(&lock, admin: true, purpose: purpose).denials == [.remoteNotAllowed(.permanentLockout)])
        }
        #expect(remotePin(&lock, user: "boss", admin: true, purpose: .adminCommand).denials.isEmpty)
        #expect(lock.state.fingerprintFailures.permanent)
        // At the keypad a PIN still clears it.
        #expect(lock.send(.pinEntered(user: "alice", correct: true)).unlocks == [.pin])
        #expect(!lock.state.fingerprintFailures.permanent)
    }

    @Test("a remote unlock clears no lockout and no PIN requirement: those ask for someone at the door")
    func remoteUnlockClearsNothing() {
        var lock = Harness {
            $0.pinRequiredAfterRestart = true
            $0.fingerprintLockout = LockoutThresholds(failuresPerTimedLockout: 3, timedLockoutSeconds: 30, failuresForPermanentLockout: 100)
        }
        lock.noMatch(times: 3)
        #expect(remotePin(&lock).unlocks == [.remote])
        #expect(lock.state.fingerprintFailures.lockedUntil != nil)
        #expect(lock.state.pinRequired.contains(.restart))
    }

    @Test("an admin's remote clear ends a timed fingerprint lockout; a user's code is not an admin's")
    func remoteClear() {
        var lock = Harness { $0.fingerprintLockout = LockoutThresholds(failuresPerTimedLockout: 3, timedLockoutSeconds: 30, failuresForPermanentLockout: 100) }
        lock.noMatch(times: 3)
        let user = remotePin(&lock, user: "alice", admin: false, purpose: .adminClear)
        #expect(user.denials == [.notAnAdmin])
        #expect(lock.state.fingerprintFailures.lockedUntil != nil)
        let cleared = remotePin(&lock, user: "boss", admin: true, purpose: .adminClear)
        #expect(cleared.eventNames.contains("lockout-cleared"))
        #expect(cleared.fields(of: "admin-clear") == ["source": "remote"])
        #expect(!cleared.unlocked)
        #expect(audits(cleared).contains { $0.name == "admin-clear" && $0.user == "boss" && $0.detail.contains(Self.client) })
        #expect(lock.match().unlocked)
    }

    @Test("an admin command's code opens nothing; it is audited")
    func adminCommand() {
        var lock = Harness()
        let effects = remotePin(&lock, user: "boss", admin: true, purpose: .adminCommand)
        #expect(!effects.unlocked)
        #expect(audits(effects).map(\.name) == ["admin-verified"])
        #expect(remotePin(&lock, user: "alice", purpose: .adminCommand).denials == [.notAnAdmin])
    }

    @Test("LOCK ends the unlock window now, needs no code, and does nothing when locked")
    func lockRequest() {
        var lock = Harness { $0.relayPulseSeconds = 30 }
        #expect(lock.send(.lockRequested(source: Self.remote)).isEmpty)
        _ = lock.match()
        let locked = lock.send(.lockRequested(source: Self.remote))
        #expect(locked.locked)
        #expect(locked.fields(of: "locked") == ["cause": "remote"])
        #expect(audits(locked).first?.detail.contains(Self.client) == true)
        #expect(lock.nextDeadlineIsNotTheRelock)
        // Opening the door right after is not forced: the window just ended.
        #expect(lock.send(.doorOpened).alarms.isEmpty)
    }
}

extension Harness {
    /// No unlock window left to end.
    var nextDeadlineIsNotTheRelock: Bool {
        if case .unlocked = state.lock { return false }
        return true
    }
}
