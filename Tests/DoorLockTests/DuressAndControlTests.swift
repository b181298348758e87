import DoorLock
import Foundation
import Posix
import Testing

/// Duress is the finger's flag, and `enroll` through the control socket streams its steps.
@Suite(.serialized)
struct DuressAndControlTests {
    /// The old label convention no longer makes a duress finger by itself (migration 3 turned
    /// existing ones into flags): a "duress-…" label without the flag is an ordinary finger.
    @Test func aDuressLabelWithoutTheFlagIsAnOrdinaryFinger() throws {
        let lock = try LockHarness(configJSON: #"{"policy": {"relayPulseSeconds": 0.3}}"#,
                                   beforeStart: { LockHarness.enroll($0, finger: "alice-pinky", slot: 2) },
                                   setUpStore: { store in
                                       try store.addFinger(user: "alice", label: "duress-pinky", slot: 2,
                                                           template: LockHarness.template(for: "alice-pinky"), quality: 100)
                                   })
        try lock.scan("alice-pinky", expecting: ["match"])
        try lock.waitForEvent(named: "unlocked")
        // Another scan after it proves the loop went on; no duress event came before it.
        try lock.waitForEvent(named: "locked")
        #expect(lock.events(named: "duress").isEmpty)
        #expect(try !lock.store.auditEntries(limit: 50).contains { $0.event == "duress" })
    }

    @Test func enrollThroughTheSocketStreamsProgressAndKeepsTheDuressFlag() throws {
        let lock = try LockHarness(configJSON: #"{"policy": {"relayPulseSeconds": 0.3, "pinRequiredAfterEnrolledSetChange": false}}"#)
        lock.simulator.touch("alice-thumb", times: 6)
        var request = EnrollRequest(user: "alice", label: "left-thumb")
        request.duress = true
        request.displayName = "Alice A. Archer"
        let (progress, reply) = try streamingControl(lock, request.controlLine)
        #expect(reply["result"] as? String == "enrolled", "\(reply)")
        #expect(reply["duress"] as? Bool == true)
        #expect(progress.first == "Place your finger (1/2)", "\(progress)")
        #expect(progress.contains("Lift your finger"))
        #expect(progress.contains("Place your finger (2/2)"))
        let finger = try #require(try lock.store.fingers(of: "alice").first { $0.label == "left-thumb" })
        #expect(finger.isDuress)

        let list = try lock.control("list")
        let alice = try #require((list["users"] as? [[String: Any]])?.first { $0["name"] as? String == "alice" })
        let fingers = try #require(alice["fingers"] as? [[String: Any]])
        #expect(fingers.first { $0["label"] as? String == "left-thumb" }?["duress"] as? Bool == true)
        #expect(fingers.first { $0["label"] as? String == "right-index" }?["duress"] as? Bool == false)

        let before = lock.events.count
        try lock.scan("alice-thumb", expecting: ["match"])
        let duress = try lock.waitForEvent(named: "duress", after: before)
        #expect(!duress.isPublic)
    }

    @Test func enrollOptionsRoundTripThroughTheControlLine() throws {
        var request = EnrollRequest(user: "bob", label: "left-index")
        request.admin = true
        request.duress = true
        request.captures = 4
        request.fingerTimeout = .seconds(20)
        request.displayName = "Bob 100% Baker"
        let words = request.controlLine.split(separator: " ").map(String.init)
        #expect(words.first == "enroll")
        #expect(try EnrollRequest(controlArguments: Array(words.dropFirst())) == request)
        #expect(try EnrollRequest(controlArguments: ["carol"]) == EnrollRequest(user: "carol"))
        #expect(throws: ControlUsageError.self) { try EnrollRequest(controlArguments: ["carol", "x", "--sudo"]) }
        #expect(throws: ControlUsageError.self) { try EnrollRequest(controlArguments: ["carol", "--captures=16"]) }
        #expect(throws: ControlUsageError.self) { try EnrollRequest(controlArguments: []) }
    }

    @Test func anEnrollTimeoutUnderAMillisecondIsRefusedAndOthersRoundTrip() throws {
        // Once ".0001" was taken as a zero timeout, printed as "--timeout=0" and refused by the service.
        for text in [".0001", "0.0004", "0", "-1", "nan", "inf", "600.1"] {
            #expect(throws: ControlUsageError.self) { try EnrollRequest(controlArguments: ["carol", "--timeout=" + text]) }
        }
        for text in ["0.001", "1.0005", "20", "599.9996"] {
            let request = try EnrollRequest(controlArguments: ["carol", "--timeout=" + text])
            let words = request.controlLine.split(separator: " ").map(String.init)
            #expect(try EnrollRequest(controlArguments: Array(words.dropFirst())) == request)
        }
    }

    @Test func badEnrollOptionsAreRefusedWithAUsageCode() throws {
        let lock = try LockHarness()
        let reply = try lock.control("enroll carol left-index --sudo")
        #expect(reply["ok"] as? Bool == false)
        #expect(reply["code"] as? String == "usage")
        #expect((reply["error"] as? String)?.contains("--sudo") == true)
    }

    /// Whoever sees "unlocked" sees the relay on in the snapshot (no loop turn of lag).
    @Test func theSnapshotIsCurrentWhenAnEventArrives() throws {
        let lock = try LockHarness(configJSON: #"{"policy": {"relayPulseSeconds": 5}}"#)
        let seen = EventLog()
        let service = lock.service
        lock.service.onEvent = { [seen] event in
            if event.name == "unlocked" || event.name == "locked" {
                let relay = service.snapshot.relayOn
                seen.items.withLock { $0.append(LockEvent(name: event.name, fields: ["relay": String(relay)])) }
            }
        }
        #expect(try lock.control("unlock boss 7391")["result"] as? String == "unlocked")
        try waitUntil("the unlocked event") { seen.items.withLock { !$0.isEmpty } }
        let first = seen.items.withLock { $0.first }
        #expect(first?.fields["relay"] == "true")
    }

    /// One command whose reply is preceded by `{"progress":…}` lines.
    private func streamingControl(_ lock: LockHarness, _ line: String) throws -> ([String], [String: Any]) {
        let connection = try UnixConnection.connect(path: lock.options.controlSocket)
        defer { connection.close() }
        try connection.send(line: line)
        var progress: [String] = []
        while let text = try connection.readLine(deadline: .now + .seconds(20)) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            if object["ok"] != nil { return (progress, object) }
            progress.append(try #require(object["progress"] as? String))
            #expect(object["status"] is String)
        }
        throw HarnessError("the control connection ended before the final reply; progress so far: \(progress)")
    }
}
