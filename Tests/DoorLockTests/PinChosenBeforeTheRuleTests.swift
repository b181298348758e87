import Testing

/// Issue 21: the PIN rule (no 1234, 1111, 1212…) applies when a PIN is chosen, never when one
/// is checked. A PIN an older fpmod accepted still opens the door through the service.
@Suite struct PinChosenBeforeTheRuleTests {
    @Test func aTrivialPINFromAnOlderStoreStillUnlocks() throws {
        let lock = try LockHarness(setUpStore: { store in try store.setPIN("1234", for: "alice") })
        let reply = try lock.control("pin alice 1234")
        #expect(reply["result"] as? String == "unlocked", "\(reply)")
    }
}
