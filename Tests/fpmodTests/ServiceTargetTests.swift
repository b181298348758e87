import Foundation
import Testing

/// Issue 10, item 9: a command that names a port or store goes through the running service
/// only when that service serves the same ones (its `status` says which); otherwise it opens
/// them directly, or, when the service holds that very port, says so. The real binary.
@Suite(.serialized)
struct ServiceTargetTests {
    @Test func onlyAServiceOfTheSameStoreAndPortIsUsed() throws {
        let cli = CLI()
        let service = try ServiceControlCLITests.RunningService(cli)
        defer { service.stop() }
        let config = ["--config", service.config]
        try service.simulator("touch carol-left-index 6")
        let enrolled = try cli.run(config + ["enroll", "carol", "--finger", "left-index"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")

        let status = try #require(try cli.run(config + ["status", "--json"]).json)
        #expect(status["store"] as? String == cli.directory + "/store.db", "\(status)")
        let servicePort = try #require(status["port"] as? String)

        // The same store (FPMOD_STORE names it): through the service.
        let same = try cli.run(config + ["list", "--json"])
        #expect(same.stderr.contains("Going through the running service"), "\(same.stderr)")
        #expect((same.json?["users"] as? [[String: Any]])?.count == 1)

        // Another store: opened directly, not the service's list. That store does not exist, so
        // the direct answer is "no store at other.db" (list creates none), never carol.
        let other = cli.directory + "/other.db"
        let direct = try cli.run(config + ["--store", other, "--key", cli.directory + "/other.key", "list", "--json"])
        #expect(direct.status == 78, "\(direct.stderr)")
        #expect(direct.stderr.contains("opens them directly"), "\(direct.stderr)")
        #expect(direct.stdout.contains("there is no store at \(other)"), "\(direct.stdout)")
        #expect(!direct.stdout.contains("carol"), "\(direct.stdout)")

        // The service's own port with another store: refused, naming the service.
        let held = try cli.run(config + ["--port", servicePort, "--store", other, "--key", cli.directory + "/other.key", "list"])
        #expect(held.status == 75, "\(held.stderr)")
        #expect(held.stderr.contains("holds \(servicePort)"), "\(held.stderr)")
        #expect(held.stderr.contains("pid \(service.process.processIdentifier)"), "\(held.stderr)")
    }
}
