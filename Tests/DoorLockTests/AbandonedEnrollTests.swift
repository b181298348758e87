import DoorLock
import Foundation
import Posix
import Testing

/// Issue 10, item 6: an enroll whose client went away no longer holds the module for its
/// whole finger timeout (scan answered "busy" meanwhile).
@Suite(.serialized)
struct AbandonedEnrollTests {
    @Test func anEnrollWhoseClientIsGoneFreesTheModule() throws {
        let lock = try LockHarness()
        let client = try UnixConnection.connect(path: lock.options.controlSocket)
        try client.send(line: "enroll carol --timeout=60")
        let first = try client.readLine(deadline: .now + .seconds(10))
        #expect(first?.contains("Place your finger") == true, "\(first ?? "nothing")")
        // The snapshot is published after the loop forwards the progress line: wait for it.
        try waitUntil("the enroll holds the module") { lock.service.snapshot.scanInFlight }
        client.close()
        try waitUntil("the module is free again") { !lock.service.snapshot.scanInFlight }
        #expect(try lock.control("scan")["result"] as? String == "scanning")
    }
}
