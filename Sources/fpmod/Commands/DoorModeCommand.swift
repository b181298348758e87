import AccessPolicy
import ArgumentParsing
import DoorLock
import JSONValue
import ServiceClient

/// `fpmod door mode [MODE]`: the running service's door mode (normal, passage, lockdown,
/// first-person-in), set through its control socket; the mode is the service's state (it
/// survives a restart), so there is nothing to set without it. No MODE: show it.
enum DoorModeCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        guard let service = try ServiceConnection.connectIfRunning(invocation.serviceAddress(), allowDirect: false) else {
            throw CommandFailure(.unavailable, "No fpmod service answers; the door mode is the running service's (start it: systemctl start fpmod, or fpmod run).")
        }
        let reply: [String: JSONValue]
        if let text = invocation.positional(0) {
            guard let mode = DoorMode(rawValue: text.lowercased()) else {
                throw CommandFailure(.usage, "\"\(text.prefix(40))\" is not a door mode; the modes are \(DoorMode.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            reply = try service.send(.doorMode(mode))
        } else {
            reply = try service.send(.status)
        }
        try ServiceConnection.check(reply)
        let mode = reply["mode"]?.stringValue ?? reply["doorMode"]?.stringValue ?? "normal"
        let passage = reply["passage"]?.boolValue == true
        invocation.emit("Door mode: \(mode)" + (passage ? " (passage holds the door open now)" : ""),
                        json: ["doorMode": .string(mode), "passage": .bool(passage)])
        return .ok
    }
}
