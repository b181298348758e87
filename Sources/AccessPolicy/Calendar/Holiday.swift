/// A dated exception to the weekly schedules: one day or a range of days, once or every year,
/// with hours of its own or closed. On such a day the holiday's hours replace the schedule of
/// every user who has one; the local date of the moment decides (a Friday-night window that
/// runs into a holiday Saturday ends at midnight).
public struct Holiday: Hashable, Sendable {
    public var name: String
    public var first: CivilDate
    public var last: CivilDate
    /// Every year on the same month and day (a range may wrap the new year: 12-24 to 01-02).
    /// A yearly February 29 is a holiday in leap years only.
    public var yearly: Bool
    /// Its hours; nil: closed all day.
    public var hours: WeeklySchedule?

    public init(name: String, first: CivilDate, last: CivilDate, yearly: Bool, hours: WeeklySchedule?) {
        self.name = name
        self.first = first
        self.last = last
        self.yearly = yearly
        self.hours = hours
    }

    public func covers(_ date: CivilDate) -> Bool {
        guard yearly else { return first <= date && date <= last }
        let day = (date.month, date.day), from = (first.month, first.day), to = (last.month, last.day)
        return from <= to ? (from <= day && day <= to) : (day >= from || day <= to)
    }
}
