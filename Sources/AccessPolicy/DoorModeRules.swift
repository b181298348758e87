/// Door modes (see `DoorMode`): the command that sets one, and passage holding the door open
/// and letting it go at the schedule's boundaries.
///
/// Who may change the mode: a local request (the control socket, whose peer the runtime
/// checked) always; a remote one (MQTT) only with `isAdmin`, which the runtime sets after it
/// checked an admin's name and PIN through `.pinEntered(purpose: .adminCommand)` (so a wrong
/// one counts toward the PIN lockout like every other PIN).
extension Step {
    mutating func handleSetDoorMode(_ mode: DoorMode, source: RequestSource, by who: String?, isAdmin: Bool) {
        // Tightening needs no admin (locking is the direction a door fails to); loosening from
        // afar does.
        if source.isRemote && !isAdmin && !DoorMode.tightens(from: state.doorMode, to: mode) {
            deny(.remoteNotAllowed(.adminRequired), user: who, source: source)
            return
        }
        let old = state.doorMode
        guard mode != old else { return }
        state.storedDoorMode = mode == .normal ? nil : mode
        state.firstPersonWindow = nil
        state.firstPersonUser = nil
        var detail = "door mode \(old.rawValue) -> \(mode.rawValue), set by \(who ?? "an unnamed requester")"
        if case .remote(let client) = source { detail += " from Home Assistant, over MQTT client \(client)" }
        modeChange = ModeChange(cause: "command", by: who, detail: detail)
    }

    /// Whether passage should hold the door open now.
    var passageDue: Bool {
        switch state.doorMode {
        case .normal, .lockdown: return false
        case .passage: return access?.passageOpen(atUTC: wallSeconds) ?? true
        case .firstPersonIn:
            // Before the first person nothing is due, and the window's start need not be sought.
            guard let started = state.firstPersonWindow, let window = currentPassageWindow else { return false }
            return started == window
        }
    }

    var wallSeconds: Int64 { Int64(now.wall.rounded(.down)) }

    /// The key of the passage window open now (nil: closed).
    var currentPassageWindow: Int64? {
        guard let access else { return 0 }
        return access.passageWindowStart(containingUTC: wallSeconds)
    }

    /// First-person-in: a credential grant inside a window no one opened yet starts passage.
    /// Called only for users every rule admitted.
    mutating func admitFirstPerson(_ user: String) {
        guard state.doorMode == .firstPersonIn, let window = currentPassageWindow,
              state.firstPersonWindow != window else { return }
        state.firstPersonWindow = window
        state.firstPersonUser = user
        modeChange = ModeChange(cause: "first-person-in", by: user,
                                detail: "passage started by the first person in, \(user)")
    }

    /// Holds or lets go to match the mode and the schedule, then reports a change of either
    /// as one `door-mode` event and audit row. Runs after every event, so a tick at a boundary,
    /// a restart and a command all land here.
    mutating func settlePassage() {
        let due = passageDue
        let holding = state.lock == .passage
        var change = modeChange
        if due != holding {
            if due { holdForPassage() } else { endPassage() }
            if change == nil {
                let name = access?.passageName ?? "passage"
                let cause = handledStart ? "started" : "schedule"
                change = ModeChange(cause: cause, by: nil, detail: due
                    ? "passage \(handledStart ? "resumed after a restart" : "began by the schedule \"\(name)\"")"
                    : "passage ended by the schedule \"\(name)\"")
            }
        }
        modeChange = nil
        guard let change else { return }
        let passage = state.lock == .passage
        event("door-mode", ["mode": state.doorMode.rawValue, "cause": change.cause, "passage": passage ? "on" : "off"])
        audit("door-mode", user: change.by, change.detail + (passage ? "; door held open" : ""))
    }

    /// The runtime could not take the use of the grant that started first-person passage: the
    /// passage it started is withdrawn with it (the runtime skipped the hold, so `.lock` is safe).
    /// Grants while passage holds take no use, so a refusal can only be that very grant's.
    mutating func withdrawFirstPerson(_ user: String) {
        guard state.lock == .passage, state.doorMode == .firstPersonIn, state.firstPersonUser == user else { return }
        state.firstPersonWindow = nil
        state.firstPersonUser = nil
        endPassage()
        modeChange = ModeChange(cause: "use-refused", by: user,
                                detail: "first-person passage withdrawn: \(user) had no use left")
    }

    /// Holds the strike released: no pulse, the runtime holds the relay until `.lock`.
    mutating func holdForPassage() {
        state.lock = .passage
        state.door.heldOpenDeadline = nil
        emit(.unlock(.passage, user: nil, until: nil))
        event("unlocked", ["reason": UnlockReason.passage.rawValue])
    }

    private mutating func endPassage() {
        state.lock = .locked
        state.door.forcedOpenExemptUntil = clock + config.forcedOpenExemptSeconds
        state.door.openedWhileUnlocked = false
        // A door left open when passage ends is held open from now on.
        if state.door.isOpen == true { state.door.heldOpenDeadline = clock + config.heldOpenSeconds }
        emit(.lock)
        emit(.led(.idle))
        event("locked", ["cause": "passage-ended"])
    }
}

/// A mode change waiting to be reported at the end of the step.
struct ModeChange {
    var cause: String
    var by: String?
    var detail: String
}
