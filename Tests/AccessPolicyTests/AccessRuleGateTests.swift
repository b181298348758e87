import Foundation
import Testing
@testable import AccessPolicy

/// The access rules inside the policy, with the fake clock: a user identified by a finger, a
/// PIN, a card or a pair is still kept out outside their schedule, before or after their
/// validity, or without uses left; the refusal is a plain "not now" at the door and names the
/// rule in the audit row; a limited use is taken by the runtime before the relay moves, and a
/// use another door took first withdraws the grant.
struct AccessRuleGateTests {
    /// 2023-11-14 22:13:20 UTC is the harness's start, a Tuesday.
    static func harness(_ rules: [String: UserAccess], schedules: [String: String] = [:], mode: VerifyMode = .fingerOrPin) throws -> Harness {
        var harness = Harness { $0.verifyMode = mode; $0.pinRequiredAfterEnrolledSetChange = false }
        var calendar = AccessCalendar()
        for (name, text) in schedules { calendar.schedules[name] = try WeeklySchedule(parsing: text) }
        harness.access = AccessRules(calendar: calendar, users: rules)
        return harness
    }

    @Test func everyCredentialIsHeldToTheSchedule() throws {
        var h = try Self.harness(["cleaner": UserAccess(schedule: "cleaning")], schedules: ["cleaning": "tue 08:00-12:00"])
        // Tuesday 22:13 UTC: outside.
        let finger = h.finger("cleaner")
        #expect(!finger.unlocked)
        #expect(finger.denials == [.accessRule(.outsideSchedule("cleaning"))])
        #expect(finger.fields(of: "not-now")?["rule"] == "outside-schedule")
        #expect(!finger.contains(.buzzer(.accept)), "no accepted feedback before the refusal")
        #expect(finger.contains { if case .audit("not-now", "cleaner", let detail) = $0 { detail.contains("outside schedule \"cleaning\"") } else { false } })
        #expect(!h.pin("cleaner").unlocked)
        #expect(!h.card("cleaner", mode: .card).unlocked)
        // Someone without rules is not affected.
        #expect(h.finger("alice").unlocked)
        // Next Tuesday 09:00 UTC: inside (6 days, 10 h 46 min 40 s later). One literal: Swift 6.0
        // gives up type-checking a sum of products of literals passed as a Double.
        let untilTuesdayMorning: Double = 557_200
        h.advance(untilTuesdayMorning)
        #expect(h.finger("cleaner").unlocked)
    }

    @Test func aPairIsRefusedAfterBothFactorsAndCountsNothing() throws {
        var h = try Self.harness(["guest": UserAccess(validUntil: 1_700_000_000)], mode: .cardAndFinger)
        #expect(h.card("guest").fields(of: "factor-needed")?["next"] == "finger")
        let second = h.finger("guest")
        #expect(second.denials == [.accessRule(.expired(at: 1_700_000_000))])
        #expect(h.state.fingerprintFailures == FailureCounter() && (h.state.cardFailures ?? FailureCounter()) == FailureCounter(),
                "the right credentials of a user out of hours are not failed guesses")
    }

    @Test func unreadableRuleDenies() throws {
        var h = try Self.harness(["bob": UserAccess(schedule: "deleted-schedule")])
        #expect(h.finger("bob").denials == [.accessRule(.unknownSchedule("deleted-schedule"))])
    }

    @Test func aLimitedUseIsTakenBeforeTheRelay() throws {
        var h = try Self.harness(["contractor": UserAccess(usesLeft: 2)])
        let effects = h.finger("contractor")
        let use = try #require(effects.firstIndex(of: .consumeUse(user: "contractor")))
        let unlock = try #require(effects.firstIndex { if case .unlock = $0 { true } else { false } })
        #expect(use < unlock, "the use is taken first")
        // Unlimited users take none.
        h.advance(10)
        #expect(!h.finger("alice").contains(.consumeUse(user: "alice")))
        // The exit button takes none.
        #expect(!h.send(.exitButton).contains { if case .consumeUse = $0 { true } else { false } })
    }

    @Test func aUseTakenByAnotherDoorWithdrawsTheGrant() throws {
        var h = try Self.harness(["contractor": UserAccess(usesLeft: 1)])
        #expect(h.finger("contractor").contains(.consumeUse(user: "contractor")))
        // The runtime found none left in the store: it skipped the grant's effects and says so.
        let withdrawn = h.send(.useRefused(user: "contractor"))
        #expect(withdrawn.denials == [.accessRule(.noUsesLeft)])
        #expect(withdrawn.locked)
        #expect(!h.state.lock.isUnlocked)
    }

    @Test func noUsesLeftIsRefusedUpFront() throws {
        var h = try Self.harness(["contractor": UserAccess(usesLeft: 0)])
        let effects = h.finger("contractor")
        #expect(effects.denials == [.accessRule(.noUsesLeft)])
        #expect(!effects.contains(.consumeUse(user: "contractor")))
    }
}

/// A card's own dates (a visitor's badge): outside them the card is refused with its rule,
/// whatever its owner's own rules say, and as a factor of a pair it is no valid factor.
struct CardValidityTests {
    @Test func aCardOutsideItsDatesIsRefusedWithItsRule() {
        var h = Harness()
        h.config.verifyMode = .card
        let now = Int64(h.now.wall)
        let expired = h.send(.cardPresented(CardPresentation(user: "guest", enabled: true, label: "visitor badge", validUntil: now - 1)))
        #expect(expired.denials == [.accessRule(.credentialExpired(at: now - 1))])
        #expect(expired.fields(of: "not-now")?["rule"] == "card-expired")
        let early = h.send(.cardPresented(CardPresentation(user: "guest", enabled: true, label: "visitor badge", validFrom: now + 3600)))
        #expect(early.fields(of: "not-now")?["rule"] == "card-not-yet-valid")
        #expect(h.send(.cardPresented(CardPresentation(user: "guest", enabled: true, label: "visitor badge",
                                                      validFrom: now - 60, validUntil: now + 60))).unlocked)
    }
}
