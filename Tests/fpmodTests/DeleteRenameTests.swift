import Foundation
import Testing

/// `delete` asks on a terminal (or takes --yes); `rename` carries a default display name along.
@Suite(.serialized) struct DeleteRenameTests {
    @Test func deleteAsksOnATerminalUnlessYes() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        #expect(try cli.sim(["enroll", "bob"]).status == 0)

        let declined = try TerminalSession(cli, ["--sim", "delete", "alice"])
        declined.waitFor("Delete alice and every finger of alice from the module and the store? This cannot be undone. (y/N): ")
        declined.type("n")
        #expect(declined.finish() == 64)
        #expect(declined.screen.contains("Nothing was deleted"))
        #expect(try cli.userNames() == ["alice", "bob"])

        let accepted = try TerminalSession(cli, ["--sim", "delete", "alice", "--finger", "right-index"])
        accepted.waitFor("Delete alice's right-index from the module and the store? This cannot be undone. (y/N): ")
        accepted.type("y")
        #expect(accepted.finish() == 0, "screen: \(accepted.screen)")
        #expect(accepted.screen.contains("Deleted alice's right-index"))

        let yes = try TerminalSession(cli, ["--sim", "delete", "bob", "--yes"])
        #expect(yes.finish() == 0, "screen: \(yes.screen)")
        #expect(!yes.screen.contains("(y/N)"))
        #expect(try cli.userNames() == ["alice"])
        // A script (stdin not a terminal) is not asked.
        #expect(try cli.sim(["delete", "alice"]).status == 0)
        #expect(try cli.userNames().isEmpty)
    }

    @Test func renameCarriesADefaultDisplayNameButKeepsAGivenOne() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        #expect(try cli.sim(["enroll", "bob", "--display-name", "Robert Smith"]).status == 0)
        #expect(try cli.run(["rename", "alice", "alicia"]).status == 0)
        #expect(try cli.run(["rename", "bob", "rob"]).status == 0)
        let list = try cli.run(["list"]).stdout
        #expect(list.contains("alicia (alicia)"), "\(list)")
        #expect(!list.contains("(alice)"))
        #expect(list.contains("rob (Robert Smith)"))
    }
}
