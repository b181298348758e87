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
        ] + (reply["reader"]?.stringValue.map { ["Reader:      \($0)"] } ?? []) + [
            "Fingerprint: \(lockoutText) (\(reply["failures"]?.intValue ?? 0) failures in a row)",
            "PIN:         \(reply["pinFailures"]?.intValue ?? 0) wrong in a row" + (pinRequired.isEmpty ? "" : "; required: \(pinRequired)")
                + (reply["pinOnly"]?.stringValue.map { "; PIN only: \($0)" } ?? ""),
            "Tamper:      \(reply["tamper"]?.boolValue == true ? "ACTIVE" : "quiet")",
            "Events:      \(reply["events"]?.intValue ?? 0) since start",
            // An image sensor's library is searched whole, in memory: there is no order to plan.
            "Search:      \(reply["readerKind"]?.stringValue == "image-sensor" ? "the whole host library, in memory" : searchText(reply["search"]))",
        ] + (reply["configWarnings"]?.arrayValue ?? []).compactMap(\.stringValue).map { "Warning:     \($0)" })
            .joined(separator: "\n")
    }

    /// `regulars-first: 20 regulars answer 81 % of the last 500 touches; …` or `whole (…)`.
    static func searchText(_ search: JSONValue?) -> String {
        guard let search, let order = search["order"]?.stringValue else { return "not planned yet (the module has not opened)" }
        let since = search["historySince"]?.stringValue.map { " since \($0)" } ?? ""
        var text = "\(order): \(search["reason"]?.stringValue ?? "")"
        text += "; hot set \(search["hotSetSize"]?.intValue ?? 0), history \(search["historyTouches"]?.intValue ?? 0) touches\(since)"
        func number(_ value: JSONValue?) -> Double? {
            switch value {
            case .int(let n)?: Double(n)
            case .double(let n)?: n
            default: nil
            }
        }
        if let expected = number(search["expectedSearchMs"]), let whole = number(search["wholeSearchMs"]) {
            text += String(format: "; search %.0f ms expected (whole %.0f ms)", expected, whole)
        }
        let pending = search["layoutMovesPending"]?.intValue ?? 0
        text += "; \(pending) move\(pending == 1 ? "" : "s") pending, \(search["flashWritesToday"]?.intValue ?? 0)/"
            + "\(search["maxFlashWritesPerDay"]?.intValue ?? 0) flash writes today"
        return text
    }
}
