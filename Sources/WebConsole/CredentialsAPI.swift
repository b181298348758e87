import Administration
import ConsoleHTTP
import Foundation
import JSONValue
import TemplateStore

/// Users made in the console before any finger, their PINs and their cards: the store's own
/// calls (each audited in its transaction), as `fpmod pin` and `fpmod card add|delete` make them.
struct CredentialsAPI {
    let context: ConsoleContext

    func addUser(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name: UserName
        do { name = try UserName(validating: try body.string("name")) } catch let failure as ConsoleFailure {
            throw failure
        } catch {
            throw ConsoleFailure.badRequest("\(error)")
        }
        let admin = try body.bool("admin", default: false)
        do {
            try caller.attributed(context.store, user: name.text, what: { "added user \(name.text)" }) {
                _ = try context.store.addUser(name: name, role: admin ? .admin : .user)
                try context.store.appendAudit(event: "user-added", user: name.text, detail: admin ? "admin" : "user")
            }
        } catch let error as StoreError {
            throw ConsoleFailure(409, "\(error)")
        } catch {
            throw ConsoleFailure(500, "\(error)")
        }
        return Reply.json(["ok": true, "name": .string(name.text)], status: 201)
    }

    /// A PIN set or cleared; the PIN never comes back, in no answer and no log.
    func setPIN(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try body.string("name"), pin = try body.optionalString("pin")
        try context.requireUser(name)
        if let pin, let problem = PINRule.problem(pin) { throw ConsoleFailure.badRequest("\(problem)") }
        do {
            try caller.attributed(context.store, user: name, what: { pin == nil ? "cleared \(name)'s PIN" : "set \(name)'s PIN" }) {
                try StoreAdministration.setPIN(context.store, user: name, pin: pin)
            }
        } catch {
            throw ConsoleFailure(400, "\(error)")
        }
        return Reply.ok
    }

    func addCard(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try body.string("name"), numberText = try body.string("number")
        let labelText = try body.optionalString("label")
        try context.requireUser(name)
        do {
            let number = try CardNumber(parsing: numberText)
            let user = try UserName(validating: name)
            let label = try labelText.map { text throws(NameError) in try CardLabel(validating: text) } ?? context.store.freeCardLabel(for: name)
            let card = try caller.attributed(context.store, user: name, what: { "added \(name)'s card \($0.label)" }) {
                try context.store.addCard(number, label: label, for: user, by: "console account \(caller.account)")
            }
            return Reply.json(["ok": true, "label": .string(card.label), "kind": .string(card.kind.rawValue)], status: 201)
        } catch let error as StoreError {
            throw ConsoleFailure(409, "\(error)")
        } catch {
            throw ConsoleFailure.badRequest("\(error)", fix: "A card number is 26:FACILITY:NUMBER, 34:FACILITY:NUMBER or uid:HEX, as `fpmod card add` takes it.")
        }
    }

    func deleteCard(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try body.string("name"), label = try body.string("label")
        let toHub: Bool
        do {
            // A card the fleet's hub has: the removal goes up, and every door follows.
            toHub = try caller.attributed(context.store, user: name, what: { _ in "deleted \(name)'s card \(label)" }) {
                try context.store.deleteCard(user: name, label: label, by: "console account \(caller.account)")
            }
        } catch {
            throw ConsoleFailure(404, "\(error)")
        }
        return Reply.json(["ok": true, "toHub": .bool(toHub)])
    }
}
