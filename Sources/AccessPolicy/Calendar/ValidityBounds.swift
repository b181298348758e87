/// A user's or a card's own validity as an admin types it and reads it back, on the door's
/// clock: one reading and one wording for every front end (`fpmod user set`, `fpmod card
/// validity`, the console), so a date the CLI takes the console takes too and means the same.
public enum ValidityBounds {
    /// `YYYY-MM-DD` (from its start; with `endOfDay`, through its end) or `YYYY-MM-DD HH:MM`, on
    /// the door's clock; nil for anything else (no "today": a bound is a date the admin means,
    /// not one that moves).
    public static func moment(_ text: String, in zone: TimeZoneRules, endOfDay: Bool) -> Int64? {
        guard text.first?.isNumber == true else { return nil }
        if let (date, minute) = LocalTime.parse(text) { return zone.firstUTCSeconds(forLocal: date, minuteOfDay: minute) }
        guard let date = CivilDate(parsing: Substring(text)) else { return nil }
        return zone.firstUTCSeconds(forLocal: endOfDay ? date.adding(days: 1) : date, minuteOfDay: 0)
    }

    /// How to write a bound, for the message that refuses one.
    public static func howToWrite(in zone: TimeZoneRules) -> String {
        "YYYY-MM-DD or 'YYYY-MM-DD HH:MM' on the door's clock (\(zone.name))"
    }

    /// `valid from 2026-12-24 00:00 Europe/Berlin, valid until 2026-12-27 00:00 Europe/Berlin`:
    /// the bounds there are; empty when there are none.
    public static func describe(from: Int64?, until: Int64?, in zone: TimeZoneRules) -> String {
        [from.map { "valid from \(zone.wallClockText(atUTC: $0))" }, until.map { "valid until \(zone.wallClockText(atUTC: $0))" }]
            .compactMap { $0 }.joined(separator: ", ")
    }

    /// A card's dates as its change is said and audited: the bounds, or that it has none (then
    /// only its user's own rules limit it).
    public static func describeCard(from: Int64?, until: Int64?, in zone: TimeZoneRules) -> String {
        let described = describe(from: from, until: until, in: zone)
        return described.isEmpty ? "no dates of its own" : described
    }

    /// A user's validity as the hub's change to it is said and audited: the bounds and the uses
    /// left at each door, or that there are none.
    public static func describeUser(from: Int64?, until: Int64?, usesLeft: Int?, in zone: TimeZoneRules) -> String {
        let parts = [describe(from: from, until: until, in: zone), usesLeft.map { "\($0) use\($0 == 1 ? "" : "s") left at each door" } ?? ""]
            .filter { !$0.isEmpty }
        return parts.isEmpty ? "no dates and no limit on uses" : parts.joined(separator: ", ")
    }
}
