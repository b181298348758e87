import AccessPolicy
import ArgumentParsing
import DoorLock
import Foundation
import PrintableText

/// `fpmod access explain NAME [--at 'YYYY-MM-DD HH:MM'] [--door DOOR]`: would NAME be let in
/// then, and which rule decides (`AccessExplanation`, the rules the service applies).
enum AccessExplainCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let name = try invocation.parsed.require("name")
        let zone = invocation.doorTimeZone
        _ = try invocation.servedDoor()
        let moment = try moment(invocation.parsed.string("at"), in: zone)
        let store = try invocation.openStoreForReading()
        let explanation = try AccessExplanation.explain(user: name, atUTC: moment.utc, store: store, timeZone: zone)
        var json: [String: JSONValue] = [
            "user": .string(name), "at": .string(explanation.local.description), "timeZone": .string(zone.name),
            "utc": .string(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(moment.utc)))),
            "allowed": .bool(explanation.allowed), "lockdown": .bool(explanation.lockdown),
        ]
        switch explanation.verdict {
        case .allowed(let rule): json["rule"] = .string(rule)
        case .denied(let denial): json["denial"] = .object(["code": .string(denial.code), "detail": .string(denial.description)])
        }
        invocation.emit(Printable.escaped(explanation.sentence) + (moment.note.map { "\n" + $0 } ?? ""), json: .object(json))
        return explanation.allowed ? .ok : .denied
    }

    /// `--at` read on the door's wall clock (now when absent). A time the clocks skip is an
    /// error; one they repeat means its first occurrence, and says so.
    static func moment(_ text: String?, in zone: TimeZoneRules) throws -> (utc: Int64, note: String?) {
        guard let text else { return (Int64(Date().timeIntervalSince1970), nil) }
        guard let (date, minute) = LocalTime.parse(text) else {
            throw CommandFailure(.usage, "--at \"\(Printable.escaped(text))\" is not a time; write 'YYYY-MM-DD HH:MM' on the door's clock (\(zone.name)), e.g. --at '2026-12-08 09:30'")
        }
        let moments = zone.utcSeconds(forLocal: date, minuteOfDay: minute)
        guard let first = moments.first else {
            throw CommandFailure(.usage, "\(text) does not happen in \(zone.name): the clocks skip it that night; give a time outside the skipped hour")
        }
        return (first, moments.count > 1 ? "(\(text) happens twice in \(zone.name) that night, as the clocks go back; this is the first)" : nil)
    }
}
