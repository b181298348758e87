import Foundation
import Testing

/// The "done when", through the real binary: enroll two users on the simulated module,
/// identify each, back up, wipe, restore onto a fresh simulated module, identify again.
@Suite(.serialized) struct DoneWhenFlowTests {
    @Test func theBinarySitsBesideTheTestBundle() {
        #expect(FileManager.default.isExecutableFile(atPath: CLI.binary), "no fpmod at \(CLI.binary)")
    }

    @Test func enrollIdentifyBackupWipeRestoreIdentify() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let bob = try cli.sim(["enroll", "bob", "--finger", "left-thumb", "--admin", "--json"])
        #expect(bob.status == 0)
        #expect(bob.json?["slot"] as? Int == 1)
        #expect(bob.stderr.contains("Place your finger (1/2)"))
        #expect(bob.stderr.contains("Lift your finger"))

        for (finger, user) in [("alice-right-index", "alice"), ("bob-left-thumb", "bob")] {
            let identify = try cli.sim(["identify", "--json"], finger: finger)
            #expect(identify.status == 0)
            #expect(identify.json?["user"] as? String == user)
            #expect(identify.json?["times"] != nil)
        }
        let passphrase = ["FPMOD_BACKUP_PASSPHRASE": "correct horse battery"]
        let backup = cli.directory + "/users.fpb"
        #expect(try cli.run(["backup", backup], environment: passphrase).status == 0)
        #expect(try cli.sim(["wipe", "--yes"]).status == 0)
        #expect(try cli.userNames().isEmpty)
        #expect(try cli.sim(["identify"], finger: "alice-right-index").status == 1)

        // A fresh module: the simulator's flash file is gone.
        try FileManager.default.removeItem(atPath: cli.simulatorState)
        let restore = try cli.sim(["restore", backup, "--json"], stdin: "correct horse battery\n")
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.json?["slotsVerified"] as? [Int] == [0, 1])
        for (finger, user) in [("alice-right-index", "alice"), ("bob-left-thumb", "bob")] {
            let identify = try cli.sim(["identify", "--json"], finger: finger)
            #expect(identify.status == 0)
            #expect(identify.json?["user"] as? String == user)
        }
        let verify = try cli.sim(["verify", "alice"], finger: "bob-left-thumb")
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("verify-no-match"))
    }

    @Test func listDeleteRenamePinUnlockAndLog() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        #expect(try cli.sim(["enroll", "alice", "--finger", "left-index"]).status == 0)
        #expect(try cli.sim(["enroll", "root", "--admin"]).status == 0)
        #expect(try cli.run(["rename", "alice", "alicia"]).status == 0)
        #expect(try cli.userNames() == ["alicia", "root"])
        #expect(try cli.run(["pin", "alicia"], stdin: "4826\n").status == 0)
        #expect(try cli.run(["pin", "alicia", "--pin", "12"]).status == 64)
        // Only alicia or an admin may switch fingerprint unlock for alicia.
        #expect(try cli.sim(["disable", "alicia"], finger: "stranger").status == 1)
        #expect(try cli.sim(["disable", "alicia"], finger: "root-right-index").status == 0)
        let list = try cli.run(["list", "--json"]).json?["users"] as? [[String: Any]]
        #expect(list?.first?["fingerprintUnlock"] as? Bool == false)
        #expect(list?.first?["hasPIN"] as? Bool == true)
        #expect(try cli.sim(["delete", "alicia", "--finger", "left-index"]).status == 0)
        #expect(try cli.sim(["delete", "alicia"]).status == 0)
        #expect(try cli.userNames() == ["root"])
        let events = try cli.auditEvents()
        for event in ["enroll", "rename", "pin-set", "unlock-disabled", "delete", "delete-user"] {
            #expect(events.contains(event), "no \(event) in the audit log")
        }
        let sync = try cli.sim(["sync", "--json"])
        #expect(sync.status == 0)
        #expect((sync.json?["changes"] as? [Any])?.isEmpty == true)
    }
}
