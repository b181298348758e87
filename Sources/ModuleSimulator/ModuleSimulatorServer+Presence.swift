import Synchronization

/// Hooks for a host that simulates more than the module: `fpmod run --sim --sim-gpio` drives
/// its memory touch line from the sensor, and takes GPIO input lines (exit button, door
/// contact, tamper) on the same control socket as the simulator verbs.
extension ModuleSimulatorServer {
    /// `body` hears every change of "a finger is on the sensor" (place, lift, a touch script's
    /// press and lift), on the thread that made it, outside the simulator's lock. It is
    /// called once at once with the current state.
    public func observeFingerPresence(_ body: @escaping @Sendable (Bool) -> Void) {
        hooks.withLock { $0.presence = body }
        let present = core.withLock { core -> Bool in
            core.reportedPresence = core.module.sensor.fingerPresent
            return core.reportedPresence!
        }
        body(present)
    }

    /// Lines the simulator does not know go to `handler` before they are refused; it returns
    /// the reply, or nil for "not mine either". `usage` is added to the refusal of unknown lines.
    public func acceptExtraCommands(usage: String, _ handler: @escaping @Sendable (String) -> String?) {
        hooks.withLock {
            $0.extraCommands = handler
            $0.extraUsage = usage
        }
    }

    struct Hooks: Sendable {
        var presence: (@Sendable (Bool) -> Void)?
        var extraCommands: (@Sendable (String) -> String?)?
        var extraUsage: String?
    }

    /// Inside the lock: the new presence when it changed since last reported.
    func presenceChangeLocked(_ core: inout Core) -> Bool? {
        guard let reported = core.reportedPresence else { return nil }
        let present = core.module.sensor.fingerPresent
        guard present != reported else { return nil }
        core.reportedPresence = present
        return present
    }

    /// Outside the lock: tells the observer.
    func announcePresence(_ change: Bool?) {
        guard let change, let observer = hooks.withLock({ $0.presence }) else { return }
        observer(change)
    }

    /// The extra handler's reply, else `refusal` with the extra usage added.
    func extraCommandReply(_ line: String, refusal: String) -> String {
        let (handler, usage) = hooks.withLock { ($0.extraCommands, $0.extraUsage) }
        if let reply = handler?(line) { return reply }
        return refusal + (usage.map { "; " + $0 } ?? "")
    }
}
