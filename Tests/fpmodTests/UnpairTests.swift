import Foundation
import Glibc
import Testing

/// `fpmod unpair` and what a module paired to another store looks like: the simulator's flash
/// (password and address included) is copied to a second store's directory, as if the same
/// module were wired to a machine with another store.
@Suite(.serialized) struct UnpairTests {
    /// A second store looking at (a copy of) `cli`'s module as it is now.
    func secondStore(seeing cli: CLI) throws -> CLI {
        let other = CLI()
        try FileManager.default.copyItem(atPath: cli.simulatorState, toPath: other.simulatorState)
        return other
    }

    func pairedStore() throws -> (cli: CLI, address: String) {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let pair = try cli.sim(["pair", "--json"])
        #expect(pair.status == 0, "\(pair.stderr)")
        return (cli, try #require(pair.json?["address"] as? String))
    }

    @Test func aPasswordErrorSaysTheModuleIsPairedToAnotherStoreAndHowToRecover() throws {
        let (cli, address) = try pairedStore()
        let other = try secondStore(seeing: cli)
        let refused = try other.sim(["--address", address, "enroll", "bob"])
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(refused.stderr.contains("another fpmod store paired it"), "\(refused.stderr)")
        #expect(refused.stderr.contains("fpmod unpair") && refused.stderr.contains("docs/recovery.md"))
        #expect(!FileManager.default.fileExists(atPath: other.directory + "/store.db"), "a refused first enroll made a store")
        // At the factory address the paired module is silent: the message names pairing, not only wiring.
        let silent = try other.sim(["info"])
        #expect(silent.status == 69)
        #expect(silent.stderr.contains("another store paired it") && silent.stderr.contains("fpmod unpair"), "\(silent.stderr)")
    }

    @Test func unpairGivesTheModuleBackToAnyStore() throws {
        let (cli, _) = try pairedStore()
        let unpair = try cli.sim(["unpair"])
        #expect(unpair.status == 0, "\(unpair.stderr)")
        #expect(unpair.stdout.contains("factory password 00000000"))
        #expect(try cli.auditEvents().contains("unpair"))
        // The first store still works with the module (unpaired now), and says it has nothing to undo.
        let identify = try cli.sim(["identify", "--json"], finger: "alice-right-index")
        #expect(identify.json?["user"] as? String == "alice")
        let again = try cli.sim(["unpair"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("paired no module"))
        // Another store reaches the module at the factory credentials and can pair it.
        let other = try secondStore(seeing: cli)
        #expect(try other.sim(["enroll", "bob"]).status == 0)
        #expect(try other.sim(["pair"]).status == 0)
    }

    @Test(arguments: ["unpair.before-module-write", "unpair.after-password"])
    func anInterruptedUnpairIsFinishedAtTheNextOpen(point: String) throws {
        let (cli, _) = try pairedStore()
        let killed = try cli.sim(["unpair"], environment: ["FPMOD_FAILPOINT": point])
        #expect(killed.signaled && killed.status == SIGKILL, "unpair was not killed at \(point): \(killed.stderr)")
        let next = try cli.sim(["sync"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("finished an interrupted unpair"), "\(next.stderr)")
        let other = try secondStore(seeing: cli)
        #expect(try other.sim(["enroll", "bob"]).status == 0)
    }

    @Test func unpairIsInTheHelpAndTheManPage() throws {
        let cli = CLI()
        let help = try cli.run(["help", "unpair"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("factory password"))
        #expect(try cli.run(["manpage"]).stdout.contains("unpair"))
    }
}
