import AccessPolicy
import ConsoleHTTP
import HubStore
import JSONValue
import TemplateStore

/// A card the hub holds switched off and on, and given its own dates, from the fleet console, as
/// `fpmod hub card-switch|card-validity` do: every input checked before the write, admin only,
/// audited under the account after the change. The hub has no door clock, so dates are read and
/// shown in UTC (the page says so).
extension FleetConsoleAPI {
    /// The zone the console reads and shows a card's and a user's dates in.
    static let hubZone = TimeZoneRules.utc

    /// A moment as the page shows it and a request gives it back (`hubZone`); null: no bound.
    static func hubTime(_ moment: Int64?) -> JSONValue {
        moment.map { .string(hubZone.localTime(atUTC: $0).description) } ?? .null
    }

    /// `{"user", "label", "enabled"}`.
    func switchCard(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let user = try Self.name(try body.string("user"), of: "user"), label = try Self.name(try body.string("label"), of: "card")
        let on = try body.bool("enabled")
        let revision = try changeCard(user, label) { () throws(HubStoreError) in try hub.setCardState(user: user, label: label, enabled: on) }
        caller.audit(accounts, "card \(label) of \(user) switched \(on ? "on" : "off") at revision \(revision)", user: user)
        return Reply.json(["user": .string(user), "label": .string(label), "enabled": .bool(on), "revision": .int(revision)])
    }

    /// `{"user", "label", "validFrom"?, "validUntil"?}`: as `fpmod card validity` takes WHEN, in
    /// UTC; a side left out (or null) has no bound, as an option left out of the CLI has none.
    func setCardValidity(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let user = try Self.name(try body.string("user"), of: "user"), label = try Self.name(try body.string("label"), of: "card")
        let zone = Self.hubZone
        let (from, until) = try body.validityBounds(in: zone)
        let revision = try changeCard(user, label) { () throws(HubStoreError) in
            try hub.setCardState(user: user, label: label, validity: CardValidity(from: from, until: until))
        }
        let described = ValidityBounds.describeCard(from: from, until: until, in: zone)
        caller.audit(accounts, "card \(label) of \(user): \(described), at revision \(revision)", user: user)
        return Reply.json(["user": .string(user), "label": .string(label), "described": .string(described), "revision": .int(revision)])
    }

    /// A card's change: its revision; 404 when the hub has no such card, 400 when it is refused.
    private func changeCard(_ user: String, _ label: String, _ change: () throws(HubStoreError) -> Int64?) throws(ConsoleFailure) -> Int64 {
        let revision: Int64?
        do { revision = try change() } catch {
            if case .invalid(let problem) = error { throw ConsoleFailure.badRequest(AuthAPI.sentence(problem)) }
            throw Self.unavailable(error)
        }
        guard let revision else {
            throw ConsoleFailure(404, "\(user) has no card labelled \(label) at the hub.", fix: "The user's cards are listed with them.")
        }
        return revision
    }

    /// A user's cards with their state, for the switch and dates beside each on the page.
    static func json(_ card: HubCard) -> JSONValue {
        .object(["label": .string(card.label), "kind": .string(card.kind.rawValue), "enabled": .bool(card.enabled),
                 "validFrom": hubTime(card.validFrom), "validUntil": hubTime(card.validUntil)])
    }
}
