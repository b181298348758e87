import Foundation
import Testing
@testable import AccessPolicy

@Suite("Policy config")
struct PolicyConfigTests {
    @Test("defaults follow the field numbers and are valid")
    func defaults() {
        let c = PolicyConfig()
        #expect(c.mode == .door)
        #expect(c.fingerprintLockout == LockoutThresholds(failuresPerTimedLockout: 5, timedLockoutSeconds: 30,
                                                          failuresForPermanentLockout: 20))
        #expect(c.pinLockout == c.fingerprintLockout)
        #expect(c.relayPulseSeconds == 3 && c.idleTimeoutSeconds == 10 && c.graceSeconds == 0)
        #expect(c.heldOpenSeconds == 30)
        #expect(!c.pinRequiredAfterRestart && c.pinRequiredAfterHoursWithoutPin == 0)
        #expect(c.validate().isEmpty)
    }

    @Test("a partial JSON file overrides only what it names")
    func partialJSON() throws {
        let json = #"{"mode":"kiosk","graceSeconds":60,"pinLockout":{"timedLockoutSeconds":120}}"#
        let c = try JSONDecoder().decode(PolicyConfig.self, from: Data(json.utf8))
        #expect(c.mode == .kiosk)
        #expect(c.graceSeconds == 60)
        #expect(c.pinLockout.timedLockoutSeconds == 120)
        #expect(c.pinLockout.failuresPerTimedLockout == 5)
        #expect(c.relayPulseSeconds == 3)
    }

    @Test("config round-trips through JSON")
    func roundTrip() throws {
        var c = PolicyConfig()
        c.mode = .kiosk
        c.pinRequiredAfterHoursWithoutPin = 48
        let back = try JSONDecoder().decode(PolicyConfig.self, from: JSONEncoder().encode(c))
        #expect(back == c)
    }

    @Test("an unknown mode is a decoding error")
    func badMode() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(PolicyConfig.self, from: Data(#"{"mode":"garage"}"#.utf8))
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let key: String
        let apply: @Sendable (inout PolicyConfig) -> Void
        let valid: Bool
        var testDescription: String { "\(key) valid:\(valid)" }
    }

    // Outside the @Test attribute: Swift 6.0 crashes expanding the macro over closure literals.
    static let validationCases: [Case] = [
        Case(key: "graceSeconds", apply: { $0.graceSeconds = 300 }, valid: true),
        Case(key: "graceSeconds", apply: { $0.graceSeconds = 301 }, valid: false),
        Case(key: "graceSeconds", apply: { $0.graceSeconds = 300.001 }, valid: false),
        Case(key: "graceSeconds", apply: { $0.graceSeconds = -1 }, valid: false),
        Case(key: "graceSeconds", apply: { $0.graceSeconds = .nan }, valid: false),
        Case(key: "relayPulseSeconds", apply: { $0.relayPulseSeconds = 0 }, valid: false),
        Case(key: "relayPulseSeconds", apply: { $0.relayPulseSeconds = 0.5 }, valid: true),
        Case(key: "relayPulseSeconds", apply: { $0.relayPulseSeconds = .infinity }, valid: false),
        Case(key: "idleTimeoutSeconds", apply: { $0.idleTimeoutSeconds = 0 }, valid: false),
        Case(key: "backgroundTimeoutSeconds", apply: { $0.backgroundTimeoutSeconds = 0 }, valid: true),
        Case(key: "heldOpenSeconds", apply: { $0.heldOpenSeconds = 0 }, valid: false),
        Case(key: "forcedOpenExemptSeconds", apply: { $0.forcedOpenExemptSeconds = -0.1 }, valid: false),
        Case(key: "verificationValiditySeconds", apply: { $0.verificationValiditySeconds = 0 }, valid: false),
        Case(key: "pinRequiredAfterHoursWithoutPin", apply: { $0.pinRequiredAfterHoursWithoutPin = -1 }, valid: false),
        Case(key: "fingerprintLockout.failuresPerTimedLockout",
             apply: { $0.fingerprintLockout.failuresPerTimedLockout = 0 }, valid: false),
        Case(key: "pinLockout.timedLockoutSeconds", apply: { $0.pinLockout.timedLockoutSeconds = 0 }, valid: false),
        Case(key: "pinLockout.failuresForPermanentLockout",
             apply: { $0.pinLockout.failuresForPermanentLockout = 4 }, valid: false),
        Case(key: "pinLockout.failuresForPermanentLockout",
             apply: { $0.pinLockout.failuresForPermanentLockout = 5 }, valid: true),
    ]

    @Test("validation boundaries, with the key path in the message", arguments: validationCases)
    func validation(_ c: Case) {
        var config = PolicyConfig()
        c.apply(&config)
        let problems = config.validate()
        if c.valid {
            #expect(problems.isEmpty)
        } else {
            #expect(problems.count == 1)
            #expect(problems.first?.hasPrefix("policy.\(c.key): ") == true, "\(problems)")
        }
    }

    @Test("the key-path prefix is the caller's")
    func prefix() {
        var config = PolicyConfig()
        config.graceSeconds = 301
        #expect(config.validate(keyPath: "lock.policy")
            == ["lock.policy.graceSeconds: 301.0 is out of range; use a number of seconds from 0 up to 300"])
    }
}
