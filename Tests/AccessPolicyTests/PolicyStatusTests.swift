import Testing
@testable import AccessPolicy

@Suite("Status summary")
struct PolicyStatusTests {
    @Test("an idle lock reports nothing pending")
    func idle() {
        let lock = Harness()
        let status = lock.state.status(at: lock.now, config: lock.config)
        #expect(!status.isUnlocked)
        #expect(status.fingerprintLockout == .none && status.pinLockout == .none)
        #expect(status.pinRequired.isEmpty && status.pinOnly == nil && status.doorOpen == nil)
    }

    @Test("lockouts, failures and PIN requirements are reported at the given time")
    func busy() {
        var lock = Harness { $0.pinRequiredAfterHoursWithoutPin = 1 }
        lock.send(.enrolledSetChanged(digest: "a"))
        lock.send(.enrolledSetChanged(digest: "b"))
        lock.noMatch(times: 5)
        lock.wrongPin(times: 3)
        lock.send(.doorClosed)
        lock.advance(10)
        let status = lock.state.status(at: lock.now, config: lock.config)
        #expect(status.fingerprintLockout == .timed(remaining: 20))
        #expect(status.consecutiveFingerprintFailures == 5)
        #expect(status.consecutivePinFailures == 3)
        #expect(status.pinRequired == [.enrolledSetChanged, .noPinForTooLong])
        #expect(status.doorOpen == false)
        let later = lock.state.status(at: lock.now.advanced(by: 20), config: lock.config)
        #expect(later.fingerprintLockout == .none)
    }

    @Test("status does not change the state it reads")
    func pure() {
        var lock = Harness()
        _ = lock.match()
        let before = lock.state
        let status = before.status(at: lock.now.advanced(by: 10), config: lock.config)
        #expect(!status.isUnlocked, "the pulse has ended by then")
        #expect(lock.state == before)
        #expect(before.status(at: lock.now, config: lock.config).isUnlocked)
    }

    @Test("permanent lockouts and PIN-only mode are reported")
    func permanent() {
        var lock = Harness()
        FingerprintLockoutTests.fail(&lock, 20)
        lock.send(.tamper(active: true))
        let status = lock.state.status(at: lock.now, config: lock.config)
        #expect(status.fingerprintLockout == .permanent)
        #expect(status.pinOnly == .tamperSwitch && status.tamperSwitchActive)
    }
}
