import TemplateStore

/// Who a request is from, once authenticated: the console account and what it may do.
struct Caller: Sendable {
    var account: String
    var isAdmin: Bool
    /// Came with a bearer token (a script), not a browser session.
    var byToken: Bool

    /// Refuses a change by a viewer.
    func requireAdmin() throws(ConsoleFailure) {
        guard isAdmin else {
            throw ConsoleFailure(403, "The account '\(account)' is a viewer: it can look, not change.", fix: "Ask an admin, or sign in as one.")
        }
    }

    /// The audit row that says which console account did something (the change's own row says
    /// what), for a change made elsewhere (by the service, in the config file): written after it.
    func audit(_ store: TemplateStore, _ what: String, user: String? = nil) {
        _ = try? store.appendAudit(event: "console-action", user: user, detail: detail(what))
    }

    /// A store change and the row naming the console account that made it, in one transaction:
    /// a power cut or a full disk keeps both or neither (written apart, a cut between them lost
    /// who did it). `what` describes the change from its result.
    func attributed<T>(_ store: TemplateStore, user: String? = nil, what: (T) -> String, _ change: () throws -> T) throws -> T {
        try store.transaction {
            let result = try change()
            try store.appendAudit(event: "console-action", user: user, detail: detail(what(result)))
            return result
        }
    }

    private func detail(_ what: String) -> String {
        "by console account \(account)\(byToken ? " (API token)" : ""): \(what)"
    }
}
