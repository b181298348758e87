import ConsoleAuth
import ConsoleHTTP
import Foundation
import HubStore
import JSONValue
import TemplateStore

/// The fleet's web console, served by `fpmod hub serve` beside the doors' API (`HubSite`): the
/// page `/fleet`, its script, and the API under `/fleet/api/`. Its accounts, sessions and audit
/// log live in a store of their own in the hub's directory (`console.db`), with the door
/// console's rules: no default password (the first admin needs `fpmod hub console-setup-code`),
/// Argon2id passwords, sessions that end, a CSRF token and the Origin on every POST, a viewer
/// changes nothing, every change audited under the account that made it.
public final class FleetConsoleRoutes: HTTPHandler, Sendable {
    let hub: HubStore
    let accounts: TemplateStore
    let auth: AuthAPI
    /// Where the browser's requests may come from (`https://HOST:PORT`) beside the one it used.
    let origins: [String]
    /// "AB:CD:…" of the fleet's authority, which a joining door is given to compare.
    let authorityFingerprint: String
    /// The fleet's template key, for the cards given here; nil: none are.
    let templateKey: FleetTemplateKey?

    public init(hub: HubStore, accounts: TemplateStore, authorityFingerprint: String, templateKey: FleetTemplateKey?, origins: [String] = [],
                limits: SessionLimits = SessionLimits()) {
        self.hub = hub
        self.accounts = accounts
        self.authorityFingerprint = authorityFingerprint
        self.templateKey = templateKey
        self.origins = origins
        auth = AuthAPI(store: accounts, limits: limits)
    }

    /// The console's own store in the hub's directory: its accounts, sessions and audit log.
    public static func accountStore(directory: String) throws -> TemplateStore {
        try TemplateStore(databasePath: directory + "/console.db", keyPath: directory + "/console.key")
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        do { return try route(request) } catch { return error.response }
    }

    private func route(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        let method = request.method == "HEAD" ? "GET" : request.method
        switch (method, request.path) {
        case ("GET", "/"): return Reply.redirect("/fleet")
        case ("GET", "/fleet"): return try page(request)
        case ("GET", "/fleet/assets/fleet.js"):
            return HTTPResponse(status: 200, contentType: "text/javascript; charset=utf-8", text: FleetConsoleAssets.js, headers: [("Cache-Control", "no-cache")])
        case ("GET", "/assets/console.css"): return try ConsoleRoutes.asset(request)
        default: break
        }
        guard request.path.hasPrefix("/fleet/api/") else { return Reply.notFound(request.path) }
        guard method == "GET" || method == "POST" else { throw ConsoleFailure(405, "The API takes GET and POST only.") }
        return try api(method, String(request.path.dropFirst("/fleet/api".count)), request)
    }

    private func page(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        if try auth.setupNeeded() { return Reply.html(FleetConsoleAssets.html(.setup, csrf: nil, account: nil, role: nil)) }
        guard let session = try session(of: request) else { return Reply.html(FleetConsoleAssets.html(.login, csrf: nil, account: nil, role: nil)) }
        return Reply.html(FleetConsoleAssets.html(.fleet, csrf: session.csrf, account: session.account, role: session.role.rawValue))
    }

    private func api(_ method: String, _ route: String, _ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        if let answer = try auth.signedOutRoute(method, route, request, guardRequest: { (request) throws(ConsoleFailure) in
            try guardRequest(request, .none)
        }) { return answer }
        guard let session = try session(of: request) else {
            throw ConsoleFailure(401, "Not signed in, or the session has ended.", fix: "Sign in again at /fleet.")
        }
        try guardRequest(request, .session(csrf: session.csrf))
        let caller = Caller(account: session.account, isAdmin: session.role == .admin, byToken: false)
        let fleet = FleetConsoleAPI(hub: hub, accounts: accounts, authorityFingerprint: authorityFingerprint, templateKey: templateKey)
        switch (method, route) {
        case ("GET", "/session"): return auth.session(session)
        case ("POST", "/logout"): return auth.logout(request)
        case ("GET", "/doors"): return try fleet.doors()
        case ("POST", "/doors/add"): return try fleet.addDoor(request, caller)
        case ("POST", "/doors/revoke"): return try fleet.revokeDoor(request, caller)
        case ("GET", "/users"): return try fleet.users(request)
        case ("GET", "/user"): return try fleet.user(request)
        case ("POST", "/users/remove"): return try fleet.removeUser(request, caller)
        case ("POST", "/users"): return try fleet.addUser(request, caller)
        case ("POST", "/cards"): return try fleet.addCard(request, caller)
        case ("POST", "/cards/remove"): return try fleet.removeCard(request, caller)
        case ("POST", "/cards/switch"): return try fleet.switchCard(request, caller)
        case ("POST", "/cards/validity"): return try fleet.setCardValidity(request, caller)
        case ("POST", "/doors/mode"): return try fleet.setDoorMode(request, caller)
        case ("POST", "/users/schedule"): return try fleet.setUserSchedule(request, caller)
        case ("POST", "/users/validity"): return try fleet.setUserValidity(request, caller)
        case ("GET", "/schedules"): return try fleet.schedules()
        case ("POST", "/schedules"): return try fleet.putSchedule(request, caller)
        case ("POST", "/schedules/remove"): return try fleet.removeSchedule(request, caller)
        case ("GET", "/holidays"): return try fleet.holidays()
        case ("POST", "/holidays"): return try fleet.putHoliday(request, caller)
        case ("POST", "/holidays/remove"): return try fleet.removeHoliday(request, caller)
        case ("GET", "/audit"): return try fleet.audit()
        case ("GET", "/accounts"): return try auth.listAccounts()
        case ("POST", "/accounts"): return try auth.addAccount(request, caller)
        case ("POST", "/accounts/delete"): return try auth.deleteAccount(request, caller)
        default: return Reply.notFound(request.path)
        }
    }

    private func session(of request: HTTPRequest) throws(ConsoleFailure) -> ActiveSession? {
        guard let token = request.cookie(SessionCookie.name) else { return nil }
        do { return try auth.sessions.authenticate(cookieToken: token) } catch {
            throw ConsoleFailure(500, "The console's store could not be read: \(error)")
        }
    }

    /// As the door console: the Origin (configured, or the host the browser reached, which TLS
    /// ties to a name in the hub's certificate) and, with a session, its CSRF token.
    private func guardRequest(_ request: HTTPRequest, _ auth: RequestAuth) throws(ConsoleFailure) {
        try ConsoleRoutes.guardRequest(request, auth, origins: origins)
    }
}

/// What `fpmod hub serve` answers on its one port: the doors' API under `/v1/` (mutual TLS,
/// `HubHandler`), and the fleet console everywhere else.
public struct HubSite: HTTPHandler {
    let doors: any HTTPHandler
    let console: FleetConsoleRoutes

    public init(doors: any HTTPHandler, console: FleetConsoleRoutes) {
        self.doors = doors
        self.console = console
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        request.path.hasPrefix("/v1/") ? doors.respond(to: request) : console.respond(to: request)
    }
}
