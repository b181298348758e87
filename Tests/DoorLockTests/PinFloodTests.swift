import DoorLock
import Foundation
import Posix
import Testing

/// Issue 10, item 5: PINs are checked on one worker with a short queue; a flood of `pin`
/// lines gets "busy" at once instead of one memory-hard hash thread per line.
@Suite(.serialized)
struct PinFloodTests {
    @Test func aFloodOfPinLinesBeyondTheQueueIsAnsweredBusy() throws {
        let lock = try LockHarness(configureOptions: { $0.pinQueueLimit = 1 })
        let connection = try UnixConnection.connect(path: lock.options.controlSocket)
        defer { connection.close() }
        let count = 30
        // One write: the service reads every line in the same turn of its loop.
        try connection.send(String(repeating: "pin alice 4826\n", count: count))
        var replies: [[String: Any]] = []
        while replies.count < count, let line = try connection.readLine(deadline: .now + .seconds(30)) {
            replies.append(try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]))
        }
        #expect(replies.count == count, "every line gets an answer")
        let busy = replies.filter { $0["code"] as? String == "busy" }
        let checked = replies.filter { $0["code"] as? String != "busy" }
        #expect(!busy.isEmpty)
        // At most the one running and the one queued when the flood arrived, plus whatever
        // finished while the loop read on; each checked one is a real answer.
        #expect(checked.allSatisfy { $0["result"] as? String == "unlocked" }, "\(checked)")
        #expect(busy.allSatisfy { $0["ok"] as? Bool == false && ($0["error"] as? String)?.contains("retry") == true })
        let status = try lock.control("status")
        #expect(status["pinFailures"] as? Int == 0, "busy is not a wrong PIN")
    }
}
