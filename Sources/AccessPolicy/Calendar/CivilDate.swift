/// A day of the proleptic Gregorian calendar, and its conversion to and from a count of days
/// since 1970-01-01: the arithmetic every schedule and holiday needs, without a calendar
/// library. The conversion is the classic era-of-400-years method: every 400 years the
/// calendar repeats (146,097 days), so a date splits into an era and a day within it.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    /// 1...12
    public var month: Int
    /// 1...31
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Nil unless the day exists (February 29 only in leap years).
    public init?(validating year: Int, _ month: Int, _ day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (negative before it).
    public var daysSinceEpoch: Int {
        // Count years from March, so the leap day is the last day of a year.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// The day of the week, 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
    public var weekday: Int {
        let days = daysSinceEpoch
        return days >= -4 ? (days + 4) % 7 : (days + 5) % 7 + 6
    }

    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    public static func < (a: CivilDate, b: CivilDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    /// `2026-03-29`
    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    /// Reads `YYYY-MM-DD`; nil for anything else or a day that does not exist.
    public init?(parsing text: Substring) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(validating: y, m, d)
    }
}

/// A moment as a door's wall clock shows it: the local date, the minute of that day, and the
/// UTC offset in force.
public struct LocalTime: Hashable, Sendable, CustomStringConvertible {
    public var date: CivilDate
    /// 0 ..< 1440
    public var minuteOfDay: Int
    public var second: Int
    /// Seconds east of UTC.
    public var utcOffset: Int

    public var weekday: Int { date.weekday }

    /// `2026-03-29 03:05`
    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(date) \(two(minuteOfDay / 60)):\(two(minuteOfDay % 60))"
    }

    /// The local time of `utcSeconds` at `offset` seconds east of UTC.
    public init(utcSeconds: Int64, offset: Int) {
        let local = utcSeconds + Int64(offset)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = Int(local - days * 86_400)
        date = CivilDate(daysSinceEpoch: Int(days))
        minuteOfDay = secondOfDay / 60
        second = secondOfDay % 60
        utcOffset = offset
    }
}
