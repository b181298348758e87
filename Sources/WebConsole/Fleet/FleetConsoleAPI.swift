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
        return Reply.json(["users": .array(matching.prefix(Self.usersPerPage).map { FleetListing.json($0, reach: nil) }),
                           "total": .int(Int64(all.count)), "matching": .int(Int64(matching.count))])
    }

    /// `?name=NAME`: one user, and for each finger the doors that can and cannot use it.
    func user(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        let name = try Self.name(request.queryValue("name") ?? "", of: "user")
        let (listing, reach) = try read { () throws(HubStoreError) in
            (try hub.users().first { $0.name == name }, try FleetListing.reach(of: name, in: hub, doors: try FleetListing.workingDoors(hub)))
        }
        guard let listing else { throw ConsoleFailure(404, "There is no user named \(name) on the hub.") }
        return Reply.json(["user": FleetListing.json(listing, reach: reach)])
    }

    func removeUser(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let name = try Self.name(try JSONBody(request).string("name"), of: "user")
        let revision = try read { () throws(HubStoreError) in try hub.deleteUser(named: name) }
        guard let revision else { throw ConsoleFailure(404, "There is no user named \(name) on the hub.") }
        caller.audit(accounts, "user \(name) removed at revision \(revision)", user: name)
        return Reply.json(["user": .string(name), "revision": .int(revision)])
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

    /// A door's or user's name as typed: bounded before anything reads it.
    static func name(_ text: String, of kind: String) throws(ConsoleFailure) -> String {
        guard !text.isEmpty, text.utf8.count <= 64 else {
            throw ConsoleFailure.badRequest("Give the \(kind)'s name (1 to 64 bytes).")
        }
        return text
    }

    private func read<T>(_ body: () throws(HubStoreError) -> T) throws(ConsoleFailure) -> T {
        do { return try body() } catch { throw Self.unavailable(error) }
    }

    static func unavailable(_ error: HubStoreError) -> ConsoleFailure {
        ConsoleFailure(503, "The hub's database did not answer: \(error).", fix: "Check that PostgreSQL runs (systemctl status postgresql).")
    }
}
