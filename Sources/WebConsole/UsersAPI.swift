import AccessPolicy
import Administration
import ConsoleHTTP
import DoorLock
import Foundation
import JSONValue
import ServiceClient
import TemplateStore

/// `/api/v1/users…` and `/api/v1/schedules…`: who is enrolled and their rules, read from the
/// store, changed through the same Administration calls the CLI makes.
struct UsersAPI {
    let context: ConsoleContext

    func list(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        let query = request.queryValue("q")?.lowercased() ?? ""
        guard query.utf8.count <= 200 else { throw ConsoleFailure.badRequest("The search text is too long (200 bytes at most).") }
        let now = Int64(Date().timeIntervalSince1970)
        do {
            let roster = try RosterUser.roster(context.store)
            let cards = try context.store.cards()
            let users = roster.users.filter { query.isEmpty || $0.name.lowercased().contains(query) || $0.displayName.lowercased().contains(query) }
            return Reply.json(["users": .array(users.map { user in
                var object: [String: JSONValue] = [
                    "name": .string(user.name), "displayName": .string(user.displayName), "admin": .bool(user.role == "admin"),
                    "hasPIN": .bool(user.hasPIN),
                    "fingers": .array(user.fingers.map { ["label": .string($0.label), "duress": .bool($0.duress), "usable": .bool($0.usable)] }),
                    "cards": .array(cards.filter { $0.user == user.name }.map { card in
                        ["label": .string(card.label), "kind": .string(card.kind.rawValue), "enabled": .bool(card.enabled),
                         "validFrom": card.validFrom.map { .string(localText($0)) } ?? .null,
                         "validUntil": card.validUntil.map { .string(localText($0)) } ?? .null]
                    }),
                    "schedule": JSONValue(user.access.schedule),
                    "validFrom": user.access.validFrom.map { .string(localText($0)) } ?? .null,
                    "validUntil": user.access.validUntil.map { .string(localText($0)) } ?? .null,
                    "usesLeft": user.access.usesLeft.map { .int(Int64($0)) } ?? .null,
                ]
                object["standing"] = user.access.standing(atUTC: now).map { .string($0.rawValue) } ?? .null
                return .object(object)
            }), "timeZone": .string(context.timeZone.name)])
        } catch {
            throw ConsoleFailure(500, "The store could not be read: \(error)")
        }
    }

    /// `YYYY-MM-DD HH:MM` on the door's clock (the list says which zone): what the access form
    /// shows and takes back unchanged.
    func localText(_ utcSeconds: Int64) -> String { context.timeZone.localTime(atUTC: utcSeconds).description }

    /// Disabling a user ends their validity now (everything else is kept: enabling clears the
    /// end again), so a disabled user is refused at the door as "expired" and listed so.
    func disable(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try body.string("name"), disabled = try body.bool("disabled", default: true)
        try context.requireUser(name)
        let zone = context.timeZone
        do {
            let access = try caller.attributed(context.store, user: name, what: { _ in "\(disabled ? "disabled" : "enabled") \(name)" }) {
                try AccessAdministration.setAccess(context.store, user: name,
                                                   validUntil: disabled ? .set(Int64(Date().timeIntervalSince1970)) : .clear,
                                                   moment: zone.wallClockText(atUTC:))
            }
            return Reply.json(["ok": true, "name": .string(name), "access": access.jsonValue])
        } catch {
            throw ConsoleFailure(500, "\(error)")
        }
    }

    func rename(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try body.string("name"), newText = try body.string("newName")
        let newName: UserName
        do { newName = try UserName(validating: newText) } catch { throw ConsoleFailure.badRequest("\(error)") }
        try context.requireUser(name)
        do {
            try caller.attributed(context.store, user: newName.text, what: { "renamed \(name) to \(newName.text)" }) {
                try StoreAdministration.renameUser(context.store, user: name, to: newName)
            }
        } catch {
            throw ConsoleFailure(409, "\(error)")
        }
        return Reply.json(["ok": true, "name": .string(newName.text)])
    }

