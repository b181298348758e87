import Administration
import ArgumentParsing
import Foundation
import PrintableText
import ServiceClient

/// `fpmod list`: users and their fingers, from the store (no module needed) — or from the
/// running service, whose store it is.
enum ListCommand {
    /// One user as both outputs show it.
    struct Row {
        var name: String
        var displayName: String
        var role: String
        var fingerprintUnlock: Bool
        var hasPIN: Bool
        var fingers: [(label: String, slot: Int, duress: Bool)]
        /// Slots whose template the last module seen cannot use (see `TemplateFitness`).
        var unusable: Set<Int> = []
    }

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let rows: [Row]
        var unusableNote: String?
        if let service = try ServiceConnection.connectIfRunning(invocation.serviceAddress()) {
            let reply = try service.send(.list)
            try ServiceConnection.check(reply)
            rows = (reply["users"]?.arrayValue ?? []).map { user in
                Row(name: user["name"]?.stringValue ?? "?", displayName: user["displayName"]?.stringValue ?? user["name"]?.stringValue ?? "?",
                    role: user["role"]?.stringValue ?? "user", fingerprintUnlock: user["fingerprintUnlock"]?.boolValue ?? true,
                    hasPIN: user["hasPIN"]?.boolValue ?? false,
                    fingers: (user["fingers"]?.arrayValue ?? []).map {
                        ($0["label"]?.stringValue ?? "?", $0["slot"]?.intValue ?? -1, $0["duress"]?.boolValue ?? false)
                    })
            }
        } else {
            let store = try invocation.openStoreForReading()
            let fingers = try store.allFingers()
            let unusable = try TemplateFitness.unusableSlots(store)
            rows = try store.users().map { user in
                Row(name: user.name, displayName: user.displayName, role: user.role.rawValue,
                    fingerprintUnlock: user.fingerprintUnlock, hasPIN: user.hasPIN,
                    fingers: fingers.filter { $0.user == user.name }.map { ($0.label, $0.slot, $0.isDuress) },
                    unusable: unusable.slots)
            }
            unusableNote = unusable.note
        }
        var lines: [String] = []
        for user in rows {
            let flags = [user.role == "admin" ? "admin" : nil, user.fingerprintUnlock ? "unlock on" : "unlock off",
                         user.hasPIN ? "PIN" : nil].compactMap { $0 }
            // Names, display names and labels as stored: an older store (or one edited by hand)
            // may hold a control character, shown escaped rather than sent to the terminal.
            lines.append("\(Printable.escaped(user.name)) (\(Printable.escaped(user.displayName))) [\(flags.joined(separator: ", "))]")
            for finger in user.fingers {
                lines.append("  - \(Printable.escaped(finger.label)): slot \(finger.slot)\(finger.duress ? " (duress)" : "")"
                             + (user.unusable.contains(finger.slot) ? " ✘ unusable on this module: re-enroll" : ""))
            }
        }
        if rows.isEmpty { lines.append("Nobody is enrolled yet.") }
        if let unusableNote { lines.append(unusableNote) }
        let json: [JSONValue] = rows.map { user in
            ["name": .string(user.name), "displayName": .string(user.displayName), "role": .string(user.role),
             "fingerprintUnlock": .bool(user.fingerprintUnlock), "hasPIN": .bool(user.hasPIN),
             "fingers": .array(user.fingers.map { ["label": .string($0.label), "slot": .int(Int64($0.slot)), "duress": .bool($0.duress),
                                                  "usable": .bool(!user.unusable.contains($0.slot))] })]
        }
        invocation.emit(lines.joined(separator: "\n"), json: ["users": .array(json)])
        return .ok
    }
}
