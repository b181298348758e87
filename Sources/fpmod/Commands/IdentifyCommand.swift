import Administration
import ArgumentParsing

/// `fpmod identify`: 1:N over everything enrolled — on a module over the occupied slots
/// (regulars first once the audit log has enough history), on an image sensor over the host
/// library in memory; exit 0 on a match, 1 otherwise.
enum IdentifyCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        try AdminCommand.requireSimFinger(invocation)
        let (store, session) = try AdminCommand.openReader(invocation)
        defer { session.close() }
        try MatchPreflight.check(store, session.reader, user: nil)
        let enrolled = try store.allFingers().count
        if enrolled == 0 { return AdminCommand.report(.nothingEnrolled, invocation) }
        if let administrator = session.administrator {
            let order = try administrator.searchOrder(configured: administrator.searchOrderMode, cost: administrator.searchCost)
            invocation.progress("Search order: \(order.mode.rawValue), \(order.plan) (\(order.reason))")
        } else {
            invocation.progress("Search order: all \(enrolled) template(s), on the host (\(session.reader.readerDescription))")
        }
        invocation.progress("Place your finger")
        return AdminCommand.report(try session.reader.identify(), invocation)
    }
}
