import Foundation
import Testing

/// Issue 10, item 1: an admin locked out of PIN entry clears it on the machine itself:
/// `fpmod clear` as root (the service checks the peer's uid). The real binary and service.
@Suite(.serialized)
struct ClearCommandTests {
    @Test func clearAsRootEndsAPinLockout() throws {
        let cli = CLI()
        let service = try ServiceControlCLITests.RunningService(cli)
        defer { service.stop() }
        let config = ["--config", service.config]
        var last = ""
        for _ in 1...5 { last = try CLI.unixRequest(path: service.sockets + "/control.sock", line: "pin 0000") }
        #expect(last.contains("PIN entry is now locked"), "\(last)")
        let refused = try CLI.unixRequest(path: service.sockets + "/control.sock", line: "pin 0000")
        #expect(refused.contains("PIN entry locked"), "\(refused)")

        let cleared = try cli.run(config + ["clear"])
        #expect(cleared.status == (getuid() == 0 ? 0 : 1), "\(cleared.stderr)")
        guard getuid() == 0 else { return }
        let status = try #require(try cli.run(config + ["status", "--json"]).json)
        #expect(status["pinFailures"] as? Int == 0, "\(status)")
        let again = try CLI.unixRequest(path: service.sockets + "/control.sock", line: "pin 0000")
        #expect(again.contains("wrong PIN; try again"), "\(again)")
    }
}
