import ConsoleAuth
import ConsoleHTTP
import Foundation
import JSONValue
import TemplateStore

/// First-run setup, login and logout, and the admin's accounts and API tokens.
struct AuthAPI {
    let sessions: Sessions
    let setupCode: SetupCode
    let accounts: Accounts
    let tokens: BearerTokens
    let throttle = LoginThrottle()

    init(context: ConsoleContext) {
        self.init(store: context.store, limits: SessionLimits(idleSeconds: Double(context.console.idleMinutes) * 60,
                                                              absoluteSeconds: Double(context.console.sessionHours) * 3600))
    }

    /// Over the store that keeps the accounts: a door's own, or the fleet console's beside the hub.
    init(store: TemplateStore, limits: SessionLimits) {
        sessions = Sessions(store: store, limits: limits)
        setupCode = SetupCode(store: store)
        accounts = Accounts(store: store)
        tokens = BearerTokens(store: store)
    }

    /// The routes answered before any session (the first-run and login forms, the Origin
    /// checked by `guardRequest`); nil for any other route.
    func signedOutRoute(_ method: String, _ route: String, _ request: HTTPRequest,
                        guardRequest: (HTTPRequest) throws(ConsoleFailure) -> Void) throws(ConsoleFailure) -> HTTPResponse? {
        switch (method, route) {
        case ("GET", "/setup"): return try setupState()
        case ("POST", "/setup"):
            try guardRequest(request)
            return try setup(request)
        case ("POST", "/login"):
            try guardRequest(request)
            return try login(request)
        default: return nil
        }
    }

    func setupNeeded() throws(ConsoleFailure) -> Bool {
        do { return try setupCode.needed() } catch { throw ConsoleFailure(500, "The store could not be read: \(error)") }
    }

    func setupState() throws(ConsoleFailure) -> HTTPResponse {
        Reply.json(["needed": .bool(try setupNeeded())])
    }

    /// The first admin, with the code `fpmod console setup-code` printed; signed in at once.
    func setup(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        let body = try JSONBody(request)
        let code = try body.string("code"), name = try body.string("name"), password = try body.string("password")
        do {
            let account = try Self.withPasswordCheck { () throws(ConsoleFailure) in
                do { return try setupCode.redeem(code: code, name: name, password: password) } catch let error as ConsoleAuthError {
                    throw ConsoleFailure(error.status, Self.sentence(error.description))
                } catch {
                    throw ConsoleFailure(500, "The account could not be made: \(error)")
                }
            }
            return try signedIn(try sessions.start(account: account.name), previous: request)
        } catch let error as ConsoleAuthError {
            throw ConsoleFailure(error.status, Self.sentence(error.description))
        } catch let failure as ConsoleFailure {
            throw failure
        } catch {
            throw ConsoleFailure(500, "The account could not be made: \(error)")
        }
    }

    /// Argon2id takes 64 MiB and a good part of a second per try: two at once at most, so a flood
    /// of logins cannot take a Pi's memory (the rest wait briefly, then hear "try again").
    static let passwordChecks = DispatchSemaphore(value: 2)

    static func withPasswordCheck<T>(_ body: () throws(ConsoleFailure) -> T) throws(ConsoleFailure) -> T {
        guard passwordChecks.wait(timeout: .now() + 10) == .success else {
            throw ConsoleFailure(503, "Too many sign-ins at once.", fix: "Try again in a moment.")
        }
        defer { passwordChecks.signal() }
        return try body()
    }

    func login(_ request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        let body = try JSONBody(request)
        let name = try body.string("name"), password = try body.string("password")
        guard name.utf8.count <= 256, password.utf8.count <= 1024 else { throw ConsoleFailure(401, "Wrong name or password.") }
        if let seconds = throttle.wait(for: request.remoteAddress) {
            throw ConsoleFailure(429, "Too many failed sign-ins from this address.", fix: "Try again in \(seconds) s.",
                                 extra: ["retryInSeconds": .int(Int64(seconds))])
        }
        // Ended sessions leave the table now and then: at each sign-in.
        _ = try? sessions.expireOld()
        let result = try Self.withPasswordCheck { () throws(ConsoleFailure) -> Result<NewSession, LoginFailure> in
            do { return try sessions.login(name: name, password: password, from: request.remoteAddress) } catch {
                throw ConsoleFailure(500, "The store could not be read: \(error)")
            }
        }
        switch result {
        case .success(let session):
            return try signedIn(session, previous: request)
        case .failure(let failure):
            throttle.failed(request.remoteAddress)
            var extra: [String: JSONValue] = [:]
            if case .lockedOut(let seconds) = failure { extra["retryInSeconds"] = .int(Int64(seconds)) }
            throw ConsoleFailure(failure.status, Self.sentence(failure.description), extra: extra)
        }
    }

