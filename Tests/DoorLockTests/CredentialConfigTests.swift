import AccessPolicy
import DoorLock
import Foundation
import Testing

/// The config's credential sections: `wiegand` (a reader), `wiegandOut` (a panel), and the
/// policy's verify mode; every problem named with its key, nothing half-read.
struct CredentialConfigTests {
    @Test func readerPanelAndVerifyModeAreRead() throws {
        let json = #"""
            {"wiegand": {"d0": "wiegand-d0", "d1": 21, "maxIntervalMs": 400, "gapMs": 1500},
             "wiegandOut": {"d0": 19, "d1": "panel-d1", "pulseUs": 2000, "intervalUs": 25000},
             "policy": {"verifyMode": "card-and-pin", "factorWindowSeconds": 20, "cardLockout": {"timedLockoutSeconds": 60}}}
            """#
        let config = try LockConfig.parse(Data(json.utf8))
        #expect(config.wiegand?.d0 == "wiegand-d0" && config.wiegand?.d1 == "21")
        #expect(try config.wiegand?.timing.frameGap == 1_500_000_000)
        #expect(config.wiegandOut?.d0 == "19" && config.wiegandOut?.d1 == "panel-d1")
        #expect(try config.wiegandOut?.encoder.interval == 25_000_000)
        #expect(config.policy.verifyMode == .cardAndPin && config.policy.factorWindowSeconds == 20)
        #expect(config.policy.cardLockout.timedLockoutSeconds == 60)
    }

    @Test func everyProblemIsNamed() {
        let found = problems(#"""
            {"wiegand": {"d0": 20, "d1": 20, "speed": 3},
             "wiegandOut": {"d1": 26, "pulseUs": 5},
             "policy": {"verifyMode": "card-or-finger", "factorWindowSeconds": 0}}
            """#)
        #expect(found.contains { $0.hasPrefix("wiegand.d1: is the same line as wiegand.d0") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("wiegand.speed") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("wiegandOut.d0: missing") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("wiegandOut.pulseUs") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("policy.verifyMode: 'card-or-finger' is not one of finger, pin, card, finger-or-pin, card-and-finger") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("policy.factorWindowSeconds") }, "\(found)")
        #expect(problems(#"{"wiegand": {"d0": 20, "d1": 21, "minIntervalUs": 30000, "maxIntervalMs": 20}}"#)
            .contains { $0.hasPrefix("wiegand.maxIntervalMs") })
    }
}

/// The `nfc` section: a reader's libnfc connection string, checked as the config is read, and a
/// mode the config must name (no default: `uid` is a choice to make knowingly).
struct NFCConfigTests {
    @Test func readerIsRead() throws {
        let config = try LockConfig.parse(Data(#"{"nfc": {"device": "pn532_uart:/dev/serial0:115200", "mode": "uid"}}"#.utf8))
        #expect(config.nfc == LockConfig.NFCReaderSection(device: "pn532_uart:/dev/serial0:115200", mode: .uid))
        #expect(try LockConfig.parse(Data("{}".utf8)).nfc == nil)
        #expect(try LockConfig.parse(Data(#"{"nfc": {"device": "pn532_i2c:/dev/i2c-1", "mode": "desfire"}}"#.utf8)).nfc?.mode == .desfire)
    }

    @Test func everyProblemIsNamed() {
        let found = problems(#"{"nfc": {"device": "pn999:/dev/x", "speed": 1}}"#)
        #expect(found.contains { $0.hasPrefix("nfc.device: invalid libnfc connection string 'pn999:/dev/x': unknown driver 'pn999'") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("nfc.mode: missing; say how cards are trusted: \"desfire\", \"uid\"") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("nfc.speed") }, "\(found)")
        let more = problems(#"{"nfc": {"mode": "trust-me", "device": 5}}"#)
        #expect(more.contains { $0.hasPrefix("nfc.mode: is one of \"desfire\", \"uid\"") }, "\(more)")
        #expect(more.contains { $0.hasPrefix("nfc.device: is a libnfc connection string") }, "\(more)")
        #expect(problems(#"{"nfc": {"mode": "uid"}}"#).contains { $0.hasPrefix("nfc.device: missing") })
        #expect(problems(#"{"nfc": {"device": "pn532_uart:serial0", "mode": "uid"}}"#).contains { $0.hasPrefix("nfc.device: ") })
    }
}
