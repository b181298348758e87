import DoorLock
import Foundation
import GPIO
import Testing

struct LockConfigTests {
    func firstProblem(_ json: String) -> String { problems(json).first ?? "(no problem)" }

    @Test func emptyObjectIsValidWithDefaults() throws {
        let config = try LockConfig.parse(Data("{}".utf8))
        #expect(config.board == "usb-serial")
        #expect(config.scanIntervalMs == 250)
        #expect(config.policy.relayPulseSeconds == 3)
    }

    @Test func fullExampleParses() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../tools/config.example.json")
        let config = try LockConfig.load(path: url.standardizedFileURL.path)
        #expect(config.board == "rpi4")
        #expect(config.hooks.onUnlock?.isEmpty == false)
    }

    @Test func graceAboveCapNamesItsPath() {
        #expect(firstProblem(#"{"policy": {"graceSeconds": 301}}"#).hasPrefix("policy.graceSeconds: 301 is out of range"))
    }

    @Test func hookMustBeArrayOfStrings() {
        #expect(firstProblem(#"{"hooks": {"onUnlock": "notify-send door"}}"#).hasPrefix("hooks.onUnlock: expected an array of strings"))
        #expect(firstProblem(#"{"hooks": {"onDeny": [1, 2]}}"#).hasPrefix("hooks.onDeny: expected an array of strings"))
        #expect(firstProblem(#"{"hooks": {"onAlarm": []}}"#).hasPrefix("hooks.onAlarm: the command is empty"))
    }

    @Test func unknownKeysAreNamedWithASuggestion() {
        let found = problems(#"{"borad": "rpi4", "policy": {"graceSecond": 5}, "gpio": {"lines": {"realy": {"offset": 3}}}}"#)
        #expect(found.contains { $0.hasPrefix("borad: unknown key; did you mean 'board'?") })
        #expect(found.contains { $0.hasPrefix("policy.graceSecond: unknown key; did you mean 'graceSeconds'?") })
        #expect(found.contains { $0.hasPrefix("gpio.lines.realy: unknown key; did you mean 'relay'?") })
    }

    @Test func wrongTypesNameTheirPaths() {
        #expect(firstProblem(#"{"scanIntervalMs": "fast"}"#).hasPrefix("scanIntervalMs: expected a number"))
        #expect(firstProblem(#"{"touch": {"activeLow": 1}}"#).hasPrefix("touch.activeLow: expected true or false"))
        #expect(firstProblem(#"{"policy": {"relockOnDoorClose": "yes"}}"#).hasPrefix("policy.relockOnDoorClose: expected true or false"))
        #expect(firstProblem(#"{"gpio": {"lines": {"relay": {"offset": 2.5}}}}"#).hasPrefix("gpio.lines.relay.offset: 2.5 is not a whole number"))
        #expect(firstProblem(#"{"policy": []}"#).hasPrefix("policy: expected an object"))
        #expect(firstProblem(#"[1]"#).hasPrefix("(top level): expected an object"))
    }

    @Test func rangesAndChoices() {
        #expect(firstProblem(#"{"scanIntervalMs": 10}"#).hasPrefix("scanIntervalMs: 10 is out of range"))
        #expect(firstProblem(#"{"baudRate": 12345}"#).hasPrefix("baudRate: 12345 is not a module baud rate"))
        #expect(firstProblem(#"{"family": "r99"}"#).hasPrefix("family: 'r99' is not one of"))
        #expect(firstProblem(#"{"leds": "rainbow"}"#).hasPrefix("leds: 'rainbow' is not one of"))
        #expect(firstProblem(#"{"gpio": {"lines": {"exit-button": {"bias": "up"}}}}"#).hasPrefix("gpio.lines.exit-button.bias: 'up' is not one of"))
        #expect(firstProblem(#"{"gpio": {"lines": {"relay": {"bias": "pull-up"}}}}"#).hasPrefix("gpio.lines.relay.bias: relay is an output"))
        #expect(firstProblem(#"{"policy": {"mode": "garage"}}"#).hasPrefix("policy.mode: 'garage' is not one of"))
        #expect(firstProblem(#"{"policy": {"fingerprintLockout": {"failuresPerTimedLockout": 0}}}"#)
            .hasPrefix("policy.fingerprintLockout.failuresPerTimedLockout: 0 is out of range"))
    }

    @Test func addressAndPasswordAcceptHexOrNumbers() throws {
        let config = try LockConfig.parse(Data(#"{"address": "0xA1B2C3D4", "password": 1234}"#.utf8))
        #expect(config.address == 0xA1B2_C3D4)
        #expect(config.password == 1234)
        #expect(firstProblem(#"{"password": "0xZZ"}"#).hasPrefix("password: '0xZZ' is not a 32-bit hex value"))
        #expect(firstProblem(#"{"address": 4294967296}"#).hasPrefix("address: 4294967296 does not fit in 32 bits"))
    }

    @Test func socketsMustBeAbsoluteAndShort() {
        #expect(firstProblem(#"{"events": {"socket": "events.sock"}}"#).hasPrefix("events.socket: 'events.sock' is not an absolute path"))
        let long = "/" + String(repeating: "x", count: 120)
        #expect(firstProblem(#"{"control": {"socket": "\#(long)"}}"#).hasPrefix("control.socket: is 121 bytes long"))
    }

    @Test func topLevelRelayPulseIsValidatedUnderItsOwnName() throws {
        #expect(firstProblem(#"{"relayPulseSeconds": 0}"#).hasPrefix("relayPulseSeconds: 0 is out of range"))
        #expect(try LockConfig.parse(Data(#"{"relayPulseSeconds": 5}"#.utf8)).policy.relayPulseSeconds == 5)
        #expect(firstProblem(#"{"relayPulseSeconds": 5, "policy": {"relayPulseSeconds": 4}}"#).hasPrefix("relayPulseSeconds: differs"))
    }

    @Test func spiDeviceNamesAnImageSensorOrIsRefused() throws {
        #expect(try LockConfig.parse(Data(#"{"spiDevice": "/dev/spidev0.1"}"#.utf8)).spiDevice == "/dev/spidev0.1")
        #expect(try LockConfig.parse(Data("{}".utf8)).spiDevice == nil)
        #expect(firstProblem(#"{"spiDevice": "/dev/ttyAMA0"}"#).hasPrefix("spiDevice: '/dev/ttyAMA0' is no spidev node; use /dev/spidevB.C"))
    }

    @Test func everyProblemIsReportedNotJustTheFirst() {
        #expect(problems(#"{"scanIntervalMs": 1, "leds": 3, "hooks": {"onLockout": "x"}}"#).count == 3)
    }

    @Test func invalidJSONIsOneProblem() {
        #expect(firstProblem(#"{"board": "rpi4""#).contains("not valid JSON"))
    }

    @Test func lineOffsetBeyondTheChip() throws {
        let config = try LockConfig.parse(Data(#"{"board": "gpio-vm", "gpio": {"lines": {"relay": {"offset": 40}}}}"#.utf8))
        let preset = try config.loadBoard()
        let chip = MemoryChip(name: "gpiochip0", lineCount: 28)
        let found = config.problems(preset: preset, chip: chip)
        #expect(found.contains("gpio.lines.relay.offset: 40 is beyond gpiochip0's 28 lines; use 0 to 27"))
    }

    @Test func debounceIsForInputsInWholeMillisecondsAndNeedsAChipThatCanDoIt() throws {
        let json = #"{"board": "gpio-vm", "gpio": {"lines": {"exit-button": {"debounceMs": 15}}}}"#
        let config = try LockConfig.parse(Data(json.utf8))
        let preset = try config.loadBoard()
        let lines = config.resolvedLines(preset: preset, family: nil)
        #expect(lines[.exitButton]?.debounceMicroseconds == 15_000)
        #expect(lines[.doorContact]?.debounceMicroseconds == 0)
        #expect(config.problems(preset: preset, chip: MemoryChip(preset: preset)).isEmpty)
        let v1 = MemoryChip(name: "gpiochip0", lineNames: Array(repeating: nil, count: 16), supportsDebounce: false)
        #expect(config.problems(preset: preset, chip: v1).contains {
            $0.hasPrefix("gpio.lines.exit-button.debounceMs: libgpiod") && $0.contains("cannot debounce")
        })
        #expect(firstProblem(#"{"gpio": {"lines": {"exit-button": {"debounceMs": 101}}}}"#)
            .hasPrefix("gpio.lines.exit-button.debounceMs: 101 is out of range"))
        #expect(firstProblem(#"{"gpio": {"lines": {"exit-button": {"debounceMs": 2.5}}}}"#)
            .hasPrefix("gpio.lines.exit-button.debounceMs: 2.5 is not a whole number"))
        #expect(firstProblem(#"{"gpio": {"lines": {"relay": {"debounceMs": 5}}}}"#)
            .hasPrefix("gpio.lines.relay.debounceMs: relay is an output"))
    }

    @Test func twoRolesOnOneLine() throws {
        let config = try LockConfig.parse(Data(#"{"board": "gpio-vm", "gpio": {"lines": {"buzzer": {"offset": 1}}}}"#.utf8))
        let found = config.problems(preset: try config.loadBoard(), chip: nil)
        #expect(found.contains { $0.hasPrefix("gpio.lines.") && $0.contains("line 1 is already used") })
    }

    @Test func unknownBoardIsAProblemOfBoard() throws {
        let config = try LockConfig.parse(Data(#"{"board": "toaster"}"#.utf8))
        #expect(throws: LockConfigError.self) { try config.loadBoard() }
    }

    @Test func touchPolarityFollowsFamilyUnlessSet() throws {
        let preset = try LockConfig.parse(Data(#"{"board": "gpio-vm"}"#.utf8)).loadBoard()
        let r30x = try LockConfig.parse(Data(#"{"board": "gpio-vm", "family": "r30x"}"#.utf8))
        let as608 = try LockConfig.parse(Data(#"{"board": "gpio-vm", "family": "as608"}"#.utf8))
        let forced = try LockConfig.parse(Data(#"{"board": "gpio-vm", "family": "as608", "touch": {"activeLow": true}}"#.utf8))
        #expect(r30x.resolvedLines(preset: preset, family: nil)[.touch]?.activeLow == true)
        #expect(as608.resolvedLines(preset: preset, family: nil)[.touch]?.activeLow == false)
        #expect(forced.resolvedLines(preset: preset, family: nil)[.touch]?.activeLow == true)
        let none = try LockConfig.parse(Data(#"{"board": "gpio-vm", "gpio": {"lines": {"touch": null}}}"#.utf8))
        #expect(none.resolvedLines(preset: preset, family: nil)[.touch] == nil)
    }

    @Test func auraNeedsAnR50x() throws {
        let config = try LockConfig.parse(Data(#"{"board": "gpio-vm", "family": "as608", "leds": "aura"}"#.utf8))
        #expect(config.problems(preset: try config.loadBoard(), chip: nil).contains { $0.hasPrefix("leds: 'aura' needs an R50x") })
    }

    @Test func eventLineIsJSONWithNumbersAndLatency() throws {
        var timing = ScanTiming()
        timing.edge = 1_000_000
        timing.captureStart = 1_500_000
        timing.relayOn = 3_000_000
        let event = LockEvent(name: "match", fields: ["user": "alice", "slot": "3", "score": "120"], timing: timing)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(event.jsonLine.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "match")
        #expect(object["slot"] as? Int == 3)
        #expect(object["score"] as? Int == 120)
        let latency = try #require(object["latencyMs"] as? [String: Any])
        #expect((latency["relayOn"] as? Double) == 2)
        #expect(object["time"] is String)
    }
}
