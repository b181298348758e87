import DoorLock
import Foundation
import Glibc
import Testing

/// The `mqtt` section: parsed and checked like every other key, and its secret files checked
/// on the machine the way `fpmod config check` reports them.
struct MQTTConfigTests {
    func parse(_ json: String) throws(LockConfigError) -> LockConfig { try LockConfig.parse(Data(json.utf8)) }

    func problems(_ json: String) -> [String] {
        do {
            _ = try parse(json)
            return []
        } catch {
            return error.problems
        }
    }

    @Test func theIssuesExampleParses() throws {
        let config = try parse("""
            {"mqtt": {"url": "mqtt://fpmod@127.0.0.1:1883", "passwordFile": "/etc/fpmod/mqtt.password",
                      "discoveryPrefix": "homeassistant", "deviceId": "front-door", "remoteUnlock": "user-pin"}}
            """)
        let mqtt = try #require(config.mqtt)
        #expect(mqtt.scheme == .mqtt)
        #expect(mqtt.host == "127.0.0.1")
        #expect(mqtt.port == 1883)
        #expect(mqtt.username == "fpmod")
        #expect(mqtt.passwordFile == "/etc/fpmod/mqtt.password")
        #expect(mqtt.discoveryPrefix == "homeassistant")
        #expect(mqtt.deviceID == "front-door")
        #expect(mqtt.remoteUnlock == .userPIN)
        #expect(mqtt.adminCommands == false)
        #expect(mqtt.tls == LockConfig.MQTT.TLS())
        #expect(mqtt.jammedAfter == 2)
        #expect(try parse(#"{"mqtt": {"url": "mqtt://broker", "jammedAfter": 0}}"#).mqtt?.jammedAfter == 0)
    }

    @Test func noSectionMeansNoBridge() throws {
        #expect(try parse("{}").mqtt == nil)
    }

    @Test func defaultsAndTLS() throws {
        let config = try parse("""
            {"mqtt": {"url": "mqtts://broker.lan", "tls": {"cafile": "/etc/fpmod/ca.pem",
                      "certfile": "/etc/fpmod/client.pem", "keyfile": "/etc/fpmod/client.key"}, "adminCommands": true}}
            """)
        let mqtt = try #require(config.mqtt)
        #expect(mqtt.scheme == .mqtts)
        #expect(mqtt.host == "broker.lan")
        #expect(mqtt.port == 8883)
        #expect(mqtt.username == nil)
        #expect(mqtt.deviceID == "fpmod")
        #expect(mqtt.discoveryPrefix == "homeassistant")
        #expect(mqtt.remoteUnlock == .off)
        #expect(mqtt.adminCommands)
        #expect(mqtt.tls == .init(cafile: "/etc/fpmod/ca.pem", certfile: "/etc/fpmod/client.pem", keyfile: "/etc/fpmod/client.key"))
        #expect(try parse(#"{"mqtt": {"url": "mqtt://[::1]:1884"}}"#).mqtt?.host == "::1")
        #expect(try parse(#"{"mqtt": {"url": "mqtt://[::1]:1884"}}"#).mqtt?.port == 1884)
    }

