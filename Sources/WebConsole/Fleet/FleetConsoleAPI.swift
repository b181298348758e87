import AccessPolicy
import ConsoleHTTP
import Foundation
import HubServer
import HubStore
import JSONValue
import TemplateStore

/// The fleet console's reads and changes of the hub: doors (add with a join code, revoke a
/// stolen one), users (with where each finger can be used), and the console's audit log.
/// A change is made in the hub's database, then written to the audit log under the account.
struct FleetConsoleAPI {
    let hub: HubStore
    let accounts: TemplateStore
    let authorityFingerprint: String
    /// What card numbers are hashed under (the fleet's card key comes from it); nil: this hub
    /// takes no cards.
    let templateKey: FleetTemplateKey?

    /// The most users one page lists (a fleet may have tens of thousands; search narrows).
    static let usersPerPage = 500

    func doors() throws(ConsoleFailure) -> HTTPResponse {
        let doors = try read { () throws(HubStoreError) in try hub.doors() }
        return Reply.json(["doors": .array(doors.map(FleetListing.json))])
    }

    func addDoor(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let name = try Self.name(try JSONBody(request).string("name"), of: "door")
        let code: String
        do { code = try hub.joinCode(forDoor: name) } catch .invalid(let problem) {
            throw ConsoleFailure(409, AuthAPI.sentence(problem))
        } catch {
            throw Self.unavailable(error)
        }
        // The code is shown once, here; the audit says a code was made, never the code.
        caller.audit(accounts, "join code made for door \(name)")
        return Reply.json(["door": .string(name), "code": .string(code), "validHours": .int(Int64(HubStore.joinCodeLifetimeHours)),
                           "authoritySHA256": .string(authorityFingerprint)], status: 201)
    }

    func revokeDoor(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let name = try Self.name(try JSONBody(request).string("name"), of: "door")
        let revoked = try read { () throws(HubStoreError) in try hub.revokeDoor(named: name) }
        guard revoked else { throw ConsoleFailure(404, "There is no door named \(name).", fix: "The doors are listed above.") }
        caller.audit(accounts, "door \(name) revoked: its certificate is refused from its next request on")
        return Reply.json(["door": .string(name), "revoked": true])
    }

    /// `?q=TEXT`: users whose name or display name holds it (case ignored); at most a page.
    func users(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        let query = (request.queryValue("q") ?? "").lowercased()
        guard query.utf8.count <= 64 else { throw ConsoleFailure.badRequest("The search is at most 64 bytes.") }
        let all = try read { () throws(HubStoreError) in try hub.users() }
        let matching = query.isEmpty ? all : all.filter { $0.name.lowercased().contains(query) || $0.displayName.lowercased().contains(query) }
        return Reply.json(["users": .array(matching.prefix(Self.usersPerPage).map { Self.json($0, reach: nil) }),
                           "total": .int(Int64(all.count)), "matching": .int(Int64(matching.count))])
    }

    /// `?name=NAME`: one user, and for each finger the doors that can and cannot use it.
    func user(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        let name = try Self.name(request.queryValue("name") ?? "", of: "user")
        let (listing, reach, cards) = try read { () throws(HubStoreError) in
            (try hub.users(named: name).first, try FleetListing.reach(of: name, in: hub, doors: try FleetListing.workingDoors(hub)), try hub.cards(of: name))
        }
        guard let listing else { throw ConsoleFailure(404, "There is no user named \(name) on the hub.") }
        guard case .object(var user) = Self.json(listing, reach: reach) else { return Reply.json(["user": Self.json(listing, reach: reach)]) }
        // Each card's state, for the switch and dates beside it; its dates in UTC (`hubZone`).
        user["cardStates"] = .array(cards.map(Self.json))
        return Reply.json(["user": .object(user)])
    }

    func removeUser(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let name = try Self.name(try JSONBody(request).string("name"), of: "user")
        let revision = try read { () throws(HubStoreError) in try hub.deleteUser(named: name) }
        guard let revision else { throw ConsoleFailure(404, "There is no user named \(name) on the hub.") }
        caller.audit(accounts, "user \(name) removed at revision \(revision)", user: name)
        return Reply.json(["user": .string(name), "revision": .int(revision)])
    }

    /// `{"name", "displayName", "admin", "schedule"}`: a new user every door follows.
    func addUser(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try Self.name(try body.string("name"), of: "user")
        let display = try body.optionalString("displayName").flatMap { $0.isEmpty ? nil : $0 }
        let schedule = try body.optionalString("schedule").flatMap { $0.isEmpty ? nil : $0 }
        guard (display?.utf8.count ?? 0) <= 256, (schedule?.utf8.count ?? 0) <= 64 else {
            throw ConsoleFailure.badRequest("A display name is at most 256 bytes, a schedule's name 64.")
        }
        let admin = try body.bool("admin", default: false)
        let revision: Int64
        do {
            if try hub.hasUser(named: name) { throw ConsoleFailure(409, "The hub has a user named \(name) already.") }
            revision = try hub.putUser(HubUser(name: name, displayName: display, role: admin ? .admin : .user, schedule: schedule))
        } catch let failure as ConsoleFailure {
            throw failure
        } catch HubStoreError.invalid(let problem) {
            throw ConsoleFailure(400, AuthAPI.sentence(problem))
        } catch let error as HubStoreError {
            throw Self.unavailable(error)
        } catch {
            throw ConsoleFailure(500, "\(error)")
        }
        caller.audit(accounts, "user \(name) added\(admin ? " (admin)" : "") at revision \(revision)", user: name)
        return Reply.json(["user": .string(name), "revision": .int(revision)], status: 201)
    }