    /// A fresh session in a fresh cookie; a session the browser still had is ended first, so a
    /// token planted before the login (fixation) is worth nothing after it.
    private func signedIn(_ session: NewSession, previous request: HTTPRequest) throws(ConsoleFailure) -> HTTPResponse {
        if let old = request.cookie(SessionCookie.name) { try? sessions.logout(token: old) }
        let maxAge = Int(sessions.limits.absoluteSeconds)
        return Reply.json(["account": ["name": .string(session.account), "role": .string(session.role.rawValue)], "csrf": .string(session.csrf)],
                          headers: [("Set-Cookie", SessionCookie.setting(token: session.token, maxAge: maxAge))])
    }

    func logout(_ request: HTTPRequest) -> HTTPResponse {
        if let token = request.cookie(SessionCookie.name) { try? sessions.logout(token: token) }
        return Reply.noContent(headers: [("Set-Cookie", SessionCookie.clearing)])
    }

    func logoutEverywhere(_ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        do { try sessions.logoutEverywhere(account: caller.account) } catch { throw ConsoleFailure(500, "\(error)") }
        return Reply.noContent(headers: [("Set-Cookie", SessionCookie.clearing)])
    }

    func session(_ session: ActiveSession) -> HTTPResponse {
        Reply.json(["account": ["name": .string(session.account), "role": .string(session.role.rawValue)], "csrf": .string(session.csrf),
                    "idleSeconds": .int(Int64(session.idleSeconds)), "expiresAt": .int(Int64(session.expiresAt))])
    }

    // MARK: Accounts and tokens

    func listAccounts() throws(ConsoleFailure) -> HTTPResponse {
        do {
            let formatter = ISO8601DateFormatter()
            return Reply.json(["accounts": .array(try accounts.list().map {
                ["name": .string($0.name), "role": .string($0.role.rawValue), "createdAt": .string(formatter.string(from: $0.createdAt))]
            })])
        } catch {
            throw ConsoleFailure(500, "\(error)")
        }
    }

    func addAccount(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try body.string("name"), password = try body.string("password")
        let role = try Self.role(try body.optionalString("role") ?? "viewer")
        return try accountChange {
            try accounts.add(name: name, role: role, password: password, by: caller.account)
            return Reply.json(["ok": true, "name": .string(name), "role": .string(role.rawValue)])
        }
    }

    func deleteAccount(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let name = try JSONBody(request).string("name")
        return try accountChange {
            try accounts.delete(name: name, by: caller.account)
            return Reply.ok
        }
    }

    func listTokens() throws(ConsoleFailure) -> HTTPResponse {
        do {
            let formatter = ISO8601DateFormatter()
            return Reply.json(["tokens": .array(try tokens.list().map {
                ["name": .string($0.name), "role": .string($0.role.rawValue), "createdBy": .string($0.createdBy),
                 "createdAt": .string(formatter.string(from: $0.createdAt)), "lastUsed": $0.lastUsed.map { .string(formatter.string(from: $0)) } ?? .null]
            })])
        } catch {
            throw ConsoleFailure(500, "\(error)")
        }
    }

    func createToken(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name = try body.string("name")
        let role = try Self.role(try body.optionalString("role") ?? "viewer")
        return try accountChange {
            let token = try tokens.create(name: name, role: role, by: caller.account)
            return Reply.json(["token": .string(token), "name": .string(name), "role": .string(role.rawValue)], status: 201)
        }
    }

    func revokeToken(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let name = try JSONBody(request).string("name")
        return try accountChange {
            try tokens.revoke(name: name, by: caller.account)
            return Reply.ok
        }
    }

    private func accountChange(_ body: () throws -> HTTPResponse) throws(ConsoleFailure) -> HTTPResponse {
        do { return try body() } catch let error as ConsoleAuthError {
            throw ConsoleFailure(error.status, Self.sentence(error.description))
        } catch let error as StoreError {
            throw ConsoleFailure(409, Self.sentence("\(error)"))
        } catch {
            throw ConsoleFailure(500, "\(error)")
        }
    }

    static func role(_ text: String) throws(ConsoleFailure) -> ConsoleRole {
        guard let role = ConsoleRole(rawValue: text) else {
            throw ConsoleFailure.badRequest("\"\(text)\" is not a role.", fix: "Use admin or viewer.")
        }
        return role
    }

    /// "wrong name…" → "Wrong name….": the library's texts are clauses, the API's are sentences.
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }
}
