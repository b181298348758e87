import Foundation
import Testing
@testable import AccessPolicy

/// Passage and first-person-in by the passage schedule, on the Berlin wall clock from the
/// system's tzdata: boundaries from `nextDeadline`, both daylight-saving nights, holidays and a
/// window across midnight. The harness starts on Tuesday 2023-11-14 22:13:20 UTC (23:13 in Berlin).
struct PassageScheduleTests {
    static func rules(_ schedule: String, zone: TimeZoneRules, holidays: [Holiday] = []) throws -> AccessRules {
        AccessRules(calendar: AccessCalendar(timeZone: zone, holidays: holidays),
                    passage: try WeeklySchedule(parsing: schedule), passageName: "shop")
    }

    @Test func passageOpensAndClosesAtTheBoundaries() throws {
        var h = Harness()
        h.access = try Self.rules("weekdays 08:30-18:00", zone: try Harness.berlin())
        let set = h.setMode(.passage)
        #expect(set.unlocks.isEmpty, "closed at night")
        #expect(set.fields(of: "door-mode")?["passage"] == "off")
        // Wednesday 08:30 in Berlin is 07:30 UTC.
        #expect(h.deadline?.wall == 1_700_033_400)
        h.advance(toUTC: 1_700_033_399)
        #expect(h.send(.tick).unlocks.isEmpty)
        let opening = h.tickAtDeadline()
        #expect(opening.unlocks == [.passage])
        #expect(!opening.pulses)
        #expect(opening.fields(of: "door-mode") == ["mode": "passage", "cause": "schedule", "passage": "on"])
        #expect(opening.audits("door-mode").first?.detail.contains("\"shop\"") == true)
        #expect(h.deadline?.wall == 1_700_067_600)
        let closing = h.tickAtDeadline()
        #expect(closing.locked)
        #expect(closing.fields(of: "door-mode")?["cause"] == "schedule")
        #expect(closing.audits("door-mode").count == 1)
    }

    @Test func aCredentialJustAfterTheWindowGetsItsOwnPulse() throws {
        var h = Harness()
        h.access = try Self.rules("weekdays 08:30-18:00", zone: .utc)
        h.advance(toUTC: 1_700_039_600)
        h.setMode(.passage)
        #expect(h.state.passageHolding)
        // Wednesday 18:00:05 UTC, before the runtime's tick: the passage ends, then the grant.
        h.advance(toUTC: 1_700_071_205)
        let late = h.match("alice")
        #expect(late.locked)
        #expect(late.unlocks == [.fingerprint])
        #expect(late.pulses)
    }

    @Test func normalModeIgnoresTheSchedule() throws {
        var h = Harness()
        h.access = try Self.rules("daily 00:00-24:00", zone: .utc)
        #expect(h.tick(after: 60).unlocks.isEmpty)
        #expect(h.deadline == nil)
    }

    @Test func springForwardShortensTheWindowAndSkipsTheMissingHour() throws {
        let berlin = try Harness.berlin()
        // Saturday 2024-03-30 12:00 UTC; that night 02:00 becomes 03:00.
        let saturday: Int64 = 1_711_800_000
        let night = try Self.rules("sun 01:00-04:00", zone: berlin)
        #expect(night.nextPassageBoundary(afterUTC: saturday) == 1_711_843_200, "01:00 CET is 00:00 UTC")
        #expect(night.nextPassageBoundary(afterUTC: 1_711_843_200) == 1_711_850_400, "04:00 CEST is 02:00 UTC: two real hours")
        let skipped = try Self.rules("sun 02:15-02:45", zone: berlin)
        #expect(skipped.nextPassageBoundary(afterUTC: saturday) == 1_712_448_900, "never that night; next Sunday 02:15 CEST")

        var h = Harness()
        h.advance(toUTC: saturday)
        h.access = night
        h.setMode(.passage)
        #expect(h.tickAtDeadline().unlocks == [.passage])
        #expect(h.wall == 1_711_843_200)
        #expect(h.tickAtDeadline().locked)
        #expect(h.wall == 1_711_850_400)
    }

    @Test func fallBackOpensAWindowInTheRepeatedHourTwice() throws {
        // Sunday 2024-10-27: 03:00 CEST becomes 02:00 CET, at 01:00 UTC.
        let rules = try Self.rules("sun 02:15-02:45", zone: try Harness.berlin())
        var boundaries: [Int64] = []
        var t: Int64 = 1_729_983_600
        for _ in 0..<4 {
            guard let next = rules.nextPassageBoundary(afterUTC: t) else { break }
            boundaries.append(next)
            t = next
        }
        #expect(boundaries == [1_729_988_100, 1_729_989_900, 1_729_991_700, 1_729_993_500])
    }

