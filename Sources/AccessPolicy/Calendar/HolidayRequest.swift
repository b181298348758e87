/// A holiday as an admin asks for one, every part checked before anything is written: one day
/// or a range, yearly or not, closed or with hours of its own. `fpmod holiday add`, `fpmod hub
/// add-holiday` and the fleet console all read their inputs through it, so they take and refuse
/// the same holidays; each says a problem in its own words (an option, a form's field).
public struct HolidayRequest: Sendable, Equatable {
    public var first: CivilDate
    public var last: CivilDate
    public var yearly: Bool
    /// nil: closed (nobody with a schedule comes in); else these hours instead of their schedules.
    public var hours: WeeklySchedule?

    /// Which of the day texts a problem is in.
    public enum DayField: String, Sendable {
        case date, from, until
    }

    /// The first problem found, in the order the parts are read.
    public enum Problem: Error, Equatable {
        case notADate(DayField, text: String)
        case noDays
        case dateAndRange
        case halfRange
        /// `HolidayDays.problem`'s clause.
        case days(String)
        /// Neither closed nor hours, or both.
        case closedOrHours
        case hours(WeeklySchedule.ParseError)
    }

    /// `date` for one day, or `from` and `until` for a range (YYYY-MM-DD); `closed` or `hours`.
    public init(date: String?, from: String?, until: String?, yearly: Bool, closed: Bool, hours: String?) throws(Problem) {
        func read(_ text: String?, _ field: DayField) throws(Problem) -> CivilDate? {
            guard let text else { return nil }
            guard let date = CivilDate(parsing: Substring(text)) else { throw .notADate(field, text: text) }
            return date
        }
        let date = try read(date, .date), from = try read(from, .from), until = try read(until, .until)
        switch (date, from, until) {
        case let (date?, nil, nil): (first, last) = (date, date)
        case let (nil, from?, until?): (first, last) = (from, until)
        case (nil, nil, nil): throw .noDays
        case (_?, _, _): throw .dateAndRange
        default: throw .halfRange
        }
        self.yearly = yearly
        if let problem = HolidayDays.problem(first: first, last: last, yearly: yearly) { throw .days(problem) }
        guard (hours != nil) != closed else { throw .closedOrHours }
        guard let hours else {
            self.hours = nil
            return
        }
        do { self.hours = try WeeklySchedule(parsing: hours) } catch { throw .hours(error) }
    }
}