    /// `{"user", "number", "label"}`: a card every door follows, kept as its number's hash under
    /// the fleet's card key; the number is neither kept nor written to the audit log.
    func addCard(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        guard let templateKey else { throw ConsoleFailure(404, "This hub takes no cards (it has no template key).") }
        let body = try JSONBody(request)
        let user = try Self.name(try body.string("user"), of: "user")
        let text = try body.string("number")
        guard text.utf8.count <= 128 else { throw ConsoleFailure.badRequest("A card number is at most 128 bytes.") }
        let number: CardNumber
        do { number = try CardNumber(parsing: text) } catch {
            throw ConsoleFailure.badRequest("That is not a card number: \(error).", fix: "Use 26:FACILITY:NUMBER, 34:FACILITY:NUMBER or uid:HEX.")
        }
        let label: CardLabel
        do { label = try CardLabel(validating: try body.optionalString("label") ?? "card") } catch {
            throw ConsoleFailure.badRequest("The card's label: \(error).")
        }
        let revision: Int64
        do { revision = try hub.putCard(HubCard(user: user, label: label.text, kind: number.kind, numberHash: templateKey.cardHash(number))) } catch {
            switch error {
            case .unknownUser: throw ConsoleFailure(404, "There is no user named \(user) on the hub.")
            case .invalid(let problem): throw ConsoleFailure(409, AuthAPI.sentence(problem))
            default: throw Self.unavailable(error)
            }
        }
        caller.audit(accounts, "card \(label.text) (\(number.kind.rawValue)) given to \(user) at revision \(revision)", user: user)
        return Reply.json(["user": .string(user), "label": .string(label.text), "kind": .string(number.kind.rawValue), "revision": .int(revision)], status: 201)
    }

    /// `{"user", "label"}`: a lost card, gone from every door.
    func removeCard(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let user = try Self.name(try body.string("user"), of: "user"), label = try Self.name(try body.string("label"), of: "card")
        let revision = try read { () throws(HubStoreError) in try hub.deleteCard(user: user, label: label) }
        guard let revision else { throw ConsoleFailure(404, "\(user) has no card labelled \(label) at the hub.") }
        caller.audit(accounts, "card \(label) of \(user) removed at revision \(revision)", user: user)
        return Reply.json(["user": .string(user), "label": .string(label), "revision": .int(revision)])
    }

    /// `{"name", "mode"}`: that door's mode from the hub (its service applies it within seconds).
    func setDoorMode(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try Self.name(try body.string("name"), of: "door")
        let text = try body.string("mode")
        guard let mode = DoorMode(rawValue: text) else {
            throw ConsoleFailure.badRequest("A door mode is one of \(DoorMode.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let revision: Int64
        do { revision = try hub.setDoorMode(door: name, mode: mode) } catch {
            if case .invalid = error { throw ConsoleFailure(404, "There is no door named \(name).") }
            throw Self.unavailable(error)
        }
        caller.audit(accounts, "door \(name) set to \(mode.rawValue) at revision \(revision)")
        return Reply.json(["door": .string(name), "mode": .string(mode.rawValue), "revision": .int(revision)])
    }

    /// The newest 200 rows of the console's audit log: sign-ins, accounts, and every change.
    func audit() throws(ConsoleFailure) -> HTTPResponse {
        let entries: [AuditEntry]
        do { entries = try accounts.auditEntries(limit: 200) } catch { throw ConsoleFailure(500, "The console's audit log could not be read: \(error)") }
        return Reply.json(["entries": .array(entries.map { entry in
            .object(["id": .int(entry.id), "time": .double(entry.time.timeIntervalSince1970), "event": .string(entry.event),
                     "account": entry.user.map(JSONValue.string) ?? .null, "detail": entry.detail.map(JSONValue.string) ?? .null])
        })])
    }

    /// A user as `fpmod hub users --json` lists one, with their schedule and validity, which the console edits.
    static func json(_ user: HubStore.UserListing, reach: [FleetListing.FingerReach]?) -> JSONValue {
        guard case .object(var object) = FleetListing.json(user, reach: reach) else { return FleetListing.json(user, reach: reach) }
        object["schedule"] = user.schedule.map(JSONValue.string) ?? .null
        object.merge(validityJSON(user)) { _, validity in validity }
        return .object(object)
    }

    /// A door's or user's name as typed: bounded before anything reads it.
    static func name(_ text: String, of kind: String) throws(ConsoleFailure) -> String {
        guard !text.isEmpty, text.utf8.count <= 64 else {
            throw ConsoleFailure.badRequest("Give the \(kind)'s name (1 to 64 bytes).")
        }
        return text
    }

    func read<T>(_ body: () throws(HubStoreError) -> T) throws(ConsoleFailure) -> T {
        do { return try body() } catch { throw Self.unavailable(error) }
    }

    static func unavailable(_ error: HubStoreError) -> ConsoleFailure {
        ConsoleFailure(503, "The hub's database did not answer: \(error).", fix: "Check that PostgreSQL runs (systemctl status postgresql).")
    }
}