    @Test func firstPersonInWaitsForTheFirstPersonEachDay() throws {
        let snowDay = Holiday(name: "snow day", first: CivilDate(year: 2023, month: 11, day: 17),
                              last: CivilDate(year: 2023, month: 11, day: 17), yearly: false, hours: nil)
        var h = Harness()
        h.access = try Self.rules("weekdays 08:00-18:00", zone: try Harness.berlin(), holidays: [snowDay])
        h.setMode(.firstPersonIn)
        // Wednesday 08:30 Berlin: inside the window, still locked.
        h.advance(toUTC: 1_700_033_400)
        #expect(h.send(.tick).unlocks.isEmpty)
        #expect(!h.state.passageHolding)
        let first = h.match("alice")
        #expect(first.unlocks.contains(.passage))
        #expect(!first.pulses)
        #expect(first.fields(of: "door-mode") == ["mode": "first-person-in", "cause": "first-person-in", "passage": "on"])
        #expect(first.audits("door-mode").first?.user == "alice")
        #expect(h.state.firstPersonWindow == 1_700_031_600, "the window of Wednesday 08:00 Berlin")
        #expect(h.tick(after: 3600).isEmpty, "held open")
        #expect(try h.restart(downtime: 30).unlocks == [.passage], "a restart inside the window holds again")
        // 18:00 Berlin: locked; Thursday 08:00: still locked until someone comes.
        #expect(h.tickAtDeadline().locked)
        #expect(h.wall == 1_700_067_600)
        #expect(h.tickAtDeadline().unlocks.isEmpty)
        #expect(!h.state.passageHolding)
        h.advance(1800)
        #expect(h.match("bob").unlocks.contains(.passage))
        #expect(h.tickAtDeadline().locked)
        // Friday is a closed holiday: a grant is a plain pulse, passage stays off.
        h.advance(toUTC: 1_700_208_000)
        h.send(.tick)
        let friday = h.match("alice")
        #expect(friday.unlocks == [.fingerprint])
        #expect(friday.pulses)
        #expect(!h.state.passageHolding)
    }

    @Test func anAlwaysOpenScheduleIsOneLongWindow() throws {
        var h = Harness()
        h.access = try Self.rules("daily 00:00-24:00", zone: .utc)
        h.setMode(.firstPersonIn)
        #expect(h.match("alice").unlocks.contains(.passage))
        #expect(h.tick(after: 600).isEmpty, "still the same window ten minutes on")
        #expect(h.state.passageHolding)
    }

    @Test func aUseTakenElsewhereWithdrawsTheFirstPersonsPassage() throws {
        var h = Harness()
        var rules = try Self.rules("daily 00:00-24:00", zone: .utc)
        rules.users["contractor"] = UserAccess(usesLeft: 1)
        h.access = rules
        h.setMode(.firstPersonIn)
        let grant = h.match("contractor")
        let use = try #require(grant.firstIndex(of: .consumeUse(user: "contractor")))
        let hold = try #require(grant.firstIndex(of: .unlock(.passage, user: nil, until: nil)))
        #expect(use < hold)
        let withdrawn = h.send(.useRefused(user: "contractor"))
        #expect(withdrawn.locked)
        #expect(withdrawn.fields(of: "door-mode")?["cause"] == "use-refused")
        #expect(!h.state.passageHolding && h.state.firstPersonWindow == nil)
        // While passage holds, a grant takes no use.
        h.advance(5)
        #expect(h.match("alice").unlocks.contains(.passage))
        h.advance(5)
        #expect(!h.match("contractor").contains(.consumeUse(user: "contractor")))
    }

    @Test func anAdminCardOpensInLockdownAndAnotherCardDoesNot() {
        var h = Harness { $0.verifyMode = .card }
        h.setMode(.lockdown)
        let admin = h.send(.cardPresented(CardPresentation(user: "carol", enabled: true, label: "card #1", isAdmin: true)))
        #expect(admin.unlocks == [.card])
        h.advance(10)
        let other = h.send(.cardPresented(CardPresentation(user: "bob", enabled: true, label: "card #2")))
        #expect(other.denials == [.lockdown])
    }

    @Test func aRefusedUserIsNotTheFirstPersonIn() throws {
        var h = Harness()
        var rules = try Self.rules("daily 00:00-24:00", zone: .utc)
        rules.users["cleaner"] = UserAccess(validUntil: 1_600_000_000)
        h.access = rules
        h.setMode(.firstPersonIn)
        #expect(!h.match("cleaner").unlocked)
        #expect(!h.state.passageHolding)
    }

    @Test func aWindowAcrossMidnightIsOneWindow() throws {
        var h = Harness()
        h.access = try Self.rules("fri 22:00-02:00+1", zone: .utc)
        h.setMode(.firstPersonIn)
        // Friday 2023-11-17 22:30 UTC.
        h.advance(toUTC: 1_700_260_200)
        #expect(h.match("alice").unlocks.contains(.passage))
        #expect(h.state.firstPersonWindow == 1_700_258_400)
        // Saturday 01:00: the same window, still held.
        h.advance(toUTC: 1_700_269_200)
        #expect(h.send(.tick).isEmpty)
        #expect(h.tickAtDeadline().locked)
        #expect(h.wall == 1_700_272_800)
    }

    @Test func aHolidayWithHoursUsesItsHours() throws {
        let short = Holiday(name: "eve", first: CivilDate(year: 2023, month: 11, day: 15),
                            last: CivilDate(year: 2023, month: 11, day: 15), yearly: false,
                            hours: try WeeklySchedule(parsing: "daily 10:00-12:00"))
        let rules = try Self.rules("weekdays 08:00-18:00", zone: .utc, holidays: [short])
        // Wednesday 2023-11-15 09:00 UTC: the holiday's hours, not the schedule's.
        #expect(!rules.passageOpen(atUTC: 1_700_038_800))
        #expect(rules.nextPassageBoundary(afterUTC: 1_700_038_800) == 1_700_042_400)
    }
}
