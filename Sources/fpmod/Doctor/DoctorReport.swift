import Foundation
import ArgumentParsing
import Diagnostics

/// The checklist as people and scripts read it.
enum DoctorReport {
    /// One line per check (`✓ Title   seen`), the fix on an indented line below it, and a summary.
    static func text(_ checks: [DoctorCheck]) -> String {
        let width = (checks.map(\.title.count).max() ?? 0) + 2
        var lines: [String] = []
        for check in checks {
            let padded = check.title.padding(toLength: width, withPad: " ", startingAt: 0)
            let seen = check.verdict == .skipped ? "skipped: " + check.seen : check.seen
            lines.append("\(check.verdict.symbol) \(padded)\(seen)")
            if let fix = check.fix, check.verdict != .ok, check.verdict != .skipped {
                lines.append(String(repeating: " ", count: width + 2) + "fix: " + fix)
            }
        }
        lines.append("")
        lines.append(summary(checks))
        return lines.joined(separator: "\n")
    }

    /// "7 ok, 1 warning, 1 problem, 8 skipped." plus what the exit status means.
    static func summary(_ checks: [DoctorCheck]) -> String {
        func count(_ verdict: DoctorVerdict, _ singular: String, _ plural: String) -> String {
            let n = checks.filter { $0.verdict == verdict }.count
            return "\(n) \(n == 1 ? singular : plural)"
        }
        let counts = [count(.ok, "ok", "ok"), count(.warning, "warning", "warnings"),
                      count(.problem, "problem", "problems"), count(.skipped, "skipped", "skipped")].joined(separator: ", ")
        let problems = checks.contains { $0.verdict == .problem }
        return counts + (problems ? ". Fix the ✗ items first, top to bottom, then run fpmod doctor again." : ".")
    }

    /// `[{"id":…,"title":…,"verdict":"ok|warning|problem|skipped","seen":…,"fix":…|null}, …]`.
    static func json(_ checks: [DoctorCheck]) -> JSONValue {
        .array(checks.map { check in
            .object([
                "id": .string(check.id),
                "title": .string(check.title),
                "verdict": .string(check.verdict.rawValue),
                "seen": .string(check.seen),
                "fix": check.fix.map(JSONValue.string) ?? .null,
            ])
        })
    }
}