    @Test(arguments: [
        (#"{"mqtt": {"url": "http://broker:1883"}}"#, "mqtt.url: 'http://broker:1883' does not start with mqtt:// or mqtts://"),
        (#"{"mqtt": {"url": "mqtt://broker:99999"}}"#, "mqtt.url: '99999' is not a port (1 to 65535)"),
        (#"{"mqtt": {"url": "mqtt://broker/topic"}}"#, "mqtt.url: 'mqtt://broker/topic' has a path or query"),
        (#"{"mqtt": {"url": "mqtt://fpmod:hunter2@broker", "passwordFile": "/p"}}"#, "mqtt.url: has a password in it; the config is readable by everyone"),
        (#"{"mqtt": {"url": "mqtt://:1883"}}"#, "mqtt.url: 'mqtt://:1883' names no host"),
        (#"{"mqtt": {}}"#, "mqtt.url: missing"),
        (#"{"mqtt": {"url": "mqtt://fpmod@broker"}}"#, "mqtt.passwordFile: missing: the url names user 'fpmod'"),
        (#"{"mqtt": {"url": "mqtt://broker", "passwordFile": "mqtt.password"}}"#, "mqtt.passwordFile: 'mqtt.password' is not an absolute path"),
        (#"{"mqtt": {"url": "mqtt://broker", "deviceId": "front door"}}"#, "mqtt.deviceId: 'front door' may only have letters, digits, _ and -"),
        (#"{"mqtt": {"url": "mqtt://broker", "discoveryPrefix": "ha/#"}}"#, "mqtt.discoveryPrefix: 'ha/#' is not a topic prefix"),
        (#"{"mqtt": {"url": "mqtt://broker", "remoteUnlock": "pin"}}"#, "mqtt.remoteUnlock: 'pin' is not one of off, user-pin, admin-pin"),
        (#"{"mqtt": {"url": "mqtt://broker", "adminCommands": "yes"}}"#, "mqtt.adminCommands: expected true or false"),
        (#"{"mqtt": {"url": "mqtt://broker", "tls": {"cafile": "/ca.pem"}}}"#, "mqtt.tls: is set but the url is mqtt://"),
        (#"{"mqtt": {"url": "mqtts://broker", "tls": {"certfile": "/c.pem"}}}"#, "mqtt.tls: certfile and keyfile go together"),
        (#"{"mqtt": {"url": "mqtts://broker", "tls": {"cafile": "/ca.pem", "capath": "/etc/ssl"}}}"#, "mqtt.tls.capath: unknown key"),
        (#"{"mqtt": {"url": "mqtt://broker", "deviceID": "x"}}"#, "mqtt.deviceID: unknown key; did you mean 'deviceId'?"),
        (#"{"mqtt": "mqtt://broker"}"#, "mqtt: expected an object"),
        (#"{"mqtt": {"url": "mqtt://broker", "jammedAfter": 11}}"#, "mqtt.jammedAfter: 11 is out of range; use 0 to 10 unopened unlocks in a row (0 = never)"),
        (#"{"mqtt": {"url": "mqtt://broker", "jammedAfter": 1.5}}"#, "mqtt.jammedAfter: 1.5 is not a whole number"),
    ])
    func badValuesNameTheKeyAndTheFix(json: String, expected: String) {
        let found = problems(json)
        #expect(found.contains { $0.hasPrefix(expected) }, "\(found)")
    }

    @Test func thePasswordFileMustExistAndBePrivate() throws {
        let directory = NSTemporaryDirectory() + "/fpmod-mqtt-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/mqtt.password"
        let config = try parse(#"{"mqtt": {"url": "mqtt://fpmod@127.0.0.1", "passwordFile": "\#(file)"}}"#)

        let missing = config.mqttProblems()
        #expect(missing.count == 1)
        #expect(missing.first?.hasPrefix("mqtt.passwordFile: \(file) does not exist") == true, "\(missing)")
        #expect(missing.first?.contains("chmod 0600 \(file)") == true)

        try "door-secret\n".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(chmod(file, 0o644) == 0)
        let exposed = config.mqttProblems()
        #expect(exposed == ["mqtt.passwordFile: \(file) can be read or written by other users (mode 0644); "
            + "`chmod 0600 \(file)` and make the service user its owner"])

        #expect(chmod(file, 0o600) == 0)
        #expect(config.mqttProblems() == [])
        #expect(try config.mqttPassword() == "door-secret")
    }

    @Test func theTLSFilesAreChecked() throws {
        let config = try parse(#"{"mqtt": {"url": "mqtts://broker", "tls": {"cafile": "/nonexistent/ca.pem", "certfile": "/nonexistent/c.pem", "keyfile": "/nonexistent/c.key"}}}"#)
        let found = config.mqttProblems()
        #expect(found.contains { $0.hasPrefix("mqtt.tls.cafile: /nonexistent/ca.pem does not exist") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("mqtt.tls.certfile: /nonexistent/c.pem does not exist") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("mqtt.tls.keyfile: /nonexistent/c.key does not exist") }, "\(found)")
    }

    @Test func theExampleConfigHasTheSection() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../tools/config.example.json")
        let config = try LockConfig.load(path: url.standardizedFileURL.path)
        #expect(config.mqtt?.deviceID == "front-door")
        #expect(config.mqtt?.remoteUnlock == .userPIN)
        #expect(config.privacy.mqtt == .masked && config.privacy.log == .masked && config.privacy.eventSocket == .full)
    }
}
