extension TimeZoneRules {
    /// The moments whose wall clock shows `minuteOfDay` on `date`: usually one; none inside the
    /// hour skipped when clocks go forward; two inside the hour repeated when they go back
    /// (earliest first). What an admin types (`--at '2026-03-29 02:30'`) is wall-clock time, so
    /// a tool must say which of these it means.
    public func utcSeconds(forLocal date: CivilDate, minuteOfDay: Int) -> [Int64] {
        let local = Int64(date.daysSinceEpoch) * 86_400 + Int64(minuteOfDay) * 60
        // A zone changes its offset at most once within a day either side, so the offsets in
        // force a day before and after are all the candidates.
        let offsets = Set([offset(atUTC: local - 86_400), offset(atUTC: local), offset(atUTC: local + 86_400)])
        return offsets.map { local - Int64($0) }.filter { offset(atUTC: $0) == Int(local - $0) }.sorted()
    }

    /// The first moment the wall clock shows `minuteOfDay` on `date`; a minute the clocks skip
    /// starts when they land (the next minute that happens), so "from 02:30" on the night clocks
    /// go forward still means that night.
    public func firstUTCSeconds(forLocal date: CivilDate, minuteOfDay: Int) -> Int64 {
        var day = date, at = minuteOfDay
        for _ in 0..<(24 * 60) {
            if let first = utcSeconds(forLocal: day, minuteOfDay: at).first { return first }
            at += 1
            if at == 24 * 60 { at = 0; day = day.adding(days: 1) }
        }
        return Int64(date.daysSinceEpoch) * 86_400 + Int64(minuteOfDay) * 60
    }
}

extension TimeZoneRules {
    /// `2026-12-07 00:00 Europe/Berlin`: a moment as the door's clock shows it, with the zone.
    public func wallClockText(atUTC utcSeconds: Int64) -> String { "\(localTime(atUTC: utcSeconds)) \(name)" }
}

extension LocalTime {
    /// Reads `YYYY-MM-DD HH:MM` (or `YYYY-MM-DDTHH:MM`); nil for anything else. The result is a
    /// wall-clock reading: turn it into a moment with `TimeZoneRules.utcSeconds(forLocal:minuteOfDay:)`.
    public static func parse(_ text: String) -> (date: CivilDate, minuteOfDay: Int)? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
        guard parts.count == 2, let date = CivilDate(parsing: parts[0]) else { return nil }
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2, clock.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hours = Int(clock[0]), let minutes = Int(clock[1]), hours < 24, minutes < 60 else { return nil }
        return (date, hours * 60 + minutes)
    }
}
