@testable import Diagnostics
import Testing

/// Doctor's NFC line, from fixture facts: skipped without a reader; each unusable node a
/// problem with its fix; a reader the service holds is said so (not "no reader");
/// an answering reader in uid mode a warning that UIDs can be copied.
struct NFCReaderCheckTests {
    func check(_ facts: NFCReaderFacts?) -> DoctorCheck {
        var all = DoctorFacts()
        all.nfcReader = facts
        return DoctorChecks.nfcReader(DoctorContext(all))
    }

    func facts(_ node: NFCReaderFacts.Node, _ answer: NFCReaderFacts.Answer = .notTried) -> NFCReaderFacts {
        var facts = NFCReaderFacts(connstring: "pn532_uart:/dev/ttyS0", mode: "uid", path: "/dev/ttyS0")
        facts.node = node
        facts.answer = answer
        return facts
    }

    @Test func noReaderIsSkipped() {
        #expect(check(nil).verdict == .skipped)
    }

    @Test func unusableNodesAreProblemsWithFixes() {
        let missing = check(facts(.missing))
        #expect(missing.verdict == .problem && missing.seen == "pn532_uart:/dev/ttyS0: /dev/ttyS0 does not exist.")
        #expect(missing.fix?.contains("raspi-config") == true)
        #expect(check(facts(.notADevice)).verdict == .problem)
        let denied = check(facts(.permissionDenied(group: "dialout")))
        #expect(denied.verdict == .problem && denied.fix?.contains("usermod -aG dialout") == true, "\(denied)")
    }

    @Test func answersAreJudged() {
        let answered = check(facts(.present, .answered))
        #expect(answered.verdict == .warning, "uid mode is said to be copyable")
        #expect(answered.seen.contains("a reader answered on pn532_uart:/dev/ttyS0") && answered.seen.contains("copy"), "\(answered.seen)")
        let held = check(facts(.present, .inUse))
        #expect(held.verdict == .ok && held.seen.contains("in use by another fpmod program"), "\(held.seen)")
        let failed = check(facts(.present, .failed("nfc_open(pn532_uart:/dev/ttyS0): no reader answered.")))
        #expect(failed.verdict == .problem && failed.seen.hasPrefix("nfc_open"))
        #expect(check(facts(.present, .failed("bad\u{1B}[2J"))).seen.contains("\u{1B}") == false, "nothing printed raw")
    }
}
