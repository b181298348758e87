/// The days a holiday covers, as every place that takes one checks them (`fpmod holiday add`, the
/// fleet hub, a door applying the hub's holiday): in order, and a yearly one at most a year long.
public enum HolidayDays {
    /// Why `first`…`last` is no holiday; nil when it is one.
    public static func problem(first: CivilDate, last: CivilDate, yearly: Bool) -> String? {
        if !yearly && last < first { return "its last day \(last) is before its first \(first); give the days in order" }
        if yearly && first.year != last.year && last.adding(days: -366) >= first { return "a yearly holiday is at most a year long" }
        return nil
    }
}
