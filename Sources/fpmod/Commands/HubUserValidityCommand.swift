import AccessPolicy
import ArgumentParsing
import HubStore
import JSONValue
import PrintableText
import TemplateStore

extension HubCommand {
    /// `fpmod hub user-validity NAME [--valid-from WHEN | --no-valid-from] [--valid-until WHEN |
    /// --no-valid-until] [--uses N | --unlimited-uses] [--time-zone ZONE]`: a user's validity at
    /// every door, with `fpmod user set`'s options (what is not named stays as the hub has it).
    /// The hub has no door clock: WHEN is read in UTC unless --time-zone names the doors' zone.
    /// Every option is read and checked before the hub is written to.
    static func userValidity(_ invocation: Invocation) throws -> ExitCode {
        guard let name = invocation.positional(0) else {
            throw CommandFailure(.usage, "Name the user: fpmod hub user-validity NAME [--valid-from WHEN] [--valid-until WHEN] [--uses N].")
        }
        let parsed = invocation.parsed
        let zone = try Self.timeZone(invocation)
        func pair<T>(_ set: T?, clear: String, _ option: String) throws -> AccessChange<T>? {
            if set != nil && parsed.flag(clear) { throw CommandFailure(.usage, "--\(option) and --\(clear) contradict each other; give one.") }
            if let set { return .set(set) }
            return parsed.flag(clear) ? .clear : nil
        }
        let from = try parsed.string("valid-from").map { try AccessRuleCommands.readMoment($0, option: "--valid-from", zone: zone, endOfDay: false) }
        let until = try parsed.string("valid-until").map { try AccessRuleCommands.readMoment($0, option: "--valid-until", zone: zone, endOfDay: true) }
        let validFrom = try pair(from, clear: "no-valid-from", "valid-from"), validUntil = try pair(until, clear: "no-valid-until", "valid-until")
        let uses = try pair(try parsed.int("uses", range: 0...1_000_000), clear: "unlimited-uses", "uses")
        guard validFrom != nil || validUntil != nil || uses != nil else {
            throw CommandFailure(.usage, "Nothing to set: give --valid-from WHEN, --valid-until WHEN or --uses N (or one of --no-valid-from, --no-valid-until, --unlimited-uses).")
        }
        if let from, let until, until <= from {
            throw CommandFailure(.usage, "--valid-until is not after --valid-from: the user could never come in. Nothing was changed.")
        }
        let store = try HubStore(conninfo: try Self.database(invocation))
        let changed: (revision: Int64, user: HubUser)?
        // One catch-all clause: Swift 6.0.3's SIL verifier crashes on a non-exhaustive typed catch.
        do { changed = try store.setValidity(ofUser: name, validFrom: validFrom, validUntil: validUntil, usesLeft: uses) } catch {
            guard case .invalid(let problem) = error else { throw error }
            throw CommandFailure(.usage, "The user was not changed: \(Printable.escaped(problem)).")
        }
        guard let revision = changed?.revision, let user = changed?.user else {
            throw CommandFailure(.usage, "No user \(Printable.escaped(name).debugDescription) on the hub; fpmod hub users lists them (fpmod hub add-user adds one).")
        }
        let text = ValidityBounds.describeUser(from: user.validFrom, until: user.validUntil, usesLeft: user.usesLeft, in: zone)
        invocation.emit("User \(Printable.escaped(name)): \(text), at revision \(revision); every door follows at its next sync.",
                        json: ["user": .string(name), "validFrom": user.validFrom.map { .int($0) } ?? .null,
                               "validUntil": user.validUntil.map { .int($0) } ?? .null, "usesLeft": user.usesLeft.map { .int(Int64($0)) } ?? .null,
                               "timeZone": .string(zone.name), "revision": .int(revision)])
        return .ok
    }
}
