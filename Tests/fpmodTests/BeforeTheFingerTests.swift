import Foundation
import Testing

/// Everything that can be checked is checked before anybody is asked for a finger, and a module
/// out of step with the store is named as such, with `fpmod sync` as the fix.
@Suite(.serialized) struct BeforeTheFingerTests {
    @Test func anEmptyModuleWithUsersInTheStoreIsOutOfStepAndSyncSaysItFixesIt() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        #expect(try cli.sim(["enroll", "bob", "--finger", "left-thumb"]).status == 0)
        try FileManager.default.removeItem(atPath: cli.simulatorState)  // a fresh module

        let identify = try cli.sim(["identify"], finger: "alice-right-index")
        #expect(identify.status == 1)
        #expect(identify.stderr.contains("out of step with the store"), "\(identify.stderr)")
        #expect(identify.stderr.contains("Run `fpmod sync`"))
        #expect(identify.stderr.contains("alice, bob"))
        #expect(!identify.stdout.contains("Nobody is enrolled"))
        #expect(!identify.stderr.contains("Place your finger"))
        let verify = try cli.sim(["verify", "bob"], finger: "bob-left-thumb")
        #expect(verify.status == 1)
        #expect(verify.stderr.contains("bob's 1 finger(s)"))

        let sync = try cli.sim(["sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(!sync.stderr.contains("Run `fpmod sync`"), "\(sync.stderr)")
        #expect(sync.stderr.contains("fpmod sync fixes that now"))
        #expect(sync.stdout.contains("slot 0") && sync.stdout.contains("slot 1"), "\(sync.stdout)")
        #expect(try cli.sim(["identify"], finger: "alice-right-index").status == 0)
    }

    @Test func anEmptyStoreIsSaidBeforeAskingForAFinger() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        #expect(try cli.sim(["delete", "alice"]).status == 0)
        let identify = try cli.sim(["identify"], finger: "alice-right-index")
        #expect(identify.status == 1)
        #expect(identify.stdout.contains("Nobody is enrolled yet"))
        #expect(!identify.stderr.contains("Place your finger"))
    }

    @Test func verifyAndCaptureCheckTheirArgumentsFirst() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let nobody = try cli.sim(["verify", "nobody"], finger: "alice-right-index")
        #expect(nobody.status == 64)
        #expect(nobody.stderr.contains("no user named nobody"))
        #expect(!nobody.stderr.contains("Place your finger"))

        let unwritable = try cli.sim(["capture", "--image", cli.directory + "/no/such/dir/f.png"], finger: "alice-right-index")
        #expect(unwritable.status == 74)
        #expect(unwritable.stderr.contains("does not exist"))
        #expect(!unwritable.stderr.contains("Place your finger"))
        let directory = try cli.sim(["capture", "--image", cli.directory], finger: "alice-right-index")
        #expect(directory.status == 64)
        #expect(!directory.stderr.contains("Place your finger"))

        let noFinger = try cli.sim(["capture", "--image", cli.directory + "/f.png"])
        #expect(noFinger.status == 64)
        #expect(noFinger.stderr.contains("--sim-finger"))
        #expect(!noFinger.stderr.contains("Place your finger"))

        let works = try cli.sim(["capture", "--image", cli.directory + "/f.png"], finger: "alice-right-index")
        #expect(works.status == 0, "\(works.stderr)")
        #expect(FileManager.default.fileExists(atPath: cli.directory + "/f.png"))
    }
}
