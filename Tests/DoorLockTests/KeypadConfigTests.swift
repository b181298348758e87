import DoorLock
import Foundation
import Testing

/// The config's `keypad` section: the device and the entry's settings, each refused with a
/// message naming the key and the fix, all at once.
@Suite struct KeypadConfigTests {
    @Test func noSectionNoKeypadAndADeviceIsEnough() throws {
        #expect(try LockConfig.parse(Data("{}".utf8)).keypad == nil)
        let keypad = try #require(try LockConfig.parse(Data(#"{"keypad": {"device": "/dev/input/by-id/usb-x-event-kbd"}}"#.utf8)).keypad)
        #expect(keypad.device == "/dev/input/by-id/usb-x-event-kbd")
        let settings = try keypad.entrySettings
        #expect(settings.minimumDigits == 4 && settings.maximumDigits == 12 && settings.pause == 5)
        let named = try #require(try LockConfig.parse(Data(#"{"keypad": {"device": "fpmod virtual keypad", "pauseSeconds": 8, "minimumDigits": 6}}"#.utf8)).keypad)
        #expect(named.pauseSeconds == 8 && named.minimumDigits == 6)
    }

    @Test func everyBadValueIsNamedAtOnce() {
        let found = problems(#"{"keypad": {"device": "", "pauseSeconds": 0, "minimumDigits": 40, "maximumDigits": "six", "beep": true}}"#)
        for key in ["keypad.device", "keypad.pauseSeconds", "keypad.minimumDigits", "keypad.maximumDigits", "beep"] {
            #expect(found.contains { $0.contains(key) }, "\(key) not named: \(found)")
        }
        #expect(problems(#"{"keypad": {}}"#).first?.contains("keypad.device") == true)
        #expect(problems(#"{"keypad": {"device": "k", "minimumDigits": 8, "maximumDigits": 6}}"#).first?.contains("no PIN could be typed") == true)
        #expect(problems(#"{"keypad": "/dev/input/event0"}"#).first?.contains("keypad") == true)
    }
}
