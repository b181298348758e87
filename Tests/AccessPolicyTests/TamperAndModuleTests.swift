import Testing
@testable import AccessPolicy

@Suite("Tamper, PIN-only mode and module state")
struct TamperAndModuleTests {
    @Test("tamper switch: alarm, PIN-only; fingers refused, PIN opens")
    func tamperSwitch() {
        var lock = Harness()
        let tamper = lock.send(.tamper(active: true))
        #expect(tamper.alarms == [.tamper])
        #expect(tamper.fields(of: "tamper") == ["source": "switch"])
        #expect(lock.state.pinOnly == .tamperSwitch)
        #expect(lock.match().denials == [.pinOnlyMode(.tamperSwitch)])
        #expect(lock.send(.pinEntered(user: "bob", correct: true)).unlocks == [.pin])
        #expect(lock.state.pinOnly == .tamperSwitch, "a user's PIN does not end PIN-only mode")
    }

    @Test("tamper locks an unlocked door at once")
    func tamperLocks() {
        var lock = Harness()
        _ = lock.match()
        #expect(lock.send(.tamper(active: true)).locked)
    }

    @Test("closing the tamper switch clears the alarm but not PIN-only mode")
    func tamperReleased() {
        var lock = Harness()
        lock.send(.tamper(active: true))
        let released = lock.send(.tamper(active: false))
        #expect(released.contains(.alarmCleared(.tamper)))
        #expect(lock.match().denials == [.pinOnlyMode(.tamperSwitch)])
    }

    @Test("admin clear while the switch is still open keeps PIN-only mode")
    func adminClearWhileOpen() {
        var lock = Harness()
        lock.send(.tamper(active: true))
        lock.send(.adminClear)
        #expect(lock.state.pinOnly == .tamperSwitch)
        lock.send(.tamper(active: false))
        let cleared = lock.send(.adminClear)
        #expect(cleared.eventNames.contains("pin-only-cleared"))
        #expect(lock.match().unlocked)
    }

    @Test("an admin's PIN ends PIN-only mode; an admin's finger does not")
    func adminPinClears() {
        var lock = Harness()
        lock.send(.moduleTamper(.moduleSwapped))
        #expect(lock.match("root", admin: true).denials == [.pinOnlyMode(.moduleTamper(.moduleSwapped))])
        lock.send(.pinEntered(user: "root", correct: true, isAdmin: true))
        #expect(lock.state.pinOnly == nil)
        lock.advance(5)
        #expect(lock.match().unlocked)
    }

    @Test("a user's correct PIN opens in PIN-only mode but does not end it")
    func userPinKeepsPinOnly() {
        var lock = Harness()
        lock.send(.moduleTamper(.moduleSwapped))
        #expect(lock.send(.pinEntered(user: "bob", correct: true)).unlocked)
        #expect(lock.state.pinOnly == .moduleTamper(.moduleSwapped))
        lock.advance(5)
        #expect(lock.match().denials == [.pinOnlyMode(.moduleTamper(.moduleSwapped))])
    }

    @Test("module tamper (unknown slot): alarm, PIN-only with the reason kept")
    func moduleTamper() {
        var lock = Harness()
        let effects = lock.send(.moduleTamper(.unknownSlot(42)))
        #expect(effects.alarms == [.moduleTamper])
        #expect(effects.fields(of: "tamper")?["source"] == "module")
        lock.send(.moduleTamper(.moduleSwapped))
        #expect(lock.state.pinOnly == .moduleTamper(.unknownSlot(42)), "first reason kept")
        #expect(lock.send(.unlockRequested).denials == [.pinOnlyMode(.moduleTamper(.unknownSlot(42)))])
    }

    @Test("PIN-only mode survives a restart")
    func pinOnlySurvivesRestart() throws {
        var lock = Harness()
        lock.send(.moduleTamper(.moduleSwapped))
        let start = try lock.restart(downtime: 600)
        #expect(start.eventNames.contains("pin-only"))
        #expect(start.contains(.led(.lockout)))
        #expect(lock.match().denials == [.pinOnlyMode(.moduleTamper(.moduleSwapped))])
    }

    @Test("module disconnected: reported, door stays locked, fingers unavailable, PIN works")
    func moduleDisconnected() {
        var lock = Harness()
        let gone = lock.send(.moduleDisconnected)
        #expect(gone.eventNames == ["disconnected"])
        #expect(!gone.unlocked)
        #expect(lock.match().denials == [.moduleUnavailable])
        lock.send(.fingerNotMatched)
        #expect(lock.state.fingerprintFailures.consecutive == 0)
        #expect(lock.send(.pinEntered(user: nil, correct: true)).unlocked)
        let back = lock.send(.moduleReconnected)
        #expect(back.eventNames == ["reconnected"])
        #expect(!back.unlocked)
        lock.advance(5)
        #expect(lock.match().unlocked)
    }

    @Test("repeated disconnect reports are not repeated events")
    func duplicateDisconnect() {
        var lock = Harness()
        lock.send(.moduleDisconnected)
        #expect(lock.send(.moduleDisconnected).isEmpty)
    }
}
