/// When passage may hold the door open: the passage schedule on the door's wall clock, with
/// the holidays (a closed holiday keeps passage off all day; one with hours uses its hours).
/// Boundaries are found by stepping whole UTC minutes, so every daylight-saving change is
/// taken as the wall clock shows it: a window inside the skipped hour never opens, and one
/// inside the repeated hour opens twice. Every zone in use today has whole-minute offsets.
extension AccessRules {
    /// How far a boundary is looked for; past it the runtime just ticks and looks again.
    static let passageSearchMinutes = 8 * 1440

    /// Whether the passage schedule is open at `utcSeconds` (no schedule: always).
    public func passageOpen(atUTC utcSeconds: Int64) -> Bool {
        // Rules that cannot be read hold nothing open.
        guard unreadable == nil else { return false }
        guard let passage else { return true }
        let local = calendar.timeZone.localTime(atUTC: utcSeconds)
        if let holiday = calendar.holidays.first(where: { $0.covers(local.date) }) {
            return holiday.hours?.contains(local) ?? false
        }
        return passage.contains(local)
    }

    /// The next moment after `utcSeconds` at which `passageOpen` changes; nil without a
    /// schedule. When nothing changes within eight days, that horizon is returned.
    public func nextPassageBoundary(afterUTC utcSeconds: Int64) -> Int64? {
        guard passage != nil else { return nil }
        let current = passageOpen(atUTC: utcSeconds)
        var minute = Self.floorToMinute(utcSeconds) + 60
        for _ in 0..<Self.passageSearchMinutes {
            if passageOpen(atUTC: minute) != current { return minute }
            minute += 60
        }
        return minute
    }

    /// When the open window containing `utcSeconds` began (the key of first-person-in), or nil
    /// when the schedule is closed then. Without a schedule the one window is keyed 0, and so
    /// is a window open for longer than the search reaches back (`daily 00:00-24:00`): a key
    /// that moved with the search's horizon would end passage a minute after it began.
    public func passageWindowStart(containingUTC utcSeconds: Int64) -> Int64? {
        guard passage != nil else { return 0 }
        guard passageOpen(atUTC: utcSeconds) else { return nil }
        var start = Self.floorToMinute(utcSeconds)
        for _ in 0..<Self.passageSearchMinutes {
            guard passageOpen(atUTC: start - 60) else { return start }
            start -= 60
        }
        return 0
    }

    static func floorToMinute(_ seconds: Int64) -> Int64 {
        seconds >= 0 ? seconds / 60 * 60 : (seconds - 59) / 60 * 60
    }
}
