import AccessPolicy
import DoorLock
import PrintableText

extension Invocation {
    /// The zone schedules, validity and reports are read in: the config's `access.timeZone`,
    /// else the machine's own. Read once per command (it loads the config and tzdata).
    var doorTimeZone: TimeZoneRules { configFile?.doorTimeZone ?? TimeZoneDatabase.system() }

    /// The door this store serves (the config's `access.door`); a `--door` naming another is a
    /// usage error, since one store serves one door.
    func servedDoor() throws -> String {
        let door = configFile?.access.door ?? "door"
        if let asked = parsed.string("door"), asked != door {
            throw CommandFailure(.usage, "This store serves the door \"\(Printable.escaped(door))\" (the config's access.door), not \"\(Printable.escaped(asked))\"; leave --door out or name that door.")
        }
        return door
    }
}
