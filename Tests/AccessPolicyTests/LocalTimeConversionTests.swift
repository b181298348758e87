@testable import AccessPolicy
import Foundation
import Testing

/// Wall-clock readings an admin types, turned into moments: one, none in the skipped hour,
/// two in the repeated hour; Foundation's TimeZone (code we did not write) is the referee.
struct LocalTimeConversionTests {
    static func berlin() throws -> TimeZoneRules { try TimeZoneRulesTests.rules("Europe/Berlin") }

    @Test func anOrdinaryMinuteIsOneMoment() throws {
        let moments = try Self.berlin().utcSeconds(forLocal: CivilDate(year: 2026, month: 12, day: 8), minuteOfDay: 570)
        // 2026-12-08 09:30 CET = 08:30 UTC.
        #expect(moments == [1_796_718_600])
    }

    @Test func theSkippedHourHasNoMomentAndTheRepeatedHourHasTwo() throws {
        let berlin = try Self.berlin()
        #expect(berlin.utcSeconds(forLocal: CivilDate(year: 2026, month: 3, day: 29), minuteOfDay: 150).isEmpty)
        let twice = berlin.utcSeconds(forLocal: CivilDate(year: 2026, month: 10, day: 25), minuteOfDay: 150)
        #expect(twice.count == 2 && twice[1] - twice[0] == 3600, "\(twice)")
        for moment in twice {
            #expect(berlin.localTime(atUTC: moment).description == "2026-10-25 02:30")
        }
    }

    @Test func everyMinuteOfAYearRoundTripsAsFoundationSays() throws {
        let zone = "America/New_York"
        let rules = try TimeZoneRulesTests.rules(zone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        var day = CivilDate(year: 2026, month: 1, day: 1)
        var problems: [String] = []
        while day.year == 2026 && problems.count < 5 {
            for minute in stride(from: 0, to: 1440, by: 15) {
                let moments = rules.utcSeconds(forLocal: day, minuteOfDay: minute)
                let parts = DateComponents(year: day.year, month: day.month, day: day.day, hour: minute / 60, minute: minute % 60)
                let expected = calendar.date(from: parts).map { Int64($0.timeIntervalSince1970) }
                let shown = moments.map { rules.localTime(atUTC: $0).description }
                if moments.isEmpty {
                    // Foundation moves a skipped time forward; it must not show the asked time.
                    if let expected, rules.localTime(atUTC: expected).minuteOfDay == minute { problems.append("\(day) \(minute): none, Foundation \(expected)") }
                } else if !moments.contains(expected ?? -1) || shown.contains(where: { !$0.hasPrefix(day.description) }) {
                    problems.append("\(day) \(minute): \(moments) vs Foundation \(String(describing: expected))")
                }
            }
            day = day.adding(days: 1)
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func typedTimesAreRead() {
        #expect(LocalTime.parse("2026-12-08 09:30")?.minuteOfDay == 570)
        #expect(LocalTime.parse("2026-12-08T23:59")?.minuteOfDay == 1439)
        for bad in ["2026-12-08", "2026-12-08 24:00", "2026-02-30 10:00", "2026-12-08 9:30", "tomorrow 10:00"] {
            #expect(LocalTime.parse(bad) == nil, "\(bad)")
        }
    }
}
