import AccessPolicy
import Testing

/// What the CLI and the fleet console both take as a holiday: each refusal is the first problem
/// in reading order, so both front ends name the same part to fix.
struct HolidayRequestTests {
    static func problem(date: String? = nil, from: String? = nil, until: String? = nil, yearly: Bool = false, closed: Bool = false,
                        hours: String? = nil) -> HolidayRequest.Problem? {
        do {
            _ = try HolidayRequest(date: date, from: from, until: until, yearly: yearly, closed: closed, hours: hours)
            return nil
        } catch {
            return error
        }
    }

    @Test func oneDayOrARangeClosedOrWithHours() throws {
        let day = try HolidayRequest(date: "2026-12-25", from: nil, until: nil, yearly: true, closed: true, hours: nil)
        #expect(day.first == day.last && day.first.description == "2026-12-25" && day.yearly && day.hours == nil)
        let range = try HolidayRequest(date: nil, from: "2026-12-24", until: "2026-12-26", yearly: false, closed: false, hours: "Daily  10:00-14:00")
        #expect(range.first.description == "2026-12-24" && range.last.description == "2026-12-26" && !range.yearly)
        #expect(range.hours?.text == "daily 10:00-14:00", "kept as the doors read it")
    }

    @Test func eachProblemIsTheFirstInReadingOrder() {
        #expect(Self.problem(date: "2026-02-30", closed: true) == .notADate(.date, text: "2026-02-30"))
        #expect(Self.problem(date: "2026-12-25", from: "someday", closed: true) == .notADate(.from, text: "someday"), "each text read before they are combined")
        #expect(Self.problem(closed: true) == .noDays)
        #expect(Self.problem(date: "2026-12-25", from: "2026-12-24", until: "2026-12-26", closed: true) == .dateAndRange)
        #expect(Self.problem(from: "2026-12-24", closed: true) == .halfRange)
        #expect(Self.problem(from: "2026-12-26", until: "2026-12-24", closed: true)
                    == .days("its last day 2026-12-24 is before its first 2026-12-26; give the days in order"))
        #expect(Self.problem(date: "2026-12-25") == .closedOrHours)
        #expect(Self.problem(date: "2026-12-25", closed: true, hours: "daily 10:00-14:00") == .closedOrHours)
        guard case .hours(let error)? = Self.problem(date: "2026-12-25", hours: "daily 10:00-25:00") else {
            Issue.record("hours that do not read are refused")
            return
        }
        #expect(error.column > 1)
    }
}