    /// The user's schedule, validity and uses; every value is checked before anything is written.
    func setAccess(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try body.string("name")
        try context.requireUser(name)
        let zone = context.timeZone
        var schedule: AccessChange<String>?
        if body.has("schedule") {
            if let text = try body.optionalString("schedule") {
                do { _ = try RuleName(validating: text) } catch { throw ConsoleFailure.badRequest("\(error)") }
                schedule = .set(text)
            } else {
                schedule = .clear
            }
        }
        func moment(_ key: String, endOfDay: Bool) throws(ConsoleFailure) -> AccessChange<Int64>? {
            guard body.has(key) else { return nil }
            guard let text = try body.optionalString(key) else { return .clear }
            guard let value = ValidityBounds.moment(text, in: zone, endOfDay: endOfDay) else {
                throw ConsoleFailure.badRequest("\"\(key)\" is not a day or time.", fix: "Write \(ValidityBounds.howToWrite(in: zone)).")
            }
            return .set(value)
        }
        let validFrom = try moment("validFrom", endOfDay: false)
        let validUntil = try moment("validUntil", endOfDay: true)
        var uses: AccessChange<Int>?
        switch body.members["uses"] {
        case nil: break
        case .null?: uses = .clear
        case .int(let count)? where (0...1_000_000).contains(count): uses = .set(Int(count))
        default: throw ConsoleFailure.badRequest("\"uses\" must be a whole number from 0 to 1000000, or null for unlimited.")
        }
        if case .set(let from)? = validFrom, case .set(let until)? = validUntil, until <= from {
            throw ConsoleFailure.badRequest("\"validUntil\" is not after \"validFrom\"; the user could never come in.")
        }
        do {
            let access = try caller.attributed(context.store, user: name,
                                               what: { "access of \(name): \(AccessAdministration.describe($0, moment: zone.wallClockText(atUTC:)))" }) {
                try AccessAdministration.setAccess(context.store, user: name, schedule: schedule, validFrom: validFrom,
                                                   validUntil: validUntil, uses: uses, moment: zone.wallClockText(atUTC:))
            }
            return Reply.json(["ok": true, "name": .string(name), "access": access.jsonValue])
        } catch let error as StoreError {
            throw ConsoleFailure(409, "\(error)")
        } catch {
            throw ConsoleFailure(500, "\(error)")
        }
    }

    /// Deleting goes through the service: the module's slots are its to clear.
    func delete(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try body.string("name"), label = try body.optionalString("label")
        try context.requireUser(name)
        let reply = try context.ask(.delete(user: name, label: label), for: "deleting a user")
        guard reply["ok"]?.boolValue == true else {
            throw ConsoleFailure(409, reply["error"]?.stringValue ?? "The service refused to delete \(name).")
        }
        caller.audit(context.store, "deleted \(label.map { "\(name)'s \($0)" } ?? name)", user: name)
        return Reply.ok
    }


    // MARK: Schedules

    func schedules() throws(ConsoleFailure) -> HTTPResponse {
        do {
            return Reply.json(["schedules": .array(try context.store.schedules().map { ["name": .string($0.name), "text": .string($0.text)] }),
                               "timeZone": .string(context.timeZone.name)])
        } catch {
            throw ConsoleFailure(500, "The store could not be read: \(error)")
        }
    }

    func addSchedule(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let nameText = try body.string("name"), text = try body.string("text")
        let replace = try body.bool("replace", default: false)
        let name: RuleName
        do { name = try RuleName(validating: nameText) } catch { throw ConsoleFailure.badRequest("\(error)") }
        let schedule: WeeklySchedule
        do { schedule = try WeeklySchedule(parsing: text) } catch {
            throw ConsoleFailure(422, "Column \(error.column): \(error.message). Nothing was changed.",
                                 fix: "Write windows such as \"mon-fri 08:00-18:00, sat 09:00-13:00\".")
        }
        do {
            try caller.attributed(context.store, what: { "schedule \(name): \(schedule.text)" }) {
                try AccessAdministration.addSchedule(context.store, name: name, schedule: schedule, replace: replace)
            }
        } catch {
            throw ConsoleFailure(409, "\(error)")
        }
        return Reply.ok
    }

    func deleteSchedule(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let name = try JSONBody(request).string("name")
        do {
            try caller.attributed(context.store, what: { "deleted schedule \(name)" }) {
                try AccessAdministration.deleteSchedule(context.store, name: name)
            }
        } catch {
            throw ConsoleFailure(409, "\(error)")
        }
        return Reply.ok
    }
}
