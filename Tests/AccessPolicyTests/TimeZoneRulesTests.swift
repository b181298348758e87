@testable import AccessPolicy
import Foundation
import Testing

/// The door's wall clock from the system's tzdata, read by our own TZif reader, against two
/// readers we did not write: Foundation's TimeZone (CoreFoundation's TZif code), hour by hour
/// over decades, and glibc's localtime through `date`, past the recorded transitions where the
/// footer's POSIX rule decides.
struct TimeZoneRulesTests {
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Australia/Lord_Howe", "America/Sao_Paulo",
                        "Asia/Kolkata", "Europe/London", "Pacific/Chatham", "America/St_Johns", "UTC"]

    static func rules(_ zone: String) throws -> TimeZoneRules {
        let bytes = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + zone), "tzdata has \(zone)")
        return try TimeZoneRules(name: zone, tzif: [UInt8](bytes))
    }

    @Test(arguments: zones)
    func offsetsMatchFoundationHourlyFrom1990To2037(zone: String) throws {
        let rules = try Self.rules(zone)
        let foundation = try #require(TimeZone(identifier: zone))
        var mismatches: [String] = []
        // 1990-01-01 to 2037-12-31, every hour and at each half hour's edge.
        var t: Int64 = 631_152_000
        while t < 2_145_830_400 && mismatches.count < 5 {
            let expected = foundation.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))
            let found = rules.offset(atUTC: t)
            if found != expected { mismatches.append("\(t): \(found) vs Foundation's \(expected)") }
            t += 1800
        }
        #expect(mismatches.isEmpty, "\(zone): \(mismatches)")
    }

    /// Past 2037 (beyond the transitions a slim TZif file records) the footer's rule decides;
    /// glibc's `date` is the referee.
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Pacific/Chatham"])
    func footerRuleMatchesGlibcUntil2060(zone: String) throws {
        let rules = try Self.rules(zone)
        // The first of each month at 00:00 UTC and 12:00 UTC, 2038 to 2060.
        var instants: [Int64] = []
        for year in 2038...2060 {
            for month in 1...12 {
                let midnight = Int64(CivilDate(year: year, month: month, day: 1).daysSinceEpoch) * 86_400
                instants += [midnight, midnight + 43_200]
            }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "for t in \(instants.map(String.init).joined(separator: " ")); do date -d @$t +%z; done"]
        process.environment = ["TZ": zone, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let offsets = text.split(separator: "\n").map { line -> Int in
            let sign = line.hasPrefix("-") ? -1 : 1
            let digits = line.dropFirst()
            return sign * (Int(digits.prefix(2))! * 3600 + Int(digits.suffix(2))! * 60)
        }
        try #require(offsets.count == instants.count)
        let mismatches = zip(instants, offsets).filter { rules.offset(atUTC: $0.0) != $0.1 }
        #expect(mismatches.isEmpty, "\(zone): \(mismatches.prefix(5))")
    }

    @Test func springForwardAndFallBackInBerlinAndNewYork() throws {
        let berlin = try Self.rules("Europe/Berlin")
        // 2026-03-29 01:00 UTC: 02:00 CET becomes 03:00 CEST.
        let spring = Int64(CivilDate(year: 2026, month: 3, day: 29).daysSinceEpoch) * 86_400 + 3600
        #expect(berlin.localTime(atUTC: spring - 1).description == "2026-03-29 01:59")
        #expect(berlin.localTime(atUTC: spring).description == "2026-03-29 03:00")
        // 2026-10-25 01:00 UTC: 03:00 CEST becomes 02:00 CET; 02:30 happens twice.
        let fall = Int64(CivilDate(year: 2026, month: 10, day: 25).daysSinceEpoch) * 86_400 + 3600
        #expect(berlin.localTime(atUTC: fall - 1800).description == "2026-10-25 02:30")
        #expect(berlin.localTime(atUTC: fall + 1800).description == "2026-10-25 02:30")
        let newYork = try Self.rules("America/New_York")
        // 2026-03-08 07:00 UTC: 02:00 EST becomes 03:00 EDT; 2026-11-01 06:00 UTC: 02:00 EDT becomes 01:00 EST.
        let nySpring = Int64(CivilDate(year: 2026, month: 3, day: 8).daysSinceEpoch) * 86_400 + 7 * 3600
        #expect(newYork.localTime(atUTC: nySpring).description == "2026-03-08 03:00")
        #expect(newYork.localTime(atUTC: nySpring - 60).description == "2026-03-08 01:59")
        let nyFall = Int64(CivilDate(year: 2026, month: 11, day: 1).daysSinceEpoch) * 86_400 + 6 * 3600
        #expect(newYork.localTime(atUTC: nyFall - 60).description == "2026-11-01 01:59")
        #expect(newYork.localTime(atUTC: nyFall).description == "2026-11-01 01:00")
    }

    @Test func notTZifIsRefused() {
        #expect(throws: TimeZoneRules.ParseError.notTZif) { try TimeZoneRules(name: "x", tzif: Array("hello world, no zone here at all, none at all".utf8)) }
        #expect(throws: TimeZoneRules.ParseError.truncated) { try TimeZoneRules(name: "x", tzif: Array("TZif2".utf8) + [UInt8](repeating: 0, count: 30)) }
    }

    @Test func posixRulesParse() throws {
        #expect(PosixTimeZone(parsing: "CET-1CEST,M3.5.0,M10.5.0/3")?.daylightOffset == 7200)
        #expect(PosixTimeZone(parsing: "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")?.standardOffset == 37_800)
        #expect(PosixTimeZone(parsing: "EST5EDT,M3.2.0,M11.1.0")?.standardOffset == -18_000)
        #expect(PosixTimeZone(parsing: "<-03>3")?.start == nil)
        for bad in ["", "C1", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.5.0", "CET-1CEST,M3.6.0,M10.5.0/3", "CET-1CEST,J0,J365"] {
            #expect(PosixTimeZone(parsing: bad) == nil, "\(bad)")
        }
    }
}

/// Civil dates against Foundation's Gregorian calendar, leap days and weekdays included.
struct CivilDateTests {
    @Test func daysRoundTripAndMatchFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        // From 1583: Foundation's Gregorian calendar is Julian before October 1582.
        for days in stride(from: -141_000, through: 800_000, by: 997) {
            let date = CivilDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            let components = calendar.dateComponents([.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: TimeInterval(days) * 86_400))
            #expect(components.year == date.year && components.month == date.month && components.day == date.day, "\(days)")
            #expect(components.weekday == date.weekday + 1, "\(date)")
        }
    }

    @Test func leapDays() {
        #expect(CivilDate(validating: 2028, 2, 29) != nil)
        #expect(CivilDate(validating: 2026, 2, 29) == nil)
        #expect(CivilDate(validating: 2000, 2, 29) != nil)
        #expect(CivilDate(validating: 2100, 2, 29) == nil)
        #expect(CivilDate(year: 2028, month: 2, day: 28).adding(days: 1) == CivilDate(year: 2028, month: 2, day: 29))
        #expect(CivilDate(parsing: "2028-02-29") == CivilDate(year: 2028, month: 2, day: 29))
        #expect(CivilDate(parsing: "2026-02-29") == nil)
        #expect(CivilDate(parsing: "2026-2-1") == nil)
    }
}
