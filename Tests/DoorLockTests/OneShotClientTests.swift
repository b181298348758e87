import DoorLock
import Foundation
import Posix
import Testing

/// Issue 21, item 8: a one-shot client (`echo 'pin …' | socat -t3 - UNIX-CONNECT:…`) sends its
/// line, shuts down its sending side and reads until the service closes. A PIN check runs off
/// the loop, so its answer comes after that end of file: it must still arrive, and only then
/// is the connection closed. A client that hangs up altogether is dropped unanswered.
@Suite(.serialized)
struct OneShotClientTests {
    /// Sends `line`, shuts down the sending side, and reads every line until the service closes.
    private func oneShot(_ lock: LockHarness, _ line: String) throws -> [String] {
        let connection = try UnixConnection.connect(path: lock.options.controlSocket)
        defer { connection.close() }
        try connection.send(line: line)
        try connection.finishSending()
        var lines: [String] = []
        while let reply = try connection.readLine(deadline: .now + .seconds(30)) { lines.append(reply) }
        #expect(connection.isClosedByPeer, "the service closes the connection once it has answered")
        return lines
    }

    private func object(_ line: String?) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data((line ?? "").utf8)) as? [String: Any])
    }

    @Test func aPinIsAnsweredBeforeTheConnectionCloses() throws {
        let lock = try LockHarness()
        let replies = try oneShot(lock, "pin alice 4826")
        #expect(replies.count == 1, "\(replies)")
        let reply = try object(replies.first)
        #expect(reply["result"] as? String == "unlocked", "\(reply)")
        let wrong = try object(try oneShot(lock, "pin alice 1111").first)
        #expect(wrong["result"] as? String == "denied", "\(wrong)")
    }

    @Test func clearWithAnAdminPinIsAnsweredBeforeTheConnectionCloses() throws {
        let lock = try LockHarness()
        let reply = try object(try oneShot(lock, "clear boss 7391").first)
        #expect(reply["ok"] as? Bool == true && reply["result"] as? String == "cleared", "\(reply)")
        // An immediate answer is still one line, then the close.
        let status = try oneShot(lock, "status")
        let statusReply = try object(status.first)
        #expect(status.count == 1 && statusReply["ok"] as? Bool == true, "\(status)")
    }

    @Test func aClientThatHangsUpIsDroppedAndTheServiceServesOn() throws {
        let lock = try LockHarness()
        for _ in 0..<3 {
            let connection = try UnixConnection.connect(path: lock.options.controlSocket)
            try connection.send(line: "pin alice 4826")
            connection.close()
        }
        // Every check still finishes (each unlocks), and the socket keeps answering.
        try waitUntil("the three checks") { lock.events(named: "unlocked").count == 3 }
        let status = try lock.control("status")
        #expect(status["ok"] as? Bool == true)
        let again = try object(try oneShot(lock, "pin alice 4826").first)
        #expect(again["result"] as? String == "unlocked", "\(again)")
    }
}
