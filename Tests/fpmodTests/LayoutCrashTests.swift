import Foundation
import Testing

/// A real `fpmod layout` moving carol's template from slot 3 to slot 0, killed with SIGKILL (the
/// FPMOD_FAILPOINT hook) at each step of the move. The in-process simulator's flash file keeps
/// what the module acked. The next open settles the move; then the module equals the store
/// (`sync` has nothing to change) and every finger matches its own user, in the slot the store says.
@Suite(.serialized) struct LayoutCrashTests {
    static let users = ["alice", "bob", "carol"]

    /// zed in 0 (deleted again, so slot 0 is free), alice 1, bob 2, carol 3; then the killed move 3 → 0.
    func killedMove(at point: String) throws -> CLI {
        let cli = CLI()
        for user in ["zed"] + Self.users { #expect(try cli.sim(["enroll", user]).status == 0) }
        #expect(try cli.sim(["delete", "zed", "--yes"]).status == 0)
        #expect(try slot(of: "carol", cli) == 3)
        let killed = try cli.sim(["layout", "--move", "3:0"], environment: ["FPMOD_FAILPOINT": point])
        #expect(killed.signaled && killed.status == SIGKILL, "layout was not killed at \(point): \(killed.stderr)")
        return cli
    }

    func slot(of user: String, _ cli: CLI) throws -> Int? {
        let users = try cli.run(["list", "--json"]).json?["users"] as? [[String: Any]] ?? []
        let fingers = users.first { $0["name"] as? String == user }?["fingers"] as? [[String: Any]]
        return fingers?.first?["slot"] as? Int
    }

    func expectSettled(_ cli: CLI, carolIn expected: Int, repair: String?) throws {
        let reopened = try cli.sim(["sync", "--json"])
        #expect(reopened.status == 0, "\(reopened.stderr)")
        if let repair { #expect(reopened.stderr.contains(repair), "\(reopened.stderr)") }
        // The reopen settled everything: the module's library is the store's.
        #expect((reopened.json?["changes"] as? [Any])?.isEmpty == true, "\(reopened.stdout)")
        let again = try cli.sim(["sync", "--json"])
        #expect((again.json?["changes"] as? [Any])?.isEmpty == true)
        #expect(try slot(of: "carol", cli) == expected)
        for user in Self.users {
            let matched = try cli.sim(["identify", "--json"], finger: "\(user)-right-index")
            #expect(matched.status == 0, "\(user): \(matched.stderr)")
            #expect(matched.json?["user"] as? String == user)
            let stored = try slot(of: user, cli)
            #expect(matched.json?["slot"] as? Int == stored)
        }
    }

    @Test(arguments: ["move.before-load", "move.before-store", "move.after-store"])
    func killedBeforeTheCopyWasConfirmedIsRolledBack(point: String) throws {
        let cli = try killedMove(at: point)
        #expect(try slot(of: "carol", cli) == 3)
        try expectSettled(cli, carolIn: 3, repair: "rolled back interrupted move")
    }

    @Test(arguments: ["move.before-commit"])
    func killedAfterTheCopyWasConfirmedIsFinished(point: String) throws {
        let cli = try killedMove(at: point)
        #expect(try slot(of: "carol", cli) == 3)  // the store still names the old slot
        try expectSettled(cli, carolIn: 0, repair: "finished interrupted move")
    }

    @Test(arguments: ["move.after-commit", "move.after-delete"])
    func killedAfterTheCommitIsFinished(point: String) throws {
        let cli = try killedMove(at: point)
        #expect(try slot(of: "carol", cli) == 0)  // the store's mapping already moved
        try expectSettled(cli, carolIn: 0, repair: "finished interrupted move")
    }

    /// A full library's swap: alice in 0, bob 1, carol 2; `fpmod layout --swap 2:0` killed at
    /// each step. Both Stores recorded as confirmed: finished (carol in 0, alice in 2); else rolled back
    /// (the slots written again from the store). Either way each slot matches only its own user.
    func killedSwap(at point: String) throws -> CLI {
        let cli = CLI()
        for user in Self.users { #expect(try cli.sim(["enroll", user]).status == 0) }
        #expect(try slot(of: "carol", cli) == 2)
        let killed = try cli.sim(["layout", "--swap", "2:0"], environment: ["FPMOD_FAILPOINT": point])
        #expect(killed.signaled && killed.status == SIGKILL, "layout was not killed at \(point): \(killed.stderr)")
        return cli
    }

    @Test(arguments: ["swap.before-load", "swap.before-first-store", "swap.after-first-store",
                      "swap.before-second-store", "swap.after-second-store"])
    func aSwapKilledBeforeBothStoresIsRolledBack(point: String) throws {
        let cli = try killedSwap(at: point)
        #expect(try slot(of: "carol", cli) == 2)
        // Slot 0 may hold carol's template (the first Store): written again from the store.
        try expectSettled(cli, carolIn: 2, repair: "rewrote slot 0 from the store after interrupted swap")
        #expect(try slot(of: "alice", cli) == 0)
    }

    @Test(arguments: ["swap.before-commit", "swap.after-commit"])
    func aSwapKilledAfterBothStoresIsFinished(point: String) throws {
        let cli = try killedSwap(at: point)
        #expect(try slot(of: "carol", cli) == (point == "swap.after-commit" ? 0 : 2))
        try expectSettled(cli, carolIn: 0, repair: point == "swap.after-commit" ? nil : "finished interrupted swap")
        #expect(try slot(of: "alice", cli) == 2)
    }

    @Test func aSwapRunsToTheEnd() throws {
        let cli = CLI()
        for user in Self.users { #expect(try cli.sim(["enroll", user]).status == 0) }
        let done = try cli.sim(["layout", "--swap", "2:0", "--json"])
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.json?["moves"] as? Int == 1 && done.json?["flashWrites"] as? Int == 2)
        try expectSettled(cli, carolIn: 0, repair: nil)
    }

    /// Without an identify history there is no hot set, so `fpmod layout` plans no move.
    @Test func noHistoryNoPlannedMoves() throws {
        let cli = CLI()
        for user in ["zed", "yan"] + Self.users { #expect(try cli.sim(["enroll", user]).status == 0) }
        #expect(try cli.sim(["delete", "zed", "--yes"]).status == 0)
        #expect(try cli.sim(["delete", "yan", "--yes"]).status == 0)
        let dry = try cli.sim(["layout", "--dry-run", "--json"])
        #expect((dry.json?["moves"] as? [Any])?.isEmpty == true)
        #expect((dry.json?["reason"] as? String)?.contains("history too short") == true)
    }
}
