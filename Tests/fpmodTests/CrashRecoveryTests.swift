import Foundation
import Testing

/// A real `fpmod enroll` killed (SIGKILL, through the FPMOD_FAILPOINT test hook) at each step;
/// the in-process simulator's flash file survives the kill like a module's flash. The next
/// command finds what was left and repairs it, with an audit row.
@Suite(.serialized) struct CrashRecoveryTests {
    func killedEnroll(at point: String) throws -> CLI {
        let cli = CLI()
        let killed = try cli.sim(["enroll", "alice", "--admin"], environment: ["FPMOD_FAILPOINT": point])
        #expect(killed.signaled && killed.status == SIGKILL, "enroll was not killed at \(point): \(killed.stderr)")
        return cli
    }

    @Test func killedBeforeModuleWriteIsRolledBack() throws {
        let cli = try killedEnroll(at: "enroll.before-module-write")
        let next = try cli.sim(["identify"], finger: "alice-right-index")
        #expect(next.status == 1)
        #expect(next.stderr.contains("rolled back interrupted enroll"))
        #expect(try cli.auditEvents().contains("repair"))
        #expect(try cli.userNames().isEmpty)
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
    }

    @Test(arguments: ["enroll.after-module-write", "enroll.before-commit"])
    func killedAfterModuleWriteIsFinished(point: String) throws {
        let cli = try killedEnroll(at: point)
        #expect(try cli.userNames().isEmpty)
        let next = try cli.sim(["identify", "--json"], finger: "alice-right-index")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.json?["user"] as? String == "alice")
        #expect(next.stderr.contains("finished interrupted enroll"))
        #expect(try cli.auditEvents().contains("repair"))
        let users = try cli.run(["list", "--json"]).json?["users"] as? [[String: Any]]
        #expect(users?.first?["role"] as? String == "admin")
    }

    @Test func killedDuringTemplateUploadLeavesNothingToRepair() throws {
        let cli = try killedEnroll(at: "enroll.during-upload")
        let sync = try cli.sim(["sync", "--json"])
        #expect(sync.status == 0)
        #expect((sync.json?["changes"] as? [Any])?.isEmpty == true)
        #expect(try cli.userNames().isEmpty)
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
    }

    @Test func killedWipeIsFinished() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let killed = try cli.sim(["wipe", "--yes"], environment: ["FPMOD_FAILPOINT": "wipe.after-module-write"])
        #expect(killed.signaled)
        #expect(try cli.userNames() == ["alice"])
        #expect(try cli.sim(["sync"]).stderr.contains("finished interrupted wipe"))
        #expect(try cli.userNames().isEmpty)
    }
}

/// Deleting a whole user is one change: a cut between the user's fingers, or after the last
/// finger and before the user row goes, is finished at the next open (found by
/// `fpmod bench power-loss`: the user used to stay, with some fingers gone).
@Suite(.serialized) struct UserDeleteCrashTests {
    @Test(arguments: ["delete.before-module-write", "delete.after-module-write", "delete.before-user-commit"])
    func killedUserDeleteIsFinished(point: String) throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice", "--admin"], finger: "alice-right-index").status == 0)
        #expect(try cli.sim(["enroll", "carol"], finger: "carol-right-index").status == 0)
        #expect(try cli.sim(["enroll", "carol", "--finger", "left-index"], finger: "carol-left-index").status == 0)
        let killed = try cli.sim(["delete", "carol", "--yes"], environment: ["FPMOD_FAILPOINT": point])
        #expect(killed.signaled && killed.status == SIGKILL, "delete was not killed at \(point): \(killed.stderr)")
        let next = try cli.sim(["sync", "--json"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("finished interrupted delete") && next.stderr.contains("of user carol"), "\(next.stderr)")
        #expect(try cli.userNames() == ["alice"])
        // The module holds alice's finger alone: identify finds nobody for carol's fingers.
        let info = try cli.sim(["info", "--json"]).json
        #expect(info?["templateCount"] as? Int == 1, "\(String(describing: info))")
        #expect(try cli.auditEvents().contains("repair"))
    }
}
