import Foundation
import Glibc
import Testing

/// Issue 10, item 7, with the real binary: a second `fpmod run` on the same sockets names the
/// process that holds them; after SIGTERM (clean) or SIGKILL (stale files left) it starts.
@Suite(.serialized)
struct RunRestartTests {
    @Test func aSecondServiceNamesTheFirstAndStartsOnceItIsGone() throws {
        let cli = CLI()
        let first = try ServiceControlCLITests.RunningService(cli)
        defer { first.stop() }
        let second = try cli.run(["--config", first.config, "run", "--sim", "--sim-gpio"])
        #expect(second.status == 69, "\(second.stderr)")
        #expect(second.stderr.contains("pid \(first.process.processIdentifier)"), "\(second.stderr)")

        // Killed without a chance to clean up: the socket files stay, nobody listens.
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: first.sockets + "/control.sock"))
        let replacement = try ServiceControlCLITests.RunningService(cli)
        defer { replacement.stop() }
        #expect(try cli.run(["--config", replacement.config, "status"]).status == 0)
    }

    @Test func sigtermExitsCleanlyAndFreesTheSockets() throws {
        let cli = CLI()
        let service = try ServiceControlCLITests.RunningService(cli)
        service.process.terminate()
        service.process.waitUntilExit()
        #expect(service.process.terminationReason == .exit && service.process.terminationStatus == 0, "\(service.log)")
        for name in ["control.sock", "events.sock", "sim-control.sock"] {
            #expect(!FileManager.default.fileExists(atPath: service.sockets + "/" + name), "\(name) left behind")
        }
        let again = try ServiceControlCLITests.RunningService(cli)
        again.stop()
    }
}
