import ArgumentParsing
@testable import Diagnostics
@testable import fpmod
import Testing

@Suite struct DoctorReportTests {
    let checks = [
        DoctorCheck("board", "Board", .ok, "Raspberry Pi 4 Model B Rev 1.4: the rpi4 preset fits."),
        DoctorCheck("uart.device", "UART on pins 8/10", .warning, "/dev/serial0 → ttyS0, the mini UART.", fix: "dtoverlay=disable-bt"),
        DoctorCheck("uart.console", "Serial console", .problem, "console=serial0 in cmdline.txt.", fix: "Remove it."),
        DoctorCheck("module", "Module", .skipped, "not contacted."),
    ]

    @Test func textHasMarksFixesAndSummary() {
        let text = DoctorReport.text(checks)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("✓ Board "))
        #expect(lines[1].hasPrefix("! UART on pins 8/10  /dev/serial0"))
        #expect(lines[2] == "                     fix: dtoverlay=disable-bt")
        #expect(lines[3].hasPrefix("✗ Serial console "))
        #expect(lines[5].hasPrefix("- Module") && lines[5].contains("skipped: not contacted."))
        #expect(text.hasSuffix("1 ok, 1 warning, 1 problem, 1 skipped. Fix the ✗ items first, top to bottom, then run fpmod doctor again."))
        #expect(DoctorChecks.exitStatus(checks) == 1)
        #expect(DoctorChecks.exitStatus(Array(checks.prefix(2))) == 0)
    }

    @Test func jsonIsAnArrayOfChecks() {
        let json = DoctorReport.json(checks)
        guard case .array(let items) = json else {
            Issue.record("not an array: \(json.encoded)")
            return
        }
        #expect(items.count == 4)
        #expect(items[2] == .object(["id": "uart.console", "title": "Serial console", "verdict": "problem",
                                     "seen": "console=serial0 in cmdline.txt.", "fix": "Remove it."]))
        #expect(items[0].encoded.contains("\"fix\":null"))
    }
}
