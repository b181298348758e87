import AccessPolicy
import ConsoleHTTP
import JSONValue
import TemplateStore

/// A card switched off and on, and its own dates: the store's calls `fpmod card enable|disable`
/// and `fpmod card validity` make, each audited in its transaction with the console account.
/// A card the fleet's hub has: the change goes up, and every door follows (`toHub`).
struct CardStateAPI {
    let context: ConsoleContext

    func setEnabled(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try body.string("name"), label = try body.string("label"), on = try body.bool("enabled")
        try context.requireCard(user: name, label: label)
        let toHub = try write {
            try caller.attributed(context.store, user: name, what: { _ in "switched \(name)'s card \(label) \(on ? "on" : "off")" }) {
                try context.store.setCardEnabled(on, user: name, label: label, by: "console account \(caller.account)")
            }
        }
        return Reply.json(["ok": true, "toHub": .bool(toHub)])
    }

    /// The dates as `fpmod card validity` takes them, on the door's clock; a side left out (or
    /// null) has no bound, as an option left out of the CLI has none.
    func setValidity(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try body.string("name"), label = try body.string("label")
        let zone = context.timeZone
        let (from, until) = try body.validityBounds(in: zone)
        try context.requireCard(user: name, label: label)
        let described = ValidityBounds.describeCard(from: from, until: until, in: zone)
        let toHub = try write {
            try caller.attributed(context.store, user: name, what: { _ in "\(name)'s card \(label): \(described)" }) {
                try context.store.setCardValidity(user: name, label: label, from: from, until: until, described: described,
                                                  by: "console account \(caller.account)")
            }
        }
        return Reply.json(["ok": true, "toHub": .bool(toHub), "described": .string(described)])
    }

    /// The card checked before the write; one deleted meanwhile is still a 404.
    private func write(_ change: () throws -> Bool) throws(ConsoleFailure) -> Bool {
        do { return try change() } catch StoreError.unknownCard(let user, let label) {
            throw ConsoleContext.noSuchCard(user: user, label: label)
        } catch {
            throw ConsoleFailure(500, "\(error)")
        }
    }
}
