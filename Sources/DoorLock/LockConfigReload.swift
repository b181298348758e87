extension LockConfig {
    /// What a reload (SIGHUP) cannot change in a running service, by section: the lines, the
    /// module link, the sockets, the readers at the door and the console keep what they started
    /// with. The service says it when it reloads; the console's settings page says it on save.
    public func restartNeeded(toApply fresh: LockConfig) -> [String] {
        var restart: [String] = []
        if fresh.board != board || fresh.gpio != gpio || fresh.touchActiveLow != touchActiveLow { restart.append("gpio") }
        if fresh.serialPort != serialPort || fresh.baudRate != baudRate || fresh.address != address
            || fresh.password != password || fresh.family != family { restart.append("module") }
        if fresh.eventsSocket != eventsSocket || fresh.controlSocket != controlSocket { restart.append("sockets") }
        if fresh.keypad != keypad { restart.append("keypad") }
        if fresh.wiegand != wiegand { restart.append("wiegand") }
        if fresh.wiegandOut != wiegandOut { restart.append("wiegandOut") }
        if fresh.nfc != nfc { restart.append("nfc") }
        if fresh.console != console { restart.append("console") }
        return restart
    }
}
