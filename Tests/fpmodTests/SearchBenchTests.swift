@testable import fpmod
import Benchmarks
import Foundation
import Testing

/// `fpmod bench --workload/--layout/--throughput/--auto-identify` on small libraries with
/// instant timing: the structure and internal consistency of what they report, never timings.
@Suite struct SearchBenchTests {
    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    @Test func workloadsReportEveryWorkloadConsistently() throws {
        let cli = CLI()
        let result = try cli.run(["bench", "--workload", "all", "--templates", "40", "--touches", "5", "--history", "300",
                                  "--timing", "instant", "--search-model", "both", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json)
        let workloads = try #require(json["workloads"] as? [[String: Any]])
        #expect(workloads.count == 8)
        #expect(Set(workloads.map { "\($0["workload"]!) \($0["search_model"]!)" }).count == 8)
        #expect(json["identify"] == nil, "workloads alone run no plain identify cycles")
        for entry in workloads {
            let name = "\(entry["workload"]!) \(entry["search_model"]!)"
            #expect(entry["templates"] as? Int == 40)
            #expect(entry["touches"] as? Int == 5)
            #expect((entry["misses"] as? [Any])?.isEmpty == true, "\(name): \(entry["misses"]!)")
            let identify = try #require(entry["identify"] as? [String: Any])
            let whole = try #require(entry["whole_range"] as? [String: Any])
            #expect(identify["count"] as? Int == 5 && whole["count"] as? Int == 5)
            let mean = try #require(Self.number(entry["mean_ms"])), p50 = try #require(Self.number(entry["p50_ms"]))
            let p99 = try #require(Self.number(entry["p99_ms"]))
            #expect(p50 <= p99 && mean <= p99 + 0.01)
            let ratio = try #require(Self.number(entry["meanRatioToWholeRange"]))
            let wholeMean = try #require(Self.number(whole["mean_ms"]))
            if wholeMean > 0.05 { #expect(abs(ratio - mean / wholeMean) < 0.01 + 0.05 * ratio, "\(name)") }
            let layout = try #require(entry["layout"] as? [String: Any])
            #expect(layout["flash_writes"] as? Int == 2 * (layout["moves"] as? Int ?? -1))
            #expect(entry["target"] == nil, "no target outside datasheet timing")
        }
        func entry(_ workload: String, _ model: String) -> [String: Any]? {
            workloads.first { $0["workload"] as? String == workload && $0["search_model"] as? String == model }
        }
        let regulars = try #require(entry("regulars", "best-match"))
        let order = try #require(regulars["search_order"] as? [String: Any])
        #expect(order["mode"] as? String == "regulars-first")
        #expect((order["hot_set"] as? Int ?? 0) > 0)
        #expect(((regulars["layout"] as? [String: Any])?["moves"] as? Int ?? 0) > 0, "a shuffled library needs moves")
        // Strangers are measured on the regulars' layout and order.
        let strangers = try #require(entry("strangers", "best-match"))
        #expect((strangers["search_order"] as? [String: Any])?["plan"] as? String == order["plan"] as? String)
    }

    @Test func layoutThroughputAndAutoIdentifyReportTheirParts() throws {
        let cli = CLI()
        let result = try cli.run(["bench", "--layout", "--throughput", "--auto-identify", "--templates", "40", "--touches", "2",
                                  "--timing", "instant", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json)
        let layout = try #require(json["layout"] as? [String: Any])
        let phases = try #require(layout["phases"] as? [[String: Any]])
        #expect(phases.count == 2)
        for phase in phases {
            #expect(phase["flash_writes"] as? Int == 2 * (phase["moves"] as? Int ?? -1))
            #expect((phase["moves"] as? Int ?? 0) <= (phase["moves_planned"] as? Int ?? 0))
        }
        #expect((phases[0]["moves"] as? Int ?? 0) > 0)
        #expect((phases[1]["phase"] as? String)?.contains("followed") == true)

        let rows = try #require(json["throughput"] as? [[String: Any]])
        #expect(rows.map { "\($0["operation"]!) \($0["baud"]!)" } == ["restore 57600", "sync 57600", "restore 115200", "sync 115200"])
        #expect(rows.allSatisfy { $0["templates"] as? Int == 40 && (Self.number($0["templates_per_second"]) ?? 0) > 0 })

        let auto = try #require(json["auto_identify"] as? [String: Any])
        #expect(auto["profile"] as? String == "r503")
        let outcomes = try #require(auto["outcomes"] as? [[String: Any]])
        #expect(outcomes.map { $0["situation"] as? String ?? "" } == ["match", "stranger", "poor image", "no finger"])
        for outcome in outcomes { #expect(outcome["three_commands"] as? String == outcome["auto_identify"] as? String) }
        let faster = auto["faster"] as? Bool ?? false, same = auto["same_outcomes"] as? Bool ?? false
        let documented = try #require(auto["documented_differences"] as? [String])
        #expect(!documented.isEmpty, "the R50x manual says no finger waits 10 s")
        #expect(auto["default"] as? String == (faster && same && documented.isEmpty ? "auto-identify" : "three-commands"))
    }
}
