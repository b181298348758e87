/// A POSIX TZ rule (`CET-1CEST,M3.5.0,M10.5.0/3`, `EST5EDT,M3.2.0,M11.1.0`), as the footer of a
/// TZif file gives the rule for years after its last recorded transition. Offsets in the text
/// count west of UTC (`EST5`); here they are kept east of UTC, as TZif's are.
struct PosixTimeZone: Sendable, Equatable {
    /// Seconds east of UTC outside and inside daylight-saving time.
    let standardOffset: Int
    let daylightOffset: Int?
    /// When daylight-saving time starts and ends; nil with no daylight-saving time.
    let start: Rule?
    let end: Rule?

    /// A day of the year and a local time on it.
    struct Rule: Sendable, Equatable {
        enum Day: Sendable, Equatable {
            /// `Jn`: day 1...365, February 29 never counted.
            case julianNoLeap(Int)
            /// `n`: day 0...365, February 29 counted.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday d (0 = Sunday) of week w (5 = the last) of month m.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        let day: Day
        /// Seconds after local midnight (may be negative or past 24 h, as TZif v3 allows).
        let time: Int

        func date(in year: Int) -> CivilDate {
            switch day {
            case .julianNoLeap(let n):
                // Day 60 is March 1 in every year: the leap day is skipped.
                let dayIndex = n - 1 + (CivilDate.isLeap(year) && n >= 60 ? 1 : 0)
                return CivilDate(year: year, month: 1, day: 1).adding(days: dayIndex)
            case .zeroBased(let n):
                return CivilDate(year: year, month: 1, day: 1).adding(days: n)
            case let .monthWeekDay(month, week, weekday):
                let first = CivilDate(year: year, month: month, day: 1)
                var day = 1 + (weekday - first.weekday + 7) % 7 + (week - 1) * 7
                let length = CivilDate.daysIn(month: month, year: year)
                while day > length { day -= 7 }
                return CivilDate(year: year, month: month, day: day)
            }
        }
    }

    func offset(atUTC utcSeconds: Int64) -> Int {
        guard let daylightOffset, let start, let end else { return standardOffset }
        let year = LocalTime(utcSeconds: utcSeconds, offset: standardOffset).date.year
        // The start is given in standard time, the end in daylight time (POSIX).
        let startUTC = Int64(start.date(in: year).daysSinceEpoch) * 86_400 + Int64(start.time - standardOffset)
        let endUTC = Int64(end.date(in: year).daysSinceEpoch) * 86_400 + Int64(end.time - daylightOffset)
        let inDaylight = startUTC < endUTC
            ? utcSeconds >= startUTC && utcSeconds < endUTC
            : utcSeconds < endUTC || utcSeconds >= startUTC  // southern hemisphere: DST spans new year
        return inDaylight ? daylightOffset : standardOffset
    }

    init?(parsing text: String) {
        var scanner = Substring(text)
        guard Self.name(&scanner), let standardWest = Self.offset(&scanner) else { return nil }
        standardOffset = -standardWest
        if scanner.isEmpty {
            daylightOffset = nil
            start = nil
            end = nil
            return
        }
        guard Self.name(&scanner) else { return nil }
        if let first = scanner.first, first != "," {
            guard let daylightWest = Self.offset(&scanner) else { return nil }
            daylightOffset = -daylightWest
        } else {
            daylightOffset = standardOffset + 3600
        }
        guard scanner.first == "," else { return nil }
        scanner.removeFirst()
        guard let start = Self.rule(&scanner), scanner.first == "," else { return nil }
        scanner.removeFirst()
        guard let end = Self.rule(&scanner), scanner.isEmpty else { return nil }
        self.start = start
        self.end = end
    }

    /// `CET` or `<+0330>`.
    private static func name(_ s: inout Substring) -> Bool {
        if s.first == "<" {
            guard let close = s.firstIndex(of: ">") else { return false }
            s = s[s.index(after: close)...]
            return true
        }
        let letters = s.prefix { $0.isLetter && $0.isASCII }
        guard letters.count >= 3 else { return false }
        s = s.dropFirst(letters.count)
        return true
    }

    /// `[+-]hh[:mm[:ss]]` in seconds (positive west of UTC, as written).
    private static func offset(_ s: inout Substring) -> Int? {
        var sign = 1
        if s.first == "+" || s.first == "-" {
            if s.first == "-" { sign = -1 }
            s.removeFirst()
        }
        return time(&s).map { $0 * sign }
    }

    /// `hh[:mm[:ss]]`, hours up to 167.
    private static func time(_ s: inout Substring) -> Int? {
        var parts: [Int] = []
        repeat {
            if !parts.isEmpty { s.removeFirst() }
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 3, let value = Int(digits) else { return nil }
            parts.append(value)
            s = s.dropFirst(digits.count)
        } while s.first == ":" && parts.count < 3
        guard parts[0] <= 167, parts.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        return parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
    }

    private static func rule(_ s: inout Substring) -> Rule? {
        let day: Rule.Day
        func number() -> Int? {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 3 else { return nil }
            s = s.dropFirst(digits.count)
            return Int(digits)
        }
        switch s.first {
        case "J":
            s.removeFirst()
            guard let n = number(), (1...365).contains(n) else { return nil }
            day = .julianNoLeap(n)
        case "M":
            s.removeFirst()
            guard let month = number(), (1...12).contains(month), s.first == "." else { return nil }
            s.removeFirst()
            guard let week = number(), (1...5).contains(week), s.first == "." else { return nil }
            s.removeFirst()
            guard let weekday = number(), (0...6).contains(weekday) else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        default:
            guard let n = number(), (0...365).contains(n) else { return nil }
            day = .zeroBased(n)
        }
        var time = 7200
        if s.first == "/" {
            s.removeFirst()
            var sign = 1
            if s.first == "+" || s.first == "-" {
                if s.first == "-" { sign = -1 }
                s.removeFirst()
            }
            guard let value = Self.time(&s) else { return nil }
            time = value * sign
        }
        return Rule(day: day, time: time)
    }
}
