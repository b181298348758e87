import ArgumentParsing

/// `fpmod status`: the running service's state, from its control socket (exit 69 without one).
enum StatusCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let service = try ServiceControl.require(invocation)
        let reply = try service.send(.status, lineTimeout: .seconds(10))
        try ServiceControl.check(reply)
        var object = reply
        object["ok"] = nil
        object["controlSocket"] = service.path
        invocation.emit(text(reply, socket: service.path), json: ReplyJSON.value(object))
        return .ok
    }

    static func text(_ reply: [String: Any], socket: String) -> String {
        let locked = reply["locked"] as? Bool ?? true
        let lockout = reply["fingerprintLockout"] as? String ?? "unknown"
        let lockoutText = switch lockout {
        case "timed": "locked out for \(reply["lockoutRemainingSeconds"] as? Int ?? 0) s more"
        case "permanent": "disabled until a PIN or an admin clears it"
        default: lockout
        }
        let pinRequired = (reply["pinRequired"] as? [String] ?? []).joined(separator: ", ")
        return [
            "Service:     running (control \(socket))",
            "Lock:        \(locked ? "locked" : "unlocked"), relay \(reply["relay"] as? Bool == true ? "on" : "off"), door \(reply["door"] as? String ?? "unknown")",
            "Module:      \(reply["module"] as? String ?? "unknown")\(reply["scanInFlight"] as? Bool == true ? ", scanning" : "")",
            "Fingerprint: \(lockoutText) (\(reply["failures"] as? Int ?? 0) failures in a row)",
            "PIN:         \(reply["pinFailures"] as? Int ?? 0) wrong in a row" + (pinRequired.isEmpty ? "" : "; required: \(pinRequired)")
                + ((reply["pinOnly"] as? String).map { "; PIN only: \($0)" } ?? ""),
            "Tamper:      \(reply["tamper"] as? Bool == true ? "ACTIVE" : "quiet")",
            "Events:      \(reply["events"] as? Int ?? 0) since start",
        ].joined(separator: "\n")
    }
}
