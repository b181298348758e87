import ConsoleAuth
import ConsoleHTTP
import Foundation
import JSONValue
import TemplateStore

/// The console's HTTPS routes: embedded assets, the pages, and the API under /api/v1. Every
/// path but the login and setup ones needs a session (or, under /api/v1, a bearer token);
/// every POST needs the Origin and, with a session, its CSRF token; a viewer changes nothing.
public final class ConsoleRoutes: HTTPHandler, Sendable {
    let context: ConsoleContext
    let auth: AuthAPI
    let jobs = EnrollmentJobs()

    public init(context: ConsoleContext) {
        self.context = context
        auth = AuthAPI(context: context)
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        do { return try route(request) } catch { return error.response }
    }

    private func route(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        let path = request.path
        if path.hasPrefix("/assets/") { return try Self.asset(request) }
        if path.hasPrefix("/api/v1/") { return try api(request) }
        guard request.method == "GET" || request.method == "HEAD" else {
            throw ConsoleFailure(405, "Pages are only read (GET).")
        }
        return try page(request)
    }

    // MARK: Pages

    private func page(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        guard let page = ConsolePage.allCases.first(where: { $0.path == request.path }) else { return Reply.notFound(request.path) }
        let needed = try auth.setupNeeded()
        switch page {
        case .setup:
            return needed ? Reply.html(ConsoleAssets.html(.setup, csrf: nil, account: nil, role: nil)) : Reply.redirect("/login")
        case .login:
            if needed { return Reply.redirect("/setup") }
            return Reply.html(ConsoleAssets.html(.login, csrf: nil, account: nil, role: nil))
        default:
            guard let session = try session(of: request) else { return Reply.redirect(needed ? "/setup" : "/login") }
            return Reply.html(ConsoleAssets.html(page, csrf: session.csrf, account: session.account, role: session.role.rawValue))
        }
    }

    static func asset(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        // Looked up by exact path in what the binary carries: nothing is read from disk, so no
        // path can climb out of the assets.
        guard request.method == "GET" || request.method == "HEAD", let file = ConsoleAssets.files[request.path] else {
            return Reply.notFound(request.path)
        }
        return HTTPResponse(status: 200, contentType: file.contentType, text: file.body, headers: [("Cache-Control", "no-cache")])
    }

    // MARK: The API

    private func api(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        let route = String(request.path.dropFirst("/api/v1".count))
        let method = request.method == "HEAD" ? "GET" : request.method
        guard method == "GET" || method == "POST" else {
            throw ConsoleFailure(405, "The API takes GET and POST only.")
        }
        // Before any session: the first-run and login forms.
        if let answer = try auth.signedOutRoute(method, route, request, guardRequest: { (request) throws(ConsoleFailure) in
            try guardRequest(request, .none)
        }) { return answer }

        let (caller, session) = try authenticate(request)
        try guardRequest(request, session.map { .session(csrf: $0.csrf) } ?? .bearer)
        let users = UsersAPI(context: context), door = DoorAPI(context: context), log = LogAPI(context: context)
        switch (method, route) {
        case ("GET", "/session"):
            guard let session else { return Reply.json(["account": ["name": .string(caller.account), "role": .string(caller.isAdmin ? "admin" : "viewer")]]) }
            return auth.session(session)
        case ("POST", "/logout"): return auth.logout(request)
        case ("POST", "/logout-everywhere"): return try auth.logoutEverywhere(caller)
        case ("GET", "/status"): return try door.status()
        case ("GET", "/events"): return door.events(stillAllowed: stillAllowed(request))
        case ("GET", "/health"): return door.health()
        case ("POST", "/door/mode"): return try door.setMode(request, caller)
        case ("GET", "/users"): return try users.list(request)
        case ("POST", "/users/rename"): return try users.rename(request, caller)
        case ("POST", "/users/access"): return try users.setAccess(request, caller)
        case ("POST", "/users/delete"): return try users.delete(request, caller)
        case ("POST", "/users/disable"): return try users.disable(request, caller)
        case ("POST", "/users"): return try CredentialsAPI(context: context).addUser(request, caller)
        case ("POST", "/users/pin"): return try CredentialsAPI(context: context).setPIN(request, caller)
        case ("POST", "/cards"): return try CredentialsAPI(context: context).addCard(request, caller)
        case ("POST", "/cards/delete"): return try CredentialsAPI(context: context).deleteCard(request, caller)
        case ("POST", "/cards/switch"): return try CardStateAPI(context: context).setEnabled(request, caller)
        case ("POST", "/cards/validity"): return try CardStateAPI(context: context).setValidity(request, caller)
        case ("GET", "/schedules"): return try users.schedules()
        case ("POST", "/schedules"): return try users.addSchedule(request, caller)
        case ("POST", "/schedules/delete"): return try users.deleteSchedule(request, caller)
        case ("POST", "/enrollments"): return try EnrollAPI(context: context, jobs: jobs).start(request, caller)
        case ("GET", _) where route.hasPrefix("/enrollments/") && route.hasSuffix("/events"):
            let id = String(route.dropFirst("/enrollments/".count).dropLast("/events".count))
            guard id.count == 32, id.allSatisfy(\.isHexDigit) else { return Reply.notFound(request.path) }
            return try EnrollAPI(context: context, jobs: jobs).events(id: id)
        case ("GET", "/log"): return try log.entries(request)
        case ("GET", "/log.csv"): return try log.csv(request)
        case ("GET", _) where route.hasPrefix("/plots/"): return try PlotsAPI(context: context).plot(String(route.dropFirst("/plots/".count)))
        case ("GET", "/settings"): return try SettingsAPI(context: context).read()
        case ("POST", "/settings"): return try SettingsAPI(context: context).save(request, caller)
        case ("GET", "/accounts"): return try auth.listAccounts()
        case ("POST", "/accounts"): return try auth.addAccount(request, caller)
        case ("POST", "/accounts/delete"): return try auth.deleteAccount(request, caller)
        case ("GET", "/tokens"): return try auth.listTokens()
        case ("POST", "/tokens"): return try auth.createToken(request, caller)
        case ("POST", "/tokens/revoke"): return try auth.revokeToken(request, caller)
        default: return Reply.notFound(request.path)
        }
    }

