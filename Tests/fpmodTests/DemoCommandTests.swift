import Foundation
import Testing

/// `fpmod demo` as a user runs it: the real binary, the whole service on the simulator.
@Suite(.serialized) struct DemoCommandTests {
    @Test func theDemoTellsEveryScenesResultAndExitsZero() throws {
        let cli = CLI()
        let tmp = cli.directory + "/tmp"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let result = try cli.run(["demo", "--fast"], environment: ["TMPDIR": tmp])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let out = result.stdout
        for heading in 1...7 { #expect(out.contains("Scene \(heading): "), "scene \(heading) missing") }
        #expect(out.contains("✔ enroll-completed: alice's right-index"))
        #expect(out.contains("✔ enroll-completed: bob's left-index"))
        #expect(out.contains("bob enrolls left-index as a duress finger"))
        #expect(out.contains("✔ match: alice"))
        #expect(out.contains("✔ door closed → relay off"))
        #expect(out.contains("event: lockout failures=5 seconds=10"))  // DemoScript.lockoutSeconds
        #expect(out.contains("✔ PIN cleared the lockout"))
        #expect(out.contains("event: lockout-cleared"))
        #expect(out.contains("event: door-held-open"))
        #expect(out.contains("✔ held-open alarm"))
        #expect(out.contains("(silent, not on the events socket) duress user=bob"))
        #expect(out.contains("pager (hooks.onDuress): DURESS user=bob"))
        #expect(out.contains("module + wire limit"))
        #expect(out.contains("✔ latency table: 3 unlocks measured"))
        // One table row per unlock, each with a number in every measured column.
        let rows = out.split(separator: "\n").filter { $0.hasPrefix("  alice, scene") || $0.hasPrefix("  bob (duress)") }
        #expect(rows.count == 3)
        for row in rows { #expect(row.split(separator: " ").suffix(7).allSatisfy { Double($0) != nil }, "row: \(row)") }
        // Everything it wrote is gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
    }

    @Test func theDemosHelpNamesFast() throws {
        let result = try CLI().run(["demo", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("--fast"))
    }
}
