/// A named weekly schedule: windows of local wall-clock time on days of the week, to the
/// minute, read from text such as `mon-fri 07:00-19:00; sat 08:00-12:00` or `weekdays 07:00-19:00`.
/// A window that runs past midnight says so with `+1` on its end (`fri 22:00-02:00+1` runs
/// from Friday 22:00 to Saturday 02:00); an end before the start without it is refused as the
/// typo it usually is (`17:00-07:00` for `07:00-17:00` would open the door at night), and so
/// are two windows of one schedule that overlap. Wall-clock time: on the night
/// clocks go forward a window inside the skipped hour does not happen, and on the night they go
/// back one inside the repeated hour happens twice.
public struct WeeklySchedule: Hashable, Sendable, CustomStringConvertible {
    public struct Window: Hashable, Sendable {
        /// Days the window starts on, 0 = Sunday … 6 = Saturday.
        public var days: Set<Int>
        /// Minutes after local midnight; `end` may be 1440 (24:00).
        public var start: Int
        public var end: Int

        public var crossesMidnight: Bool { end <= start }

        func contains(weekday: Int, minute: Int) -> Bool {
            if crossesMidnight {
                return (days.contains(weekday) && minute >= start) || (days.contains((weekday + 6) % 7) && minute < end)
            }
            return days.contains(weekday) && minute >= start && minute < end
        }
    }

    public var windows: [Window]
    /// The text it was read from, normalised (lower case, single spaces).
    public let text: String

    public func contains(_ time: LocalTime) -> Bool {
        windows.contains { $0.contains(weekday: time.weekday, minute: time.minuteOfDay) }
    }

    public var description: String { text }

    /// No window at all: what a passage schedule the config names but the store lacks becomes,
    /// so a missing rule holds nothing open.
    public static func never(because reason: String) -> WeeklySchedule {
        WeeklySchedule(windows: [], text: "never (\(reason))")
    }

    init(windows: [Window], text: String) {
        self.windows = windows
        self.text = text
    }

