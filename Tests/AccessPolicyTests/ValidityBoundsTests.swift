import AccessPolicy
import Testing

/// A card's or a user's dates as an admin types them, on the door's clock in Berlin (times in
/// UTC seconds worked out apart, by Python's calendar.timegm).
struct ValidityBoundsTests {
    @Test func aDayStartsAtItsFirstMinuteAndAnEndRunsThroughIt() throws {
        let berlin = try TimeZoneRulesTests.rules("Europe/Berlin")
        #expect(ValidityBounds.moment("2026-12-24", in: berlin, endOfDay: false) == 1_798_066_800, "2026-12-23 23:00 UTC")
        #expect(ValidityBounds.moment("2026-12-25", in: berlin, endOfDay: true) == 1_798_239_600, "the next day's start, 2026-12-25 23:00 UTC")
        #expect(ValidityBounds.moment("2026-12-26 18:00", in: berlin, endOfDay: true) == 1_798_304_400, "a time is that minute at either end")
        #expect(ValidityBounds.moment("2026-12-26T18:00", in: berlin, endOfDay: false) == 1_798_304_400)
        #expect(ValidityBounds.moment("2026-03-28", in: berlin, endOfDay: true) == 1_774_738_800, "the day before clocks go forward ends at 23:00 UTC")
    }

    @Test func theClocksChangingNightMeansTheMinuteThatHappens() throws {
        let berlin = try TimeZoneRulesTests.rules("Europe/Berlin")
        #expect(ValidityBounds.moment("2026-03-29 02:30", in: berlin, endOfDay: false) == 1_774_746_000, "skipped: 03:00 CEST when they land")
        #expect(ValidityBounds.moment("2026-10-25 02:30", in: berlin, endOfDay: false) == 1_792_888_200, "repeated: the first of the two")
    }

    @Test(arguments: ["", "today", "tuesday", "next week", "2026-13-01", "2026-02-30", "2026-12-24 24:00", "2026-12-24 7:00", " 2026-12-24"])
    func anythingElseIsNoBound(text: String) throws {
        #expect(ValidityBounds.moment(text, in: try TimeZoneRulesTests.rules("Europe/Berlin"), endOfDay: false) == nil)
    }

    @Test func boundsAreSaidOnTheDoorsClockWithItsZone() throws {
        let berlin = try TimeZoneRulesTests.rules("Europe/Berlin")
        #expect(ValidityBounds.describe(from: 1_798_066_800, until: 1_798_304_400, in: berlin)
                == "valid from 2026-12-24 00:00 Europe/Berlin, valid until 2026-12-26 18:00 Europe/Berlin")
        #expect(ValidityBounds.describe(from: nil, until: 1_798_239_600, in: berlin) == "valid until 2026-12-26 00:00 Europe/Berlin")
        #expect(ValidityBounds.describe(from: nil, until: nil, in: berlin).isEmpty)
        #expect(ValidityBounds.describeCard(from: nil, until: nil, in: berlin) == "no dates of its own")
        #expect(ValidityBounds.describeCard(from: 1_798_066_800, until: nil, in: .utc) == "valid from 2026-12-23 23:00 UTC")
        #expect(ValidityBounds.howToWrite(in: berlin) == "YYYY-MM-DD or 'YYYY-MM-DD HH:MM' on the door's clock (Europe/Berlin)")
    }
}
