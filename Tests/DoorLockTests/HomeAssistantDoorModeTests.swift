import DoorLock
import Foundation
import MQTT
import MQTTTestSupport
import Testing

/// Issue 25, item 4, over a real mosquitto: the door mode as a select entity. A mode that only
/// keeps people out is taken from the select; one that opens the door needs the admin command
/// with an admin's PIN; every change is audited and shown back in the state.
@Suite(.serialized)
struct HomeAssistantDoorModeTests {
    @Test func theSelectTakesLockdownAndAPassageNeedsAnAdminsPIN() throws {
        let rig = try HomeAssistantRemoteTests.Rig(mqttExtra: #", "adminCommands": true"#)
        defer { rig.rig.remove() }
        let discovery = rig.ha.last("homeassistant/device/front-door/config") ?? ""
        #expect(discovery.contains(#""front-door_door_mode":{"command_topic":"fpmod/front-door/door_mode/set""#), "\(discovery)")
        #expect(rig.ha.pump { rig.ha.contains("fpmod/front-door/state") { $0.contains(#""door_mode":"normal""#) } })

        try rig.send("passage", to: "fpmod/front-door/door_mode/set")
        #expect(rig.waitForEvent("remote-refused") { $0.contains("admin-required") })
        #expect(try rig.lock.control("status")["doorMode"] as? String == "normal")

        try rig.send("lockdown", to: "fpmod/front-door/door_mode/set")
        #expect(rig.ha.pump { rig.ha.contains("fpmod/front-door/state") { $0.contains(#""door_mode":"lockdown""#) } })
        let row = try #require(try rig.lock.store.auditEntries(limit: 50).first { $0.event == "door-mode" })
        #expect(row.detail?.contains("lockdown") == true && row.detail?.contains("MQTT client") == true, "\(row.detail ?? "")")

        try rig.admin(#"{"command":"door-mode","mode":"passage","code":"4826"}"#)
        #expect(rig.waitForEvent("remote-refused"), "alice is no admin")
        #expect(try rig.lock.control("status")["doorMode"] as? String == "lockdown")
        try rig.admin(#"{"command":"door-mode","mode":"passage","code":"7391"}"#)
        #expect(rig.ha.pump { rig.ha.contains("fpmod/front-door/state") { $0.contains(#""door_mode":"passage""#) } })
        #expect(rig.ha.pump { rig.ha.last("fpmod/front-door/lock/state") == "UNLOCKED" }, "passage without a schedule holds the door open")
        try waitUntil("the passage change is audited") {
            try rig.lock.store.auditEntries(limit: 50).contains { $0.event == "door-mode" && ($0.detail ?? "").contains("-> passage") }
        }
        let passage = try #require(try rig.lock.store.auditEntries(limit: 50).last { $0.event == "door-mode" })
        #expect(passage.user == "boss", "the admin whose PIN it was: \(passage)")

        try rig.send("normal", to: "fpmod/front-door/door_mode/set")
        #expect(rig.ha.pump { rig.ha.last("fpmod/front-door/lock/state") == "LOCKED" }, "back to normal needs no PIN")
    }
}
