import Administration
import Testing
import TemplateStore

/// The PIN rule holds for every caller of `StoreAdministration.setPIN`, not only for the CLI's
/// prompts: digits only, 4 to 12 of them, not one digit repeated.
@Suite struct PINRuleTests {
    @Test func repeatedDigitsShortAndNonDigitPINsAreRefusedAndNothingIsSet() throws {
        let bench = try Bench()
        try bench.store.addUser(name: "alice")
        for bad in ["7777", "000000", "123", "1234567890123", "12a4", "１２３４"] {
            #expect(throws: StoreAdministration.PINError.self, "\(bad)") {
                try StoreAdministration.setPIN(bench.store, user: "alice", pin: bad)
            }
        }
        #expect(try bench.store.auditEntries(limit: 10).allSatisfy { $0.event != "pin-set" })
        try StoreAdministration.setPIN(bench.store, user: "alice", pin: "1234")
        #expect(try bench.store.auditEntries(limit: 10).contains { $0.event == "pin-set" && $0.user == "alice" })
    }
}
