@testable import Diagnostics
import Testing

/// Doctor's Wiegand line: skipped without a reader or panel; a problem naming both keys when a
/// data line is another role's (by offset or by the preset's line name) or the other data line;
/// ok otherwise.
struct WiegandLinesCheckTests {
    typealias Use = WiegandLineFacts.Use

    func check(_ facts: WiegandLineFacts?) -> DoctorCheck {
        var all = DoctorFacts()
        all.wiegandLines = facts
        return DoctorChecks.wiegandLines(DoctorContext(all))
    }

    static let door = [Use(key: "relay", line: "17", alias: "relay"), Use(key: "touch", line: "27", alias: "touch")]

    @Test func noReaderOrPanelIsSkipped() {
        #expect(check(nil).verdict == .skipped)
    }

    @Test func linesOfTheirOwnAreOK() {
        var facts = WiegandLineFacts()
        facts.wiegand = [Use(key: "wiegand.d0", line: "20"), Use(key: "wiegand.d1", line: "21"),
                         Use(key: "wiegandOut.d0", line: "19"), Use(key: "wiegandOut.d1", line: "26")]
        facts.door = Self.door
        let found = check(facts)
        #expect(found.verdict == .ok)
        #expect(found.seen.hasPrefix("wiegand.d0 20, wiegand.d1 21, wiegandOut.d0 19, wiegandOut.d1 26; no other role"))
    }

    @Test func aLineSharedWithTheRelayOrTheOtherDataLineIsAProblem() {
        var facts = WiegandLineFacts()
        facts.wiegand = [Use(key: "wiegand.d0", line: "17"), Use(key: "wiegand.d1", line: "touch"),
                         Use(key: "wiegandOut.d0", line: "19"), Use(key: "wiegandOut.d1", line: "19")]
        facts.door = Self.door
        let found = check(facts)
        #expect(found.verdict == .problem)
        #expect(found.seen == "wiegand.d0 and relay are both line 17 (relay); wiegand.d1 and touch are both line 27 (touch); wiegandOut.d0 and wiegandOut.d1 are both line 19.")
        #expect(found.fix?.contains("fpmod config check") == true)
    }
}
