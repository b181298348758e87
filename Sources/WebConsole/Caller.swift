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

    /// The audit row that says which console account did something (the change's own row says what).
    func audit(_ store: TemplateStore, _ what: String, user: String? = nil) {
        _ = try? store.appendAudit(event: "console-action", user: user, detail: "by console account \(account)\(byToken ? " (API token)" : ""): \(what)")
    }
}
