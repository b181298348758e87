import Foundation
import Testing
@testable import AccessPolicy

/// The two-person rule with the fake clock: two different authorised users within the window
/// open once; one user twice does not; the first is forgotten at the deadline.
struct TwoPersonTests {
    static func harness() -> Harness {
        Harness { $0.twoPersonSeconds = 30 }
    }

    @Test func twoDifferentUsersOpenOnce() {
        var h = Self.harness()
        let first = h.match("alice")
        #expect(!first.unlocked)
        #expect(first.fields(of: "two-person-waiting")?["user"] == "alice")
        #expect(first.audits("two-person-waiting").first?.user == "alice")
        h.advance(10)
        let again = h.match("alice")
        #expect(!again.unlocked, "the same person twice is one person")
        h.advance(10)
        let second = h.send(.pinEntered(user: "bob", correct: true))
        #expect(second.unlocks == [.pin])
        let pair = second.audits("two-person").first
        #expect(pair?.detail.contains("alice") == true && pair?.user == "bob")
        #expect(h.state.twoPersonWaiting == nil)
    }

    @Test func theFirstIsForgottenAfterTheWindow() {
        var h = Self.harness()
        _ = h.match("alice")
        #expect(h.deadline == h.now.advanced(by: 30))
        let timeout = h.tickAtDeadline()
        #expect(timeout.fields(of: "two-person-timeout")?["user"] == "alice")
        #expect(!h.match("bob").unlocked, "bob is now the first of a new pair")
    }

    @Test func refusedUsersNeverCountAndTheExitButtonIsUnaffected() {
        var h = Self.harness()
        h.access = AccessRules(users: ["guest": UserAccess(validUntil: 1_600_000_000)])
        #expect(h.match("guest").denials == [.accessRule(.expired(at: 1_600_000_000))])
        #expect(h.state.twoPersonWaiting == nil)
        #expect(h.send(.exitButton).unlocks == [.exitButton])
        h.advance(10)
        h.noMatch(times: 1)
        #expect(h.state.twoPersonWaiting == nil)
    }

    @Test func theWindowIsValidated() {
        var config = PolicyConfig()
        config.twoPersonSeconds = 2
        #expect(config.validate().first?.hasPrefix("policy.twoPersonSeconds") == true)
        config.twoPersonSeconds = 60
        #expect(config.validate().isEmpty)
    }
}