    /// The caller by bearer token or session cookie; 401 without either.
    private func authenticate(_ request: HTTPRequest) throws(ConsoleFailure) -> (Caller, ActiveSession?) {
        if let header = request.header("authorization") {
            guard let token = BearerTokens.token(fromAuthorization: header),
                  let stored = try? auth.tokens.authenticate(bearer: token) else {
                throw ConsoleFailure(401, "That API token is not valid (revoked, or mistyped).", fix: "Create one on the accounts page.")
            }
            return (Caller(account: "token " + stored.name, isAdmin: stored.role == .admin, byToken: true), nil)
        }
        guard let session = try session(of: request) else {
            throw ConsoleFailure(401, "Not signed in, or the session has ended.", fix: "Sign in again at /login.")
        }
        return (Caller(account: session.account, isAdmin: session.role == .admin, byToken: false), session)
    }

    /// For a stream: whether its session (or token) still holds, asked without counting as a use.
    private func stillAllowed(_ request: HTTPRequest) -> @Sendable () -> Bool {
        let sessions = auth.sessions, tokens = auth.tokens
        if let header = request.header("authorization"), let token = BearerTokens.token(fromAuthorization: header) {
            return { ((try? tokens.authenticate(bearer: token)) ?? nil) != nil }
        }
        let cookie = request.cookie(SessionCookie.name) ?? ""
        return { (try? sessions.isActive(cookieToken: cookie)) ?? false }
    }

    private func session(of request: HTTPRequest) throws(ConsoleFailure) -> ActiveSession? {
        guard let token = request.cookie(SessionCookie.name) else { return nil }
        do { return try auth.sessions.authenticate(cookieToken: token) } catch {
            throw ConsoleFailure(500, "The store could not be read: \(error)")
        }
    }

    /// Origin (the console's configured origins, or the one the browser used to reach it, which
    /// TLS ties to a name the certificate holds) and, with a session, the CSRF token.
    private func guardRequest(_ request: HTTPRequest, _ auth: RequestAuth) throws(ConsoleFailure) {
        try Self.guardRequest(request, auth, origins: context.origins)
    }

    /// The check itself, shared with the fleet console: `origins` are the configured ones.
    static func guardRequest(_ request: HTTPRequest, _ auth: RequestAuth, origins: [String]) throws(ConsoleFailure) {
        var origins = origins
        if let host = request.header("host"), !host.isEmpty { origins.append("https://" + host) }
        let verdict = RequestGuard(allowedOrigins: origins).check(method: request.method, origin: request.header("origin"),
                                                                  referer: request.header("referer"),
                                                                  csrfToken: request.header("x-csrf-token"), auth: auth)
        if case .refuse(let refusal) = verdict {
            throw ConsoleFailure(refusal.status, AuthAPI.sentence(refusal.description), extra: ["reason": .string(refusal.rawValue)])
        }
    }
}

/// The kiosk lock screen's routes on the loopback listener: the page, its two assets, and its
/// three calls; nothing else answers there.
public final class LockScreenRoutes: HTTPHandler, Sendable {
    let context: ConsoleContext
    let port: Int

    public init(context: ConsoleContext, port: Int) {
        self.context = context
        self.port = port
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        do { return try route(request) } catch { return error.response }
    }

    private func route(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        // Bound to 127.0.0.1 already; checked again so a mistake in binding never opens it wider.
        guard request.remoteAddress == "127.0.0.1" || request.remoteAddress == "::1" else {
            throw ConsoleFailure(403, "The lock screen is served to this machine only.")
        }
        let lock = LockScreenAPI(context: context)
        switch (request.method == "HEAD" ? "GET" : request.method, request.path) {
        case ("GET", "/lock"), ("GET", "/"): return Reply.html(ConsoleAssets.lockScreenHTML)
        case ("GET", "/assets/lock.css"), ("GET", "/assets/lock.js"): return try ConsoleRoutes.asset(request)
        case ("GET", "/lock/api/state"): return lock.state()
        case ("GET", "/lock/api/events"): return lock.events()
        case ("POST", "/lock/api/pin"):
            let origins = ["http://127.0.0.1:\(port)", "http://localhost:\(port)"]
            if case .refuse(let refusal) = RequestGuard(allowedOrigins: origins).check(method: "POST", origin: request.header("origin"),
                                                                                     referer: request.header("referer"), csrfToken: nil, auth: .none) {
                throw ConsoleFailure(refusal.status, AuthAPI.sentence(refusal.description))
            }
            return try lock.pin(request)
        default:
            return Reply.notFound(request.path)
        }
    }
}
