/// Why the policy refuses a remote request before looking at its code.
public enum RemoteRefusal: String, Codable, Equatable, Sendable, CustomStringConvertible {
    /// The enclosure was opened or the module is not the paired one (PIN-only mode).
    case tamper
    /// Fingerprints are disabled after too many failures: someone is trying at the door.
    case permanentLockout
    /// A mode change or a lockdown opening that needs an admin's PIN.
    case adminRequired = "admin-required"

    public var description: String {
        switch self {
        case .tamper:
            "the lock is in PIN-only mode after tamper; only a PIN at the door works until an admin inspects it and clears it there"
        case .permanentLockout:
            "fingerprints are locked out permanently after repeated failures; an admin must clear it at the door or as root on the machine"
        case .adminRequired:
            "this needs an admin's name and PIN"
        }
    }
}

/// Requests that arrive over the network (Home Assistant over MQTT). Whoever sends them is not
/// at the door, and MQTT does not say who it is, so the policy gives them less than a PIN
/// typed at the keypad:
/// - nothing during tamper (PIN-only mode or an open enclosure), and no unlock or clear during
///   a permanent fingerprint lockout: those states mean someone is attacking the door now;
/// - a correct code opens (reason `remote`) and resets the PIN counter, but clears no
///   fingerprint lockout, no "PIN required" reason and no PIN-only mode: those ask for
///   someone at the door;
/// - a remote clear ends a timed fingerprint lockout only;
/// - a wrong code counts toward the same PIN lockout as the keypad (`handlePin`).
extension Step {
    func remoteRefusal(purpose: PinPurpose) -> DenyReason? {
        if state.pinOnly != nil || state.tamperSwitchActive { return .remoteNotAllowed(.tamper) }
        if purpose != .adminCommand && state.fingerprintFailures.permanent { return .remoteNotAllowed(.permanentLockout) }
        return nil
    }

    /// A correct remote code (already checked against `remoteRefusal` and the PIN lockout).
    mutating func handleRemotePin(user: String?, isAdmin: Bool, purpose: PinPurpose, client: String) {
        state.pinFailures.reset()
        let owner = user.map { "\($0)'s" } ?? "a"
        switch purpose {
        case .unlock, .adminUnlock:
            if refusedAtGrant(user, isAdmin: isAdmin, source: .remote(client: client)) { return }
            emit(.led(.match))
            emit(.buzzer(.accept))
            var fields = ["source": "remote"]
            if let user { fields["user"] = user }
            event("pin-ok", fields)
            audit("remote-unlock", user: user,
                  "unlock from Home Assistant with \(owner) \(isAdmin ? "admin " : "")PIN, over MQTT client \(client)")
            unlock(.remote, user: user)
        case .adminClear:
            clearFingerprintLockout(cause: "a remote admin (\(user ?? "admin PIN"))")
            event("admin-clear", ["source": "remote"])
            audit("admin-clear", user: user, "timed lockout cleared from Home Assistant with \(owner) admin PIN, over MQTT client \(client)")
        case .adminCommand:
            audit("admin-verified", user: user, "admin PIN accepted for a command from Home Assistant, over MQTT client \(client)")
        }
    }

    /// `LOCK`: ends the unlock window now (and the grace window, so the last match cannot be
    /// reused). Nothing happens when already locked.
    mutating func handleLockRequest(source: RequestSource) {
        endGrace()
        if state.lock == .passage {
            // Locking against the mode would be undone at the next event: the mode is the switch.
            audit("lock-ignored", "LOCK ignored: passage holds the door open; set the door mode to normal to lock it")
            return
        }
        guard state.lock.isUnlocked else { return }
        let from: String
        switch source {
        case .remote(let client): from = "from Home Assistant, over MQTT client \(client)"
        case .local: from = "on request"
        }
        relock(cause: source.isRemote ? "remote" : "request")
        audit("locked", "locked \(from) before the end of the unlock window")
    }
}
