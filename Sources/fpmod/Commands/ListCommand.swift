import ArgumentParsing
import Foundation

/// `fpmod list`: users and their fingers, from the store (no module needed).
enum ListCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let store = try invocation.openStore()
        let users = try store.users()
        let fingers = try store.allFingers()
        var lines: [String] = []
        var json: [JSONValue] = []
        for user in users {
            let own = fingers.filter { $0.user == user.name }
            let flags = [user.role == .admin ? "admin" : nil, user.fingerprintUnlock ? "unlock on" : "unlock off",
                         user.hasPIN ? "PIN" : nil].compactMap { $0 }
            lines.append("\(user.name) (\(user.displayName)) [\(flags.joined(separator: ", "))]")
            for finger in own { lines.append("  - \(finger.label): slot \(finger.slot)") }
            json.append(["name": .string(user.name), "displayName": .string(user.displayName),
                         "role": .string(user.role.rawValue), "fingerprintUnlock": .bool(user.fingerprintUnlock),
                         "hasPIN": .bool(user.hasPIN),
                         "fingers": .array(own.map { ["label": .string($0.label), "slot": .int(Int64($0.slot))] })])
        }
        if users.isEmpty { lines.append("Nobody is enrolled yet.") }
        invocation.emit(lines.joined(separator: "\n"), json: ["users": .array(json)])
        return .ok
    }
}
