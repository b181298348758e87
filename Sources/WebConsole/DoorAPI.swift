import AccessPolicy
import ConsoleHTTP
import DoctorRun
import Diagnostics
import DoorLock
import Foundation
import JSONValue
import ReaderSessions
import ServiceClient

/// `/api/v1/status`, `/events`, `/health` and `/door/mode`: the door as the service sees it.
struct DoorAPI {
    let context: ConsoleContext

    func status() throws(ConsoleFailure) -> HTTPResponse {
        guard let service = try context.serviceConnection() else {
            return Reply.json(["service": "stopped", "door": .null])
        }
        do {
            var door = try service.send(.status, lineTimeout: .seconds(5))
            door["ok"] = nil
            // The console's pages have no use for the service's pid and paths; they are the server's business.
            door["pid"] = nil
            door["store"] = nil
            return Reply.json(["service": "running", "door": .object(door)])
        } catch {
            throw ConsoleFailure(502, "The service did not answer: \(error.description)")
        }
    }

    /// The door's events while the session lasts (`stillAllowed`, asked every 15 s).
    func events(stillAllowed: (@Sendable () -> Bool)?) -> HTTPResponse {
        .eventStream(EventSocketStream(eventsSocket: context.eventsSocket, stillAllowed: stillAllowed))
    }

    /// `fpmod doctor`'s checks of this machine and the store, without talking to the module (the
    /// service owns the port; its own status says whether the module answers).
    func health() -> HTTPResponse {
        var options = ReaderOptions()
        options.config = context.config
        options.storeDatabase = context.store.databasePath
        options.storeKey = context.store.keyPath
        let checks = Doctor.examine(Doctor.Request(reader: options, port: nil))
        return Reply.json(["checks": .array(checks.map { check in
            let verdict: String = switch check.verdict {
            case .ok: "ok"
            case .warning: "warn"
            case .problem: "fail"
            case .skipped: "skip"
            }
            return ["name": .string(check.title), "id": .string(check.id), "verdict": .string(verdict), "detail": .string(check.seen),
                    "fix": JSONValue(check.fix)]
        })])
    }

    func setMode(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let text = try JSONBody(request).string("mode")
        guard let mode = DoorMode(rawValue: text) else {
            throw ConsoleFailure.badRequest("\"\(text)\" is not a door mode.", fix: "Use one of " + DoorMode.allCases.map(\.rawValue).joined(separator: ", ") + ".")
        }
        let reply = try context.ask(.doorMode(mode), for: "changing the door mode")
        guard reply["ok"]?.boolValue == true else {
            throw ConsoleFailure(409, reply["error"]?.stringValue ?? "The service refused the door mode.")
        }
        caller.audit(context.store, "door mode \(mode.rawValue)")
        return try status()
    }
}
