import ConsoleHTTP
import DoorLock
import Foundation
import JSONValue

/// The kiosk lock screen's three calls, on the loopback listener without a login: what to show,
/// a PIN attempt (counted by the policy's own PIN lockout, like any keypad), and the door's
/// events reduced to their names (who came in is not the screen's to show).
struct LockScreenAPI {
    let context: ConsoleContext

    func state() -> HTTPResponse {
        Reply.json(.object(currentState()))
    }

    func currentState(message: String? = nil) -> [String: JSONValue] {
        var state: [String: JSONValue] = ["idleRelockSeconds": .int(Int64(context.config.policy.backgroundTimeoutSeconds.rounded(.up))),
                                          "retryInSeconds": .null, "message": JSONValue(message)]
        guard let service = try? context.serviceConnection(), let status = try? service.send(.status, lineTimeout: .seconds(5)) else {
            state["screen"] = "touch"
            state["message"] = .string(message ?? "The lock is not running; only the door's own readers may work.")
            state["available"] = false
            return state
        }
        state["available"] = true
        // A PIN lockout shows first: during it the screen has nothing to offer but the wait.
        if status["pinLockout"]?.stringValue == "timed" {
            state["screen"] = "locked-out"
            state["retryInSeconds"] = .int(Int64((status["pinLockoutRemainingSeconds"]?.numberValue ?? 1).rounded(.up)))
            return state
        }
        if status["pinLockout"]?.stringValue == "permanent" {
            state["screen"] = "locked-out"
            state["message"] = .string(message ?? "Too many wrong PINs: an admin has to clear the lock.")
            return state
        }
        switch status["fingerprintLockout"]?.stringValue {
        case "timed":
            state["screen"] = "locked-out"
            state["retryInSeconds"] = .int(Int64((status["lockoutRemainingSeconds"]?.numberValue ?? 1).rounded(.up)))
        case "permanent":
            state["screen"] = "pin-required"
        default:
            if status["pinOnly"]?.stringValue != nil { state["screen"] = "pin-required" } else if status["locked"]?.boolValue == false {
                state["screen"] = "open"
            } else {
                state["screen"] = "touch"
            }
        }
        return state
    }

    func pin(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        let pin = try JSONBody(request).string("pin")
        guard (4...12).contains(pin.count), pin.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ConsoleFailure.badRequest("A PIN is 4 to 12 digits.")
        }
        let reply = try context.ask(.pin(user: nil, pin: pin), for: "a PIN")
        let result = reply["ok"]?.boolValue == true ? reply["result"]?.stringValue : nil
        let granted = result == "unlocked"
        let message = switch result {
        case "unlocked": "Unlocked."
        case "factor-needed": "PIN accepted. Now touch the sensor."
        case .some: "PIN accepted: the fingerprint works again."
        case nil: reply["reason"]?.stringValue ?? reply["error"]?.stringValue ?? "Not accepted."
        }
        var state = currentState(message: message)
        state["granted"] = .bool(granted)
        return Reply.json(.object(state))
    }

    func events() -> HTTPResponse {
        .eventStream(NamesOnlyStream(EventSocketStream(eventsSocket: context.eventsSocket)))
    }
}

/// The door's events with everything but their name and time taken out.
final class NamesOnlyStream: HTTPBodyStream, @unchecked Sendable {
    private let inner: EventSocketStream
    init(_ inner: EventSocketStream) { self.inner = inner }

    func next(deadline: ContinuousClock.Instant) -> [UInt8]? {
        guard let bytes = inner.next(deadline: deadline) else { return nil }
        guard let text = String(bytes: bytes, encoding: .utf8), text.hasPrefix("event: door\n") else { return bytes }
        var out = ""
        for line in text.split(separator: "\n") where line.hasPrefix("data: ") {
            guard case .object(let event)? = try? JSONValue(parsing: String(line.dropFirst(6))) else { continue }
            let reduced: JSONValue = ["event": event["event"] ?? .null, "time": event["time"] ?? .null]
            out += EventSocketStream.event("door", reduced.encoded)
        }
        return Array(out.utf8)
    }

    func close() { inner.close() }
}
