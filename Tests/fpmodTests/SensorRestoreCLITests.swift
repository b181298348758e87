import Foundation
import Testing

/// `fpmod backup` and `fpmod restore` on the simulated image sensor, through the real binary:
/// a sensor's backup comes back into a fresh store and identifies the same fingers, and neither
/// kind of reader takes the other's backup.
@Suite(.serialized) struct SensorRestoreCLITests {
    static let passphrase = ["FPMOD_BACKUP_PASSPHRASE": "correct horse battery"]

    static func sensor(_ cli: CLI, _ arguments: [String]) throws -> CLI.Result {
        try cli.run(["--sim", "--sim-profile", "fpc1020"] + arguments, environment: passphrase)
    }

    @Test func aSensorsBackupRestoresIntoAFreshStoreAndIsRefusedByAModule() throws {
        let source = CLI()
        #expect(try Self.sensor(source, ["enroll", "alice"]).status == 0)
        let file = source.directory + "/sensor.fpb"
        let backup = try source.run(["backup", file], environment: Self.passphrase)
        #expect(backup.status == 0, "\(backup.stderr)")

        let target = CLI()
        let restore = try Self.sensor(target, ["restore", file, "--json"])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.json?["users"] as? Int == 1)
        #expect((restore.json?["slotsVerified"] as? [Any])?.count == 1)
        let text = try Self.sensor(target, ["restore", file, "--yes"])
        #expect(text.stdout.contains("1 template(s) written to the store and read back for the host library"), "\(text.stdout)")
        #expect(try target.userNames() == ["alice"])
        #expect(try target.auditEvents().contains("restore"))
        let identify = try Self.sensor(target, ["identify", "--sim-finger", "alice-right-index", "--json"])
        #expect(identify.status == 0, "\(identify.stderr)")
        #expect(identify.json?["user"] as? String == "alice")
        #expect(try Self.sensor(target, ["identify", "--sim-finger", "bob-right-index"]).status == 1)

        // Again without --yes: the store holds alice, so nothing is replaced.
        let unconfirmed = try Self.sensor(target, ["restore", file])
        #expect(unconfirmed.status == 64, "\(unconfirmed.stderr)")
        #expect(unconfirmed.stderr.contains("--yes"))

        // A module cannot load host templates: refused, nothing written, naming the way that works.
        let module = CLI()
        let refused = try module.sim(["restore", file], environment: Self.passphrase)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("this backup is of an image sensor's store"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--spi PATH"))
        #expect(try module.userNames().isEmpty)
    }

    @Test func aModulesBackupIsRefusedByTheSensor() throws {
        let source = CLI()
        #expect(try source.sim(["enroll", "bob"]).status == 0)
        let file = source.directory + "/module.fpb"
        #expect(try source.run(["backup", file], environment: Self.passphrase).status == 0)

        let target = CLI()
        #expect(try Self.sensor(target, ["enroll", "alice"]).status == 0)
        let refused = try Self.sensor(target, ["restore", file, "--yes"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("this backup is of a UART module's store"), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was changed"))
        #expect(try target.userNames() == ["alice"])
        #expect(try Self.sensor(target, ["identify", "--sim-finger", "alice-right-index"]).status == 0)
    }
}
