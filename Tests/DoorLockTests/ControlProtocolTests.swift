import DoorLock
import Foundation
import Testing

/// The control protocol is one request enum, parsed and printed in one place, with JSONValue
/// replies (issue 10, structure): what a client prints the service reads back unchanged, and
/// a value is never re-typed by its spelling.
@Suite(.serialized)
struct ControlProtocolTests {
    @Test func everyRequestReadsBackAsItWasPrinted() throws {
        var enroll = EnrollRequest(user: "bob", label: "left-index")
        enroll.admin = true
        enroll.fingerTimeout = .milliseconds(1500)
        let requests: [ControlRequest] = [
            .status, .scan, .list, .pin(user: nil, pin: "4826"), .pin(user: "alice", pin: "4826"),
            .unlock(admin: "boss", pin: "7391"), .clear(admin: "boss", pin: "7391"), .clearAsRoot,
            .enroll(enroll), .delete(user: "bob", label: nil), .delete(user: "bob", label: "left-index"),
        ]
        for request in requests {
            #expect(try ControlRequest(line: request.line) == request, "\(request.line)")
        }
        #expect(throws: ControlUsageError.self) { try ControlRequest(line: "status now") }
        #expect(throws: ControlUsageError.self) { try ControlRequest(line: "unlock boss") }
        #expect(throws: ControlUsageError.self) { try ControlRequest(line: "open sesame") }
    }

    /// Found by the control fuzzer: a space followed by a combining mark is one Swift character,
    /// so a split by characters read "enroll b <U+20E8>" back as the user "b <U+20E8>".
    @Test func aWordThatStartsWithACombiningMarkStaysItsOwnWord() throws {
        let parsed = try ControlRequest(line: "enroll b\t\u{20E8}")
        let again = try ControlRequest(line: parsed.line)
        #expect(again == parsed, "\(parsed.line.debugDescription)")
        let delete = try ControlRequest(line: "delete alice \u{301}x")
        #expect(delete == .delete(user: "alice", label: "\u{301}x"))
    }

    @Test func aUserNamedTrueStaysAString() throws {
        let event = LockEvent(name: "fingerprint-unlock-changed", fields: ["user": "true", "enabled": "false", "slot": "3"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(event.jsonLine.utf8)) as? [String: Any])
        #expect(object["user"] as? String == "true")
        #expect(object["enabled"] as? Bool == false)
        #expect(object["slot"] as? Int == 3)

        let lock = try LockHarness(setUpStore: { try $0.addUser(name: "true") })
        let list = try lock.control("list")
        let names = (list["users"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(names.contains("true"), "\(list)")
    }
}
