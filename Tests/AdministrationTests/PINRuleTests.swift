import Administration
import Testing
import TemplateStore

/// The PIN rule holds for every caller of `StoreAdministration.setPIN`, not only for the CLI's
/// prompts: digits only, 4 to 12 of them, and none of the patterns tried first (issue 21: one
/// digit repeated, a run up or down, a repeated block, a few favourites).
@Suite struct PINRuleTests {
    static let refused = [
        "7777", "000000", "123", "1234567890123", "12a4", "１２３４",
        "1234", "4321", "123456", "654321", "0123", "7890", "8901", "1098", "2468", "1357", "9630",
        "1212", "123123", "4545", "10101010", "2580", "1122", "5683", "1998",
    ]
    /// 4826 steps by 4 only with a wrap past 9: no pattern anybody tries first.
    static let accepted = ["4826", "7391", "583920", "2071", "864219753", "123457", "5071"]

    @Test func obviousPINsAreRefusedWithAReasonThatDoesNotRepeatThem() throws {
        for pin in Self.refused {
            var problem = try #require(PINRule.problem(pin), "\(pin) was accepted")
            // The rule's own examples aside, the PIN does not appear.
            for example in ["(like 1234, 4321, 7890 or 2468)", "(like 1212 or 123123)"] {
                problem = problem.replacingOccurrences(of: example, with: "")
            }
            #expect(!problem.contains(pin), "the reason repeats the PIN: \(problem)")
        }
        for pin in Self.accepted { #expect(PINRule.problem(pin) == nil, "\(pin): \(PINRule.problem(pin) ?? "")") }
    }

    @Test func setPINHoldsTheRuleAndSetsNothingWhenItRefuses() throws {
        let bench = try Bench()
        try bench.store.addUser(name: "alice")
        for bad in Self.refused {
            #expect(throws: StoreAdministration.PINError.self, "\(bad)") {
                try StoreAdministration.setPIN(bench.store, user: "alice", pin: bad)
            }
        }
        let alice = try bench.store.user(named: "alice")
        #expect(alice?.hasPIN == false)
        let refusedEntries = try bench.store.auditEntries(limit: 100)
        #expect(refusedEntries.allSatisfy { $0.event != "pin-set" })
        let refusal = StoreAdministration.PINError.refused(PINRule.problem("1234") ?? "")
        #expect(refusal.description.contains("Choose 4 to 12 digits without an obvious pattern"), "\(refusal)")
        try StoreAdministration.setPIN(bench.store, user: "alice", pin: "4826")
        let entries = try bench.store.auditEntries(limit: 10)
        #expect(entries.contains { $0.event == "pin-set" && $0.user == "alice" })
    }

    /// Only choosing a PIN is checked: one set before the rule (here written by the store
    /// itself, as an older fpmod did) still verifies, and can still be cleared.
    @Test func aPINChosenBeforeTheRuleStillOpens() throws {
        let bench = try Bench()
        try bench.store.addUser(name: "alice")
        try bench.store.setPIN("1234", for: "alice")
        let opens = try bench.store.verifyPIN("1234", for: "alice")
        #expect(opens)
        try StoreAdministration.setPIN(bench.store, user: "alice", pin: nil)
        let cleared = try bench.store.user(named: "alice")
        #expect(cleared?.hasPIN == false)
    }
}