    /// Why a schedule's text cannot be read, and where: `column` counts characters from 1.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var column: Int
        public var message: String
        public var description: String { "column \(column): \(message)" }
    }

    static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    static let groups: [String: Set<Int>] = ["weekdays": [1, 2, 3, 4, 5], "weekends": [0, 6], "daily": Set(0...6)]
    static let example = "e.g. \"mon-fri 07:00-19:00; sat 08:00-12:00\""

    public init(parsing source: String) throws(ParseError) {
        var windows: [Window] = []
        var columns: [Int] = []
        var offset = 0
        for piece in source.split(separator: ";", omittingEmptySubsequences: false) {
            defer { offset += piece.count + 1 }
            let leading = piece.prefix { $0 == " " || $0 == "\t" }.count
            let words = piece.split(whereSeparator: { $0 == " " || $0 == "\t" })
            let column = offset + leading + 1
            guard words.count == 2 else {
                throw ParseError(column: column, message: words.isEmpty
                    ? "an empty window; each window is DAYS HH:MM-HH:MM, \(Self.example)"
                    : "a window is DAYS HH:MM-HH:MM, \(Self.example)")
            }
            let days = try Self.days(words[0], column: column)
            let timesColumn = column + words[0].count + (piece.dropFirst(leading + words[0].count).prefix { $0 == " " || $0 == "\t" }.count)
            let (start, end) = try Self.times(words[1], column: timesColumn)
            windows.append(Window(days: days, start: start, end: end))
            columns.append(column)
        }
        guard !windows.isEmpty else { throw ParseError(column: 1, message: "no window; \(Self.example)") }
        try Self.refuseOverlaps(windows, columns: columns)
        self.windows = windows
        text = windows.map(Self.text(of:)).joined(separator: "; ")
    }

    /// `mon-fri`, `sat,sun`, `tue`, `weekdays`, `weekends`, `daily`; ranges may wrap (`fri-mon`).
    static func days(_ word: Substring, column: Int) throws(ParseError) -> Set<Int> {
        let lowered = word.lowercased()
        if let group = groups[lowered] { return group }
        var days: Set<Int> = []
        var at = column
        for part in lowered.split(separator: ",", omittingEmptySubsequences: false) {
            defer { at += part.count + 1 }
            let ends = part.split(separator: "-", omittingEmptySubsequences: false)
            let indices = ends.map { dayNames.firstIndex(of: String($0)) }
            guard (1...2).contains(ends.count), let first = indices[0], let last = indices[indices.count - 1] else {
                throw ParseError(column: at, message: "\"\(part)\" is not a day; days are mon tue wed thu fri sat sun, ranges such as mon-fri, lists such as sat,sun, or weekdays, weekends, daily")
            }
            var day = first
            while true {
                days.insert(day)
                if day == last { break }
                day = (day + 1) % 7
            }
        }
        return days
    }

    /// `07:00-19:00`; 24:00 only as an end; `22:00-02:00+1` ends the next day.
    static func times(_ word: Substring, column: Int) throws(ParseError) -> (Int, Int) {
        let nextDay = word.hasSuffix("+1")
        let range = nextDay ? word.dropLast(2) : word
        let parts = range.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw ParseError(column: column, message: "\"\(word)\" is not a time range; write HH:MM-HH:MM, such as 07:00-19:00 (or 22:00-02:00+1 past midnight)") }
        func minute(_ text: Substring, column: Int, isEnd: Bool) throws(ParseError) -> Int {
            let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count == 2, pieces[0].count == 2, pieces[1].count == 2,
                  let hours = Int(pieces[0]), let minutes = Int(pieces[1]), pieces.allSatisfy({ $0.allSatisfy(\.isASCII) }),
                  minutes < 60, hours < 24 || (isEnd && hours == 24 && minutes == 0) else {
                throw ParseError(column: column, message: "\"\(text)\" is not a time of day; write HH:MM from 00:00 to 23:59\(isEnd ? " (or 24:00 as an end)" : "")")
            }
            return hours * 60 + minutes
        }
        let start = try minute(parts[0], column: column, isEnd: false)
        let end = try minute(parts[1], column: column + parts[0].count + 1, isEnd: true)
        guard end != start else {
            throw ParseError(column: column, message: "\"\(word)\" starts and ends at the same time; for the whole day write 00:00-24:00")
        }
        if nextDay && end > start {
            throw ParseError(column: column + range.count, message: "\"\(word)\" would last more than a day; +1 is for a window that ends the next day, before its start time (22:00-02:00+1)")
        }
        if !nextDay && end < start {
            throw ParseError(column: column, message: "\"\(word)\" ends before it starts; for a window past midnight write \(range)+1, or swap the times")
        }
        return (start, end)
    }

    /// Two windows of one schedule that share a minute: refused, naming both, since one of them
    /// is almost surely not what was meant.
    static func refuseOverlaps(_ windows: [Window], columns: [Int]) throws(ParseError) {
        func minutes(_ window: Window) -> [Range<Int>] {
            window.days.flatMap { day -> [Range<Int>] in
                let start = day * 1440 + window.start
                let end = day * 1440 + (window.crossesMidnight ? 1440 + window.end : window.end)
                // The week wraps: Saturday night runs into Sunday morning.
                return end <= 10_080 ? [start..<end] : [start..<10_080, 0..<(end - 10_080)]
            }
        }
        let spans = windows.map(minutes)
        for later in spans.indices {
            for earlier in 0..<later where spans[later].contains(where: { a in spans[earlier].contains { $0.overlaps(a) } }) {
                throw ParseError(column: columns[later], message: "\"\(text(of: windows[later]))\" overlaps \"\(text(of: windows[earlier]))\"; merge them into one window or correct the times")
            }
        }
    }

    static func text(of window: Window) -> String {
        func clock(_ minute: Int) -> String {
            let h = minute / 60, m = minute % 60
            return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
        }
        let days: String
        if let group = groups.first(where: { $0.value == window.days })?.key { days = group } else {
            days = window.days.sorted { ($0 + 6) % 7 < ($1 + 6) % 7 }.map { dayNames[$0] }.joined(separator: ",")
        }
        return "\(days) \(clock(window.start))-\(clock(window.end))\(window.crossesMidnight ? "+1" : "")"
    }
}
