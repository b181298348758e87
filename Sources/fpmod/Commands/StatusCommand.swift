import ArgumentParsing

/// `fpmod status`: the running service's state, from its control socket (exit 69 without one).
enum StatusCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let service = try ServiceControl.require(invocation)
        let reply = try service.send(.status, lineTimeout: .seconds(10))
        try ServiceControl.check(reply)
        var object = reply
        object["ok"] = nil
        object["controlSocket"] = .string(service.path)
        invocation.emit(text(reply, socket: service.path), json: .object(object))
        return .ok
    }

    static func text(_ reply: [String: JSONValue], socket: String) -> String {
        let locked = reply["locked"]?.boolValue ?? true
        let lockout = reply["fingerprintLockout"]?.stringValue ?? "unknown"
        let lockoutText = switch lockout {
        case "timed": "locked out for \(reply["lockoutRemainingSeconds"]?.intValue ?? 0) s more"
        case "permanent": "disabled until a PIN or an admin clears it"
        default: lockout
        }
        let pinRequired = (reply["pinRequired"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
        return ([
            "Service:     running (control \(socket))",
            "Lock:        \(locked ? "locked" : "unlocked"), relay \(reply["relay"]?.boolValue == true ? "on" : "off"), door \(reply["door"]?.stringValue ?? "unknown")",
            "Module:      \(reply["module"]?.stringValue ?? "unknown")\(reply["scanInFlight"]?.boolValue == true ? ", scanning" : "")",
            "Fingerprint: \(lockoutText) (\(reply["failures"]?.intValue ?? 0) failures in a row)",
            "PIN:         \(reply["pinFailures"]?.intValue ?? 0) wrong in a row" + (pinRequired.isEmpty ? "" : "; required: \(pinRequired)")
                + (reply["pinOnly"]?.stringValue.map { "; PIN only: \($0)" } ?? ""),
            "Tamper:      \(reply["tamper"]?.boolValue == true ? "ACTIVE" : "quiet")",
            "Events:      \(reply["events"]?.intValue ?? 0) since start",
        ] + (reply["configWarnings"]?.arrayValue ?? []).compactMap(\.stringValue).map { "Warning:     \($0)" })
            .joined(separator: "\n")
    }
}
