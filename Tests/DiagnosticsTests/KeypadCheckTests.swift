@testable import Diagnostics
import Testing

/// Doctor's keypad line: skipped without a keypad in the config; a problem with the fix when the
/// named keypad is not there, cannot be read, or has no digits; ok otherwise. Device names are
/// shown escaped.
struct KeypadCheckTests {
    func check(_ keypad: KeypadFacts?) -> DoctorCheck {
        var facts = DoctorFacts()
        facts.user = UserFacts(name: "alice", uid: 1000, sessionGroups: ["alice"], accountGroups: ["alice"])
        facts.keypad = keypad
        return DoctorChecks.keypad(DoctorContext(facts))
    }

    @Test func noKeypadConfiguredIsSkipped() {
        #expect(check(nil).verdict == .skipped)
    }

    @Test func aKeypadThatIsNotHereIsAProblemListingTheOthers() {
        var facts = KeypadFacts(spec: "front door keypad")
        facts.keypads = ["USB Keypad (/dev/input/event3)"]
        let found = check(facts)
        #expect(found.verdict == .problem)
        #expect(found.seen == "the config names \"front door keypad\", which is not here (keypads here: USB Keypad (/dev/input/event3)).")
        #expect(found.fix?.contains("fpmod keypad list") == true)
    }

    @Test func anUnreadableKeypadGetsTheGroupFix() {
        var facts = KeypadFacts(spec: "/dev/input/event3")
        facts.path = "/dev/input/event3"
        facts.problem = "Not allowed to read /dev/input/event3."
        facts.permissionDenied = true
        let found = check(facts)
        #expect(found.verdict == .problem)
        #expect(found.fix == "sudo usermod -aG input alice, then log out and back in.")
    }

    @Test func aDeviceWithoutDigitsAndAGoodKeypad() {
        var mouse = KeypadFacts(spec: "/dev/input/event1")
        mouse.path = "/dev/input/event1"
        mouse.name = "Mouse\u{1B}[2J"
        mouse.problem = "it has no digit keys, so it is not a keypad"
        let refused = check(mouse)
        #expect(refused.verdict == .problem && !refused.seen.contains("\u{1B}"), "\(refused.seen)")
        var keypad = KeypadFacts(spec: "fpmod-keypad")
        keypad.path = "/dev/input/event0"
        keypad.name = "fpmod-keypad"
        #expect(check(keypad).verdict == .ok)
        #expect(check(keypad).seen.hasPrefix("fpmod-keypad (/dev/input/event0) has digit keys"))
    }
}
