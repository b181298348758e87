extension Step {
    /// Door contact. Opening while locked outside the exemption window is forced; open for
    /// `heldOpenSeconds` raises held-open once (at the tick), cleared when it closes.
    mutating func handleDoor(open: Bool) {
        let previous = state.door.isOpen
        state.door.isOpen = open
        guard let previous else {
            // First report since start: a state, not an edge — no forced-open alarm.
            if open {
                if state.lock != .passage { state.door.heldOpenDeadline = clock + config.heldOpenSeconds }
                event("door-opened", ["initial": "true"])
            }
            return
        }
        guard previous != open else { return }
        open ? doorOpened() : doorClosed()
    }

    private mutating func doorOpened() {
        // Passage means people come and go: an open door is no alarm until passage ends.
        if state.lock != .passage { state.door.heldOpenDeadline = clock + config.heldOpenSeconds }
        state.door.heldOpenAlarmed = false
        event("door-opened")
        audit("door-opened", "door opened")
        if state.lock.isUnlocked {
            state.door.openedWhileUnlocked = true
            return
        }
        if let exempt = state.door.forcedOpenExemptUntil, clock < exempt {
            return
        }
        emit(.alarm(.forcedOpen))
        event("door-forced")
        audit("door-forced", "door opened while locked")
    }

    private mutating func doorClosed() {
        state.door.heldOpenDeadline = nil
        event("door-closed")
        audit("door-closed", "door closed")
        if state.door.heldOpenAlarmed {
            state.door.heldOpenAlarmed = false
            emit(.alarmCleared(.heldOpen))
            event("door-held-open-cleared")
        }
        if config.mode == .door && config.relockOnDoorClose && state.door.openedWhileUnlocked {
            relock(cause: "door-closed")
        }
        state.door.openedWhileUnlocked = false
    }

    /// Request to exit: always opens (egress is a safety matter, not an authentication).
    mutating func handleExitButton() {
        event("exit-request")
        audit("exit-request", "exit button pressed")
        unlock(.exitButton, user: nil)
    }
}
