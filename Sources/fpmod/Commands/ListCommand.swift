import AccessPolicy
import Administration
import ArgumentParsing
import Foundation
import PrintableText
import ServiceClient

/// `fpmod list`: users and their fingers, from the store (no module needed) — or from the
/// running service, whose store it is (`RosterUser.roster`).
enum ListCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let (users, note) = try RosterUser.roster(invocation.serviceAddress()) { try invocation.openStoreForReading() }
        var lines: [String] = []
        let now = Int64(Date().timeIntervalSince1970)
        let zone = invocation.doorTimeZone
        for user in users {
            let flags = [user.role == "admin" ? "admin" : nil, user.fingerprintUnlock ? "unlock on" : "unlock off",
                         user.hasPIN ? "PIN" : nil].compactMap { $0 }
            // Names, display names and labels as stored: an older store (or one edited by hand)
            // may hold a control character, shown escaped rather than sent to the terminal.
            lines.append("\(Printable.escaped(user.name)) (\(Printable.escaped(user.displayName))) [\(flags.joined(separator: ", "))]")
            if !user.access.isEmpty {
                let standing = user.access.standing(atUTC: now).map { " — \($0.rawValue.uppercased())" } ?? ""
                lines.append("  access: \(Printable.escaped(AccessAdministration.describe(user.access, moment: zone.wallClockText(atUTC:))))\(standing)")
            }
            for finger in user.fingers {
                lines.append("  - \(Printable.escaped(finger.label)): slot \(finger.slot)\(finger.duress ? " (duress)" : "")"
                             + (finger.usable ? "" : " ✘ unusable on this module: re-enroll"))
            }
        }
        if users.isEmpty { lines.append("Nobody is enrolled yet.") }
        if let note { lines.append(note) }
        invocation.emit(lines.joined(separator: "\n"), json: ["users": .array(users.map { user in
            guard case .object(var object) = user.jsonValue else { return user.jsonValue }
            if let standing = user.access.standing(atUTC: now) { object["standing"] = .string(standing.rawValue) }
            return .object(object)
        })])
        return .ok
    }
}
