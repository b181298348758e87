extension Step {
    /// The enclosure switch: opening it locks at once and enters PIN-only mode until an
    /// admin clears it; closing it clears the alarm but not the mode.
    mutating func handleTamperSwitch(active: Bool) {
        guard active != state.tamperSwitchActive else { return }
        state.tamperSwitchActive = active
        if active {
            enterPinOnly(.tamperSwitch)
            emit(.alarm(.tamper))
            event("tamper", ["source": "switch"])
            audit("tamper", "tamper switch opened; PIN-only mode until an admin clears it")
        } else {
            emit(.alarmCleared(.tamper))
            event("tamper-cleared", ["source": "switch"])
            audit("tamper-cleared", "tamper switch closed; PIN-only mode stays until an admin clears it")
        }
    }

    mutating func handleModuleTamper(_ reason: ModuleTamperReason) {
        enterPinOnly(.moduleTamper(reason))
        emit(.alarm(.moduleTamper))
        event("tamper", ["source": "module", "reason": reason.description])
        audit("tamper", "\(reason.description); PIN-only mode until an admin clears it")
    }

    /// Keeps the first reason (what started it); locks now and forgets the grace window.
    private mutating func enterPinOnly(_ reason: PinOnlyReason) {
        if state.pinOnly == nil {
            state.pinOnly = reason
        }
        endGrace()
        relock(cause: "tamper")
        emit(.led(.lockout))
    }

    /// Reported only; the door stays locked either way (fail secure).
    mutating func handleModuleConnection(connected: Bool) {
        guard connected != state.moduleConnected else { return }
        state.moduleConnected = connected
        event(connected ? "reconnected" : "disconnected")
        audit(connected ? "reconnected" : "disconnected",
              connected ? "fingerprint module answering again" : "fingerprint module not answering; PIN still works")
    }
}
