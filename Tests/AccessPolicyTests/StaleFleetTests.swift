import Foundation
import Testing
@testable import AccessPolicy

/// A fleet door whose hub has gone silent, as `fleet.whenStale` says: the rules carry the
/// silence (the runtime sets it before each decision), the policy keeps people out for it.
struct StaleFleetTests {
    @Test func adminsOnlyKeepsUsersOutAndLetsAdminsIn() {
        var h = Harness()
        h.access = AccessRules()
        h.access?.staleFleet = StaleFleet(mode: .adminsOnly, minutes: 75)
        let refused = h.match("bob")
        #expect(refused.denials == [.hubSilent(minutes: 75, mode: .adminsOnly)])
        #expect(refused.fields(of: "not-now")?["rule"] == "hub-silent", "\(refused)")
        #expect(h.match("dave", admin: true).unlocked)
    }

    @Test func lockedKeepsEveryCredentialOutButTheExitButtonOpens() {
        var h = Harness()
        h.access = AccessRules()
        h.access?.staleFleet = StaleFleet(mode: .locked, minutes: 61)
        #expect(h.match("bob").denials == [.hubSilent(minutes: 61, mode: .locked)])
        #expect(h.match("dave", admin: true).denials == [.hubSilent(minutes: 61, mode: .locked)])
        #expect(h.send(.exitButton).unlocked)
    }

    @Test func keepAndAHubHeardAgainDecideAsEver() {
        var h = Harness()
        h.access = AccessRules()
        h.access?.staleFleet = StaleFleet(mode: .keep, minutes: 500)
        #expect(h.match("bob").unlocked)
        h.access?.staleFleet = StaleFleet(mode: .locked, minutes: 61)
        #expect(!h.match("bob").unlocked)
        h.access?.staleFleet = nil
        #expect(h.match("bob").unlocked)
    }

    @Test func theReasonSaysHowLongAndWhatToExpect() {
        #expect(DenyReason.hubSilent(minutes: 90, mode: .adminsOnly).description.contains("90 min, so only admins are let in"))
        #expect(DenyReason.hubSilent(minutes: 90, mode: .locked).description.contains("no credential opens it"))
    }
}
