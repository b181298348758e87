import Benchmarks
import Testing

/// `fpmod bench --credentials`, small: a real `fpmod run --sim --sim-gpio` per row, its decisions
/// read off the control socket. What is checked is that every row was measured and decided as
/// expected (a known card opens, an unknown one is refused, the last user's PIN opens), never how fast.
struct CredentialBenchTests {
    @Test func everyRowIsMeasuredWithTheExpectedDecision() {
        let result = CredentialBench.run(executable: CLI.binary, sizes: [3], pinUsers: [2], presentations: 3) { _ in }
        #expect(result.notes.filter { $0.contains("not measured") }.isEmpty, "\(result.notes)")
        let rendered = result.table.rendered()
        #expect(rendered.contains("card (known) to relay") && rendered.contains("unlocked"), "\(rendered)")
        #expect(rendered.contains("card (unknown) to refusal") && rendered.contains("denied"), "\(rendered)")
        #expect(rendered.contains("PIN to relay"), "\(rendered)")
        guard case let .object(json) = result.json, case let .array(rows)? = json["rows"] else {
            Issue.record("no rows in \(result.json)")
            return
        }
        #expect(rows.count == 3)
    }
}
