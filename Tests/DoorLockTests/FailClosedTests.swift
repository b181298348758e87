import DoorLock
import Foundation
@testable import TemplateStore
import Testing

/// Issue 10, item 4: an error on the way to an unlock is a refusal with a reason, never a
/// default that opens, resets a counter or forgets a lockout.
@Suite(.serialized)
struct FailClosedTests {
    @Test func aCorruptSavedPolicyStateStartsWithAPinRequiredAndAnAuditRow() throws {
        let lock = try LockHarness(setUpStore: { store in
            // Cut off mid-write: whatever lockout it held is unknown.
            try store.setValue(#"{"schemaVersion":1,"pinFailures":{"consecutive":19,"perm"#, forKey: LockService.policyStateKey)
        })
        let status = try lock.control("status")
        #expect((status["pinRequired"] as? [String])?.contains("savedStateUnreadable") == true, "\(status)")
        let audit = try lock.store.auditEntries(limit: 50)
        #expect(audit.contains { $0.event == "policy-state-unreadable" && ($0.detail ?? "").contains("corrupt") }, "\(audit.map(\.event))")

        let refused = try lock.scan("alice-index", expecting: ["match", "pin-required"])
        #expect(refused.name == "pin-required")
        #expect(!lock.relayChanges.contains(true))
        #expect(try lock.control("pin alice 4826")["result"] as? String == "unlocked")
    }

    @Test func aStoreFailureWhileNamingTheMatchedUserIsAnErrorNotAMatchOrTamper() throws {
        let lock = try LockHarness()
        try lock.store.connection.execute("ALTER TABLE fingers RENAME TO fingers_elsewhere")
        let outcome = try lock.scan("alice-index", expecting: ["match", "tamper", "error", "pin-only"])
        #expect(outcome.name == "error", "\(outcome)")
        #expect(lock.events(named: "tamper").isEmpty)
        #expect(!lock.relayChanges.contains(true))
        let status = try lock.control("status")
        #expect(status["pinOnly"] is NSNull, "\(status)")
        #expect(status["failures"] as? Int == 0, "not counted as a false trial")
    }
}
