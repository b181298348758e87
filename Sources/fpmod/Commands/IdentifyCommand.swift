import Administration
import ArgumentParsing

/// `fpmod identify`: 1:N over the occupied slots (regulars first once the audit log has enough
/// history); exit 0 on a match, 1 otherwise.
enum IdentifyCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        try AdminCommand.requireSimFinger(invocation)
        let (store, session, administrator) = try AdminCommand.open(invocation)
        defer { session.close() }
        try MatchPreflight.check(store, administrator, user: nil)
        if try store.allFingers().isEmpty { return AdminCommand.report(.nothingEnrolled, invocation) }
        let order = try administrator.searchOrder(configured: administrator.searchOrderMode, cost: administrator.searchCost)
        invocation.progress("Search order: \(order.mode.rawValue), \(order.plan) (\(order.reason))")
        invocation.progress("Place your finger")
        return AdminCommand.report(try administrator.identify(), invocation)
    }
}
