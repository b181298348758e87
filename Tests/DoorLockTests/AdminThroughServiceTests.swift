import DoorLock
import Foundation
import Testing

struct AdminThroughServiceTests {
    @Test func enrollListDeleteGoThroughTheServiceWorker() throws {
        let lock = try LockHarness(configJSON: #"{"policy": {"relayPulseSeconds": 0.3}}"#)
        lock.simulator.touch("carol-index", times: 6)
        let enrolled = try lock.control("enroll carol left-index")
        #expect(enrolled["result"] as? String == "enrolled", "\(enrolled)")
        try lock.waitForEvent(named: "pin-required")  // the enrolled set changed

        let list = try lock.control("list")
        let users = try #require(list["users"] as? [[String: Any]])
        #expect(users.contains { $0["name"] as? String == "carol" })

        let refused = try lock.scan("carol-index", expecting: ["match", "pin-required", "no-match"])
        #expect(refused.name == "pin-required")

        let deleted = try lock.control("delete carol")
        #expect(deleted["result"] as? String == "deleted", "\(deleted)")
        #expect(try lock.store.user(named: "carol") == nil)
    }
}
