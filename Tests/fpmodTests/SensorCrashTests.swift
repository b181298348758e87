import Foundation
import Testing

/// A real `fpmod` on the simulated image sensor killed (SIGKILL, through FPMOD_FAILPOINT) with
/// its store transaction open. Nothing lives on the sensor, so the store is all there is to keep
/// whole: the next command must find it exactly as before the killed one, and work.
@Suite(.serialized) struct SensorCrashTests {
    static let passphrase = ["FPMOD_BACKUP_PASSPHRASE": "correct horse battery"]

    static func sensor(_ cli: CLI, _ arguments: [String], environment: [String: String] = [:]) throws -> CLI.Result {
        try cli.run(["--sim", "--sim-profile", "fpc1020"] + arguments, environment: passphrase.merging(environment) { $1 })
    }

    @Test func anEnrollKilledInsideItsTransactionLeavesNoTrace() throws {
        let cli = CLI()
        #expect(try Self.sensor(cli, ["enroll", "dave"]).status == 0)
        let killed = try Self.sensor(cli, ["enroll", "alice"], environment: ["FPMOD_FAILPOINT": "enroll.inside-transaction"])
        #expect(killed.signaled && killed.status == SIGKILL, "enroll was not killed: \(killed.stderr)")
        #expect(killed.stderr.contains("killing fpmod at enroll.inside-transaction"))

        #expect(try cli.userNames() == ["dave"])
        #expect(try cli.auditEvents().filter { $0 == "enroll" }.count == 1)
        #expect(try Self.sensor(cli, ["identify", "--sim-finger", "alice-right-index"]).status == 1)
        #expect(try Self.sensor(cli, ["identify", "--sim-finger", "dave-right-index"]).status == 0)
        let again = try Self.sensor(cli, ["enroll", "alice"])
        #expect(again.status == 0, "\(again.stderr)")
        let alice = try Self.sensor(cli, ["identify", "--sim-finger", "alice-right-index", "--json"])
        #expect(alice.json?["user"] as? String == "alice", "\(alice.stderr)")
    }

    @Test func aRestoreKilledAfterDeletingTheOldUsersKeepsThemAll() throws {
        let source = CLI()
        #expect(try Self.sensor(source, ["enroll", "alice"]).status == 0)
        let file = source.directory + "/sensor.fpb"
        #expect(try source.run(["backup", file], environment: Self.passphrase).status == 0)

        let target = CLI()
        #expect(try Self.sensor(target, ["enroll", "dave"]).status == 0)
        #expect(try Self.sensor(target, ["enroll", "erin", "--finger", "left-thumb"]).status == 0)
        let killed = try Self.sensor(target, ["restore", file, "--yes"], environment: ["FPMOD_FAILPOINT": "restore.inside-transaction"])
        #expect(killed.signaled && killed.status == SIGKILL, "restore was not killed: \(killed.stderr)")

        #expect(try target.userNames().sorted() == ["dave", "erin"])
        #expect(try !target.auditEvents().contains("restore"))
        #expect(try Self.sensor(target, ["identify", "--sim-finger", "erin-left-thumb"]).status == 0)
        #expect(try Self.sensor(target, ["identify", "--sim-finger", "alice-right-index"]).status == 1)

        let again = try Self.sensor(target, ["restore", file, "--yes"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try target.userNames() == ["alice"])
        #expect(try Self.sensor(target, ["identify", "--sim-finger", "alice-right-index"]).status == 0)
    }
}
