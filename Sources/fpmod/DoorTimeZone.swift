import AccessPolicy
import DoorLock

extension Invocation {
    /// The zone schedules, validity and reports are read in: the config's `access.timeZone`,
    /// else the machine's own.
    var doorTimeZone: TimeZoneRules { configFile?.doorTimeZone ?? TimeZoneDatabase.system() }

    /// `2026-12-07 00:00 Europe/Berlin`: a moment as the door's clock shows it.
    func onDoorClock(_ utcSeconds: Int64) -> String {
        let zone = doorTimeZone
        return "\(zone.localTime(atUTC: utcSeconds)) \(zone.name)"
    }
}
