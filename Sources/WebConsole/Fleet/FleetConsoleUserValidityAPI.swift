import AccessPolicy
import ConsoleHTTP
import HubStore
import JSONValue
import TemplateStore

/// A user's validity set from the fleet console, as `fpmod hub user-validity` sets it: every
/// input checked before the write, admin only, audited under the account after the change. The
/// page shows and sends all of it, so a request replaces the whole validity; its dates are read
/// and shown in UTC, as a card's are (the hub has no door clock).
extension FleetConsoleAPI {
    /// `{"user", "validFrom"?, "validUntil"?, "uses"?}`: WHEN as `fpmod user set` takes it, in
    /// UTC; a side left out (or null) has no bound, and `uses` left out (or null) no limit.
    func setUserValidity(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let user = try Self.name(try body.string("user"), of: "user")
        let zone = Self.hubZone
        let (from, until) = try body.validityBounds(in: zone, never: "the user could never come in")
        let uses: Int?
        switch body.members["uses"] {
        case nil, .null?: uses = nil
        case .int(let count)? where (0...1_000_000).contains(count): uses = Int(count)
        default: throw ConsoleFailure.badRequest("\"uses\" must be a whole number from 0 to 1000000, or null for no limit.")
        }
        let changed: (revision: Int64, user: HubUser)?
        do {
            changed = try hub.setValidity(ofUser: user, validFrom: from.map { .set($0) } ?? .clear, validUntil: until.map { .set($0) } ?? .clear,
                                          usesLeft: uses.map { .set($0) } ?? .clear)
        } catch {
            if case .invalid(let problem) = error { throw ConsoleFailure.badRequest(AuthAPI.sentence(problem)) }
            throw Self.unavailable(error)
        }
        guard let revision = changed?.revision else { throw ConsoleFailure(404, "There is no user named \(user) on the hub.") }
        let described = ValidityBounds.describeUser(from: from, until: until, usesLeft: uses, in: zone)
        caller.audit(accounts, "user \(user): \(described), at revision \(revision)", user: user)
        return Reply.json(["user": .string(user), "described": .string(described), "revision": .int(revision)])
    }

    /// A user's validity for the inputs beside them on the page: dates in UTC (`hubZone`), as
    /// the request takes them back.
    static func validityJSON(_ user: HubStore.UserListing) -> [String: JSONValue] {
        ["validFrom": hubTime(user.validFrom), "validUntil": hubTime(user.validUntil), "usesLeft": user.usesLeft.map { .int(Int64($0)) } ?? .null]
    }
}
