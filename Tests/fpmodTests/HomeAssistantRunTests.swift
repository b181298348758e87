import Foundation
import Glibc
import MQTT
import MQTTTestSupport
import Testing

/// Issue 12: the real binary, `fpmod run --sim --sim-gpio`, with an `mqtt` section, against a
/// real mosquitto, watched by a client playing Home Assistant.
@Suite(.serialized)
struct HomeAssistantRunTests {
    @Test func aTouchShowsInHomeAssistantAndAKilledServiceGoesOfflineByItsWill() throws {
        let cli = CLI()
        let broker = try TestBroker(users: ["fpmod": "door-secret", "homeassistant": "ha-secret"])
        try broker.start()
        let sockets = cli.directory + "/sockets"
        try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
        let passwordFile = cli.directory + "/mqtt.password"
        try "door-secret\n".write(toFile: passwordFile, atomically: false, encoding: .utf8)
        #expect(chmod(passwordFile, 0o600) == 0)
        let config = cli.directory + "/config.json"
        try """
            {"board": "gpio-vm", "policy": {"relayPulseSeconds": 0.5, "pinRequiredAfterEnrolledSetChange": false},
             "control": {"socket": "\(sockets)/control.sock"}, "events": {"socket": "\(sockets)/events.sock"},
             "mqtt": {"url": "mqtt://fpmod@127.0.0.1:\(broker.port)", "passwordFile": "\(passwordFile)",
                      "deviceId": "front-door", "remoteUnlock": "user-pin"}}
            """.write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try cli.run(["config", "check", config]).status == 0)

        let ha = try MQTTObserver(broker, user: "homeassistant", password: "ha-secret",
                                  filters: ["fpmod/front-door/#", "homeassistant/device/#"])
        #expect(ha.pump { ha.client.status == .connected })
        // A retained UNLOCK left on the command topic must do nothing when the lock starts.
        try ha.client.publish(MQTTMessage(topic: "fpmod/front-door/lock/set", text: "UNLOCK", qos: 1, retained: true))

        let service = try LoggedProcess(cli, arguments: ["--config", config, "run", "--sim", "--sim-gpio"])
        defer {
            if service.isRunning { kill(service.processIdentifier, SIGKILL) }
            service.waitUntilExit()
        }
        var log: String { service.log }

        #expect(ha.pump { ha.last("fpmod/front-door/availability") == "online" }, "service log:\n\(log)")
        #expect(ha.pump { ha.last("fpmod/front-door/lock/state") == "LOCKED" })
        let discovery = try #require(ha.last("homeassistant/device/front-door/config"))
        #expect(discovery.contains(#""sw_version":"fpmod "#), "\(discovery)")
        #expect(ha.pump { log.contains("ignoring a retained command on fpmod/front-door/lock/set") }, "\(log)")

        // Enroll carol through the running service, then her touch opens the door.
        try waitFor("the module") {
            let status = try cli.run(["--config", config, "status", "--json"])
            return status.json?["module"] as? String == "connected"
        }
        _ = try CLI.unixRequest(path: sockets + "/sim-control.sock", line: "touch carol-left-index 6")
        let enrolled = try cli.run(["--config", config, "enroll", "carol", "--finger", "left-index"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)\n\(log)")
        #expect(!ha.contains("fpmod/front-door/lock/state") { $0 == "UNLOCKED" })
        _ = try CLI.unixRequest(path: sockets + "/sim-control.sock", line: "touch carol-left-index")
        #expect(ha.pump { ha.contains("fpmod/front-door/lock/state") { $0 == "UNLOCKED" } }, "\(log)")
        #expect(ha.pump { ha.last("fpmod/front-door/lock/attributes") == #"{"changed_by":"c***l"}"# })
        #expect(ha.pump { ha.contains("fpmod/front-door/event") { $0.contains(#""event_type":"match""#) && $0.contains(#""user":"c***l""#) } })
        #expect(ha.pump { ha.last("fpmod/front-door/lock/state") == "LOCKED" })

        // Killed, no chance to say goodbye: the broker publishes the retained will.
        kill(service.processIdentifier, SIGKILL)
        #expect(ha.pump { ha.last("fpmod/front-door/availability") == "offline" }, "broker log:\n\(broker.log)")
        #expect(try subscribeOnce(broker, user: "homeassistant", password: "ha-secret", topic: "fpmod/front-door/availability")
            == "1|fpmod/front-door/availability|offline")
    }
}
