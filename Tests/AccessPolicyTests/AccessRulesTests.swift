@testable import AccessPolicy
import Foundation
import Testing

/// Schedules, holidays, validity and uses, judged on the door's wall clock from the system's
/// tzdata, moment by moment as a fake clock moves: midnight-crossing windows, both
/// daylight-saving changes in Berlin and New York, leap days, and a rule that cannot be read.
struct AccessRulesTests {
    static func zone(_ name: String) throws -> TimeZoneRules {
        let bytes = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name))
        return try TimeZoneRules(name: name, tzif: [UInt8](bytes))
    }

    /// UTC seconds of a local wall-clock time in `zone` (the first, when it happens twice).
    static func at(_ zone: TimeZoneRules, _ date: String, _ hour: Int, _ minute: Int = 0) throws -> Int64 {
        let day = try #require(CivilDate(parsing: Substring(date)))
        let wall = Int64(day.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60)
        for guess in [wall - 50_400, wall - 3600 * 3, wall] {
            let offset = zone.offset(atUTC: guess)
            if zone.localTime(atUTC: wall - Int64(offset)).minuteOfDay == hour * 60 + minute { return wall - Int64(offset) }
        }
        // Inside a skipped hour: the moment the clock would have shown it.
        return wall - Int64(zone.offset(atUTC: wall))
    }

    /// Minutes of real time, stepped a minute at a time from `start` for `hours`, the verdict allowed.
    static func allowedMinutes(_ calendar: AccessCalendar, _ user: UserAccess, from start: Int64, hours: Int) -> Int {
        stride(from: start, to: start + Int64(hours * 3600), by: 60).filter { calendar.verdict(for: user, atUTC: $0).isAllowed }.count
    }

    @Test func schedulesAreReadAndNormalised() throws {
        #expect(try WeeklySchedule(parsing: "Mon-Fri 07:00-19:00;  sat 08:00-12:00").text == "weekdays 07:00-19:00; sat 08:00-12:00")
        #expect(try WeeklySchedule(parsing: "sat,sun 10:00-24:00").text == "weekends 10:00-24:00")
        #expect(try WeeklySchedule(parsing: "fri-mon 22:00-02:00+1").windows[0].days == [5, 6, 0, 1])
        #expect(try WeeklySchedule(parsing: "fri 22:00-02:00+1").text == "fri 22:00-02:00+1")
        #expect(try WeeklySchedule(parsing: "tue 08:00-12:00").text == "tue 08:00-12:00")
    }

    @Test func badSchedulesNameTheColumn() throws {
        func error(_ text: String) -> WeeklySchedule.ParseError? {
            do { _ = try WeeklySchedule(parsing: text); return nil } catch { return error }
        }
        #expect(error("mon-fry 07:00-19:00")?.column == 1)
        #expect(error("mon-fri 7:00-19:00")?.column == 9)
        #expect(error("mon-fri 07:00-19:60")?.column == 15)
        #expect(error("mon 07:00-07:00")?.message.contains("same time") == true)
        #expect(error("mon 24:00-02:00")?.column == 5)
        #expect(error("mon 17:00-07:00")?.message.contains("ends before it starts") == true, "a typo never opens the night")
        #expect(error("mon 07:00-08:00+1")?.column == 16)
        #expect(error("mon-fri 07:00-12:00; wed 11:00-13:00")?.column == 22)
        #expect(error("mon-fri 07:00-12:00; wed 11:00-13:00")?.message.contains("overlaps \"weekdays 07:00-12:00\"") == true)
        #expect(error("sat 23:00-02:00+1; sun 01:00-03:00")?.column == 20, "the week wraps")
        #expect(try WeeklySchedule(parsing: "mon 07:00-12:00; mon 12:00-13:00").windows.count == 2, "touching is no overlap")
        #expect(error("mon 07:00-12:00;")?.column == 17)
        #expect(error("")?.message.contains("empty") == true)
        #expect(error("mon 07:00-12:00 extra")?.column == 1)
    }

    @Test func midnightCrossingWindows() throws {
        let calendar = AccessCalendar(schedules: ["late": try WeeklySchedule(parsing: "fri 22:00-02:00+1; sun 23:00-01:00+1")])
        let user = UserAccess(schedule: "late")
        let utc = TimeZoneRules.utc
        #expect(calendar.verdict(for: user, atUTC: try Self.at(utc, "2026-12-04", 21, 59)) == .denied(.outsideSchedule("late")))  // a Friday
        #expect(calendar.verdict(for: user, atUTC: try Self.at(utc, "2026-12-04", 22)).isAllowed)
        #expect(calendar.verdict(for: user, atUTC: try Self.at(utc, "2026-12-05", 1, 59)).isAllowed)
        #expect(!calendar.verdict(for: user, atUTC: try Self.at(utc, "2026-12-05", 2)).isAllowed)
        #expect(!calendar.verdict(for: user, atUTC: try Self.at(utc, "2026-12-03", 23)).isAllowed)  // Thursday
        // Sunday night into Monday: the week wraps.
        #expect(calendar.verdict(for: user, atUTC: try Self.at(utc, "2026-12-07", 0, 30)).isAllowed)
        #expect(!calendar.verdict(for: user, atUTC: try Self.at(utc, "2026-12-07", 1)).isAllowed)
    }

    @Test func daylightSavingInBerlin() throws {
        let berlin = try Self.zone("Europe/Berlin")
        let calendar = AccessCalendar(timeZone: berlin, schedules: ["night": try WeeklySchedule(parsing: "daily 02:00-03:00"),
                                                                    "morning": try WeeklySchedule(parsing: "daily 07:00-08:00")])
        // 2026-03-29: 02:00 CET jumps to 03:00 CEST; the window's hour never comes.
        let springMidnight = try Self.at(berlin, "2026-03-29", 0)
        #expect(Self.allowedMinutes(calendar, UserAccess(schedule: "night"), from: springMidnight, hours: 6) == 0)
        #expect(Self.allowedMinutes(calendar, UserAccess(schedule: "morning"), from: springMidnight, hours: 10) == 60)
        // 2026-10-25: 03:00 CEST goes back to 02:00 CET; the window's hour comes twice.
        let fallMidnight = try Self.at(berlin, "2026-10-25", 0)
        #expect(Self.allowedMinutes(calendar, UserAccess(schedule: "night"), from: fallMidnight, hours: 6) == 120)
        #expect(Self.allowedMinutes(calendar, UserAccess(schedule: "morning"), from: fallMidnight, hours: 10) == 60)
        // Opens at 07:00 local on either side of the change.
        #expect(calendar.verdict(for: UserAccess(schedule: "morning"), atUTC: try Self.at(berlin, "2026-03-28", 7)).isAllowed)
        #expect(try Self.at(berlin, "2026-03-28", 7) == 1_774_677_600)  // 06:00 UTC
        #expect(try Self.at(berlin, "2026-03-30", 7) == 1_774_846_800)  // 05:00 UTC
    }

    @Test func daylightSavingInNewYork() throws {
        let newYork = try Self.zone("America/New_York")
        let calendar = AccessCalendar(timeZone: newYork, schedules: ["small-hours": try WeeklySchedule(parsing: "sun 01:00-03:00")])
        let user = UserAccess(schedule: "small-hours")
        // 2026-03-08: 02:00 EST jumps to 03:00 EDT: only 01:00-02:00 happens.
        #expect(Self.allowedMinutes(calendar, user, from: try Self.at(newYork, "2026-03-08", 0), hours: 5) == 60)
        // 2026-11-01: 02:00 EDT goes back to 01:00 EST: 01:00-03:00 lasts three hours.
        #expect(Self.allowedMinutes(calendar, user, from: try Self.at(newYork, "2026-11-01", 0), hours: 5) == 180)
    }

    @Test func theCleanerOnTuesdayMornings() throws {
        let berlin = try Self.zone("Europe/Berlin")
        let calendar = AccessCalendar(timeZone: berlin, schedules: ["cleaning": try WeeklySchedule(parsing: "tue 08:00-12:00")])
        let cleaner = UserAccess(schedule: "cleaning")
        #expect(calendar.verdict(for: cleaner, atUTC: try Self.at(berlin, "2026-12-08", 9)) == .allowed(rule: "schedule \"cleaning\" (tue 08:00-12:00)"))
        #expect(calendar.verdict(for: cleaner, atUTC: try Self.at(berlin, "2026-12-08", 12)) == .denied(.outsideSchedule("cleaning")))
        #expect(calendar.verdict(for: cleaner, atUTC: try Self.at(berlin, "2026-12-09", 9)) == .denied(.outsideSchedule("cleaning")))
        #expect(calendar.verdict(for: UserAccess(), atUTC: try Self.at(berlin, "2026-12-09", 3)) == .allowed(rule: "no schedule"))
    }

    @Test func holidaysOverrideSchedules() throws {
        let shop = try WeeklySchedule(parsing: "daily 07:00-19:00")
        let calendar = AccessCalendar(
            schedules: ["staff": shop],
            holidays: [
                Holiday(name: "Christmas", first: CivilDate(year: 2000, month: 12, day: 24), last: CivilDate(year: 2000, month: 12, day: 26), yearly: true, hours: nil),
                Holiday(name: "New Year", first: CivilDate(year: 2000, month: 12, day: 31), last: CivilDate(year: 2001, month: 1, day: 1), yearly: true,
                        hours: try WeeklySchedule(parsing: "daily 10:00-14:00")),
                Holiday(name: "leap day", first: CivilDate(year: 2000, month: 2, day: 29), last: CivilDate(year: 2000, month: 2, day: 29), yearly: true, hours: nil),
                Holiday(name: "stocktaking", first: CivilDate(year: 2027, month: 3, day: 1), last: CivilDate(year: 2027, month: 3, day: 3), yearly: false, hours: nil),
            ])
        let staff = UserAccess(schedule: "staff")
        let utc = TimeZoneRules.utc
        #expect(calendar.verdict(for: staff, atUTC: try Self.at(utc, "2026-12-25", 12)) == .denied(.holidayClosed("Christmas")))
        #expect(calendar.verdict(for: staff, atUTC: try Self.at(utc, "2031-12-24", 12)) == .denied(.holidayClosed("Christmas")))
        #expect(calendar.verdict(for: staff, atUTC: try Self.at(utc, "2026-12-27", 12)).isAllowed)
        // Across the new year, with hours of its own.
        #expect(calendar.verdict(for: staff, atUTC: try Self.at(utc, "2026-12-31", 12)).isAllowed)
        #expect(calendar.verdict(for: staff, atUTC: try Self.at(utc, "2027-01-01", 15)) == .denied(.outsideHolidayHours("New Year")))
        #expect(calendar.verdict(for: staff, atUTC: try Self.at(utc, "2027-01-02", 15)).isAllowed)
        // A yearly February 29 only in leap years.
        #expect(calendar.verdict(for: staff, atUTC: try Self.at(utc, "2028-02-29", 12)) == .denied(.holidayClosed("leap day")))
        #expect(calendar.verdict(for: staff, atUTC: try Self.at(utc, "2027-02-28", 12)).isAllowed)
        #expect(calendar.verdict(for: staff, atUTC: try Self.at(utc, "2027-03-01", 12)).isAllowed == false)
        #expect(calendar.verdict(for: staff, atUTC: try Self.at(utc, "2028-03-01", 12)).isAllowed, "a one-off holiday of 2027 only")
        // A user with no schedule is not held by holidays.
        #expect(calendar.verdict(for: UserAccess(), atUTC: try Self.at(utc, "2026-12-25", 12)).isAllowed)
    }

    @Test func validityUsesAndUnreadableRules() throws {
        let calendar = AccessCalendar(schedules: ["always": try WeeklySchedule(parsing: "daily 00:00-24:00")])
        let guest = UserAccess(schedule: "always", validFrom: 1_000_000, validUntil: 2_000_000)
        #expect(calendar.verdict(for: guest, atUTC: 999_999) == .denied(.notYetValid(from: 1_000_000)))
        #expect(calendar.verdict(for: guest, atUTC: 1_000_000).isAllowed)
        #expect(calendar.verdict(for: guest, atUTC: 1_999_999).isAllowed)
        #expect(calendar.verdict(for: guest, atUTC: 2_000_000) == .denied(.expired(at: 2_000_000)))
        #expect(calendar.verdict(for: UserAccess(usesLeft: 0), atUTC: 5) == .denied(.noUsesLeft))
        #expect(calendar.verdict(for: UserAccess(usesLeft: 1), atUTC: 5).isAllowed)
        // A schedule the calendar does not have refuses: a rule that cannot be read never opens.
        #expect(calendar.verdict(for: UserAccess(schedule: "gone"), atUTC: 5) == .denied(.unknownSchedule("gone")))
    }
}
