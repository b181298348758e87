import AccessPolicy
import ArgumentParsing
import PrintableText
import ServiceClient

/// `fpmod status`: the running service's state, from its control socket (exit 69 without one).
enum StatusCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let service = try ServiceConnection.require(invocation.serviceAddress())
        let reply = try service.send(.status, lineTimeout: .seconds(10))
        try ServiceConnection.check(reply)
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
        case "none": "not locked out"
        default: lockout
        }
        // The reply names reasons by key (`enrolledSetChanged`, for scripts); people read why.
        let pinRequired = (reply["pinRequired"]?.arrayValue ?? []).compactMap(\.stringValue)
            .map { PinRequiredReason(rawValue: $0)?.description ?? $0 }.joined(separator: "; ")
        // Built line by line: one big literal is more than Swift 6.0's type checker will take.
        let relay = reply["relay"]?.boolValue == true ? "on" : "off"
        let scanning = reply["scanInFlight"]?.boolValue == true ? ", scanning" : ""
        var pinText = "\(reply["pinFailures"]?.intValue ?? 0) wrong in a row"
        if !pinRequired.isEmpty { pinText += "; required because \(pinRequired)" }
        if let pinOnly = reply["pinOnly"]?.stringValue { pinText += "; PIN only: \(pinOnly)" }
        // An image sensor's library is searched whole, in memory: there is no order to plan.
        let search = reply["readerKind"]?.stringValue == "image-sensor" ? "the whole host library, in memory" : searchText(reply["search"])
        var lines: [String] = []
        lines.append("Service:     running (control \(socket))")
        lines.append("Lock:        \(locked ? "locked" : "unlocked"), relay \(relay), door \(reply["door"]?.stringValue ?? "unknown")")
        // The status field is still called "module" (scripts read it); the label says what is there.
        let device = reply["readerKind"]?.stringValue == "image-sensor" ? "Sensor:     " : "Module:     "
        lines.append("\(device) \(reply["module"]?.stringValue ?? "unknown")\(scanning)")
        if let reader = reply["reader"]?.stringValue { lines.append("Reader:      \(reader)") }
        lines.append("Fingerprint: \(lockoutText) (\(reply["failures"]?.intValue ?? 0) failures in a row)")
        lines.append("PIN:         \(pinText)")
        lines.append("Tamper:      \(reply["tamper"]?.boolValue == true ? "ACTIVE" : "quiet")")
        lines.append("Events:      \(reply["events"]?.intValue ?? 0) since start")
        if let records = reply["records"]?.stringValue, records != "ok" {
            let lost = reply["recordsLost"]?.intValue ?? 0
            lines.append("Records:     \(records); \(reply["recordsWaiting"]?.intValue ?? 0) waiting in memory"
                         + (lost > 0 ? ", \(lost) not kept" : "") + " (the door keeps deciding)")
        }
        lines.append("Search:      \(search)")
        for warning in (reply["configWarnings"]?.arrayValue ?? []).compactMap(\.stringValue) { lines.append("Warning:     \(warning)") }
        // One line each, whatever the service's strings hold (a module's model, a config path).
        return lines.map { Printable.escaped($0) }.joined(separator: "\n")
    }

    /// `regulars-first: 20 regulars answer 81 % of the last 500 touches; …` or `whole (…)`.
    static func searchText(_ search: JSONValue?) -> String {
        guard let search, let order = search["order"]?.stringValue else { return "not planned yet (the module has not opened)" }
        let since = search["historySince"]?.stringValue.map { " since \($0)" } ?? ""
        var text = "\(order): \(search["reason"]?.stringValue ?? "")"
        text += "; hot set \(search["hotSetSize"]?.intValue ?? 0), history \(search["historyTouches"]?.intValue ?? 0) touches\(since)"
        if let expected = search["expectedSearchMs"]?.numberValue, let whole = search["wholeSearchMs"]?.numberValue {
            text += String(format: "; search %.0f ms expected (whole %.0f ms)", expected, whole)
        }
        let pending = search["layoutMovesPending"]?.intValue ?? 0
        text += "; \(pending) move\(pending == 1 ? "" : "s") pending, \(search["flashWritesToday"]?.intValue ?? 0)/"
            + "\(search["maxFlashWritesPerDay"]?.intValue ?? 0) flash writes today"
        return text
    }
}
