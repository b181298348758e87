import Testing
@testable import AccessPolicy

@Suite("Per-user fingerprint unlock")
struct FingerprintUnlockFlagTests {
    @Test("a user with fingerprint unlock off is refused, not counted as a failure")
    func disabledUser() {
        var lock = Harness()
        let effects = lock.match("carol", enabled: false)
        #expect(effects.denials == [.fingerprintDisabledForUser])
        #expect(effects.eventNames == ["fingerprint-disabled"])
        #expect(lock.state.fingerprintFailures.consecutive == 0)
    }

    /// Toggle carol's flag with the given verifier, verified `age` seconds ago.
    static func toggle(verifier: String?, admin: Bool = false, age: Double = 1) -> [PolicyEffect] {
        var lock = Harness()
        let identity = verifier.map {
            VerifiedIdentity(user: $0, isAdmin: admin, verifiedAt: lock.now)
        }
        lock.advance(age)
        return lock.send(.requestToggleFingerprintUnlock(user: "carol", enable: false, verifiedBy: identity))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let verifier: String?
        let admin: Bool
        let age: Double
        let allowed: Bool
        var testDescription: String { "\(verifier ?? "nobody") admin:\(admin) age:\(age) → \(allowed)" }
    }

    @Test("toggling needs a fresh verification of that user or an admin", arguments: [
        Case(verifier: "carol", admin: false, age: 1, allowed: true),
        Case(verifier: "root", admin: true, age: 1, allowed: true),
        Case(verifier: "dave", admin: false, age: 1, allowed: false),
        Case(verifier: nil, admin: false, age: 1, allowed: false),
        Case(verifier: "carol", admin: false, age: 60, allowed: true),
        Case(verifier: "carol", admin: false, age: 60.001, allowed: false),
        Case(verifier: "root", admin: true, age: 61, allowed: false),
    ])
    func toggle(_ c: Case) {
        let effects = Self.toggle(verifier: c.verifier, admin: c.admin, age: c.age)
        if c.allowed {
            #expect(effects.contains(.setFingerprintUnlock(user: "carol", enabled: false)))
            #expect(effects.fields(of: "fingerprint-unlock-changed") == ["user": "carol", "enabled": "false"])
        } else {
            #expect(effects.denials == [.verificationRequired])
            #expect(!effects.contains { if case .setFingerprintUnlock = $0 { true } else { false } })
        }
    }

    @Test("a verification from before a reboot (or the future) is not fresh")
    func verificationFromAnotherBoot() {
        var lock = Harness()
        let future = VerifiedIdentity(user: "carol", isAdmin: false, verifiedAt: lock.now.advanced(by: 5))
        #expect(lock.send(.requestToggleFingerprintUnlock(user: "carol", enable: true, verifiedBy: future))
            .denials == [.verificationRequired])
    }
}
