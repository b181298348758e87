@testable import Benchmarks
import Testing

/// The soak's pure parts: the seeded mix and the verdict. The soak itself runs real processes
/// (`tools/soak.sh`, CI's soak tier).
@Suite struct SoakTests {
    @Test func theSameSeedDrawsTheSameTrafficAndFaults() {
        var first = SoakMix(seed: 27), second = SoakMix(seed: 27), other = SoakMix(seed: 28)
        let a = (0..<200).map { _ in first.nextAction { _ in true } }
        let b = (0..<200).map { _ in second.nextAction { _ in true } }
        let c = (0..<200).map { _ in other.nextAction { _ in true } }
        #expect(a == b)
        #expect(a != c)
        #expect((0..<10).map { _ in first.nextLightFault() } == (0..<10).map { _ in second.nextLightFault() })
    }

    @Test func everyLightFaultComesOncePerRound() {
        var mix = SoakMix(seed: 5)
        for _ in 0..<4 {
            let round = (0..<SoakMix.lightFaults.count).map { _ in mix.nextLightFault() }
            #expect(Set(round) == Set(SoakMix.lightFaults))
        }
    }

    @Test func actionsThatCannotHappenAreNeverDrawn() {
        var mix = SoakMix(seed: 9)
        let drawn = Set((0..<2_000).map { _ in mix.nextAction { $0 != .delete && $0 != .deletedFinger } })
        #expect(!drawn.contains(.delete))
        #expect(!drawn.contains(.deletedFinger))
        #expect(drawn.contains(.regular))
        #expect(drawn.contains(.stranger))
        #expect(mix.nextAction { _ in false } == .status)
    }

    @Test func theServiceIsKilledOnceInAShortRunAndTwiceInALongOne() {
        #expect(SoakMix.killTimes(duration: 120) == [60])
        #expect(SoakMix.killTimes(duration: 3_600) == [1_200, 2_400])
    }

    static func sample(rss: Int = 40_000, fds: Int = 13, threads: Int = 3, wal: Int = 1 << 20, run: Int = 1) -> SoakLedger.Sample {
        SoakLedger.Sample(rssKiB: rss, descriptors: fds, threads: threads, walBytes: wal, auditRows: 10, serviceRun: run)
    }

    static func report(_ ledger: SoakLedger, announced: [String: Int] = ["unlocked": 2], audited: [String: Int] = ["granted": 2]) -> SoakReport {
        SoakReport(ledger: ledger, duration: 60, announced: announced, audited: audited, serviceRuns: 1, seed: 1)
    }

    static func quietLedger() -> SoakLedger {
        var ledger = SoakLedger()
        ledger.decided(latency: 1_000_000)
        ledger.close(at: 30, sample: sample())
        ledger.decided(latency: 2_000_000)
        ledger.close(at: 60, sample: sample(rss: 41_000))
        return ledger
    }

    @Test func aQuietRunPasses() {
        let report = Self.report(Self.quietLedger())
        #expect(report.passed, "\(report.problems)")
        #expect(report.table.rows.count == 3)
    }

    @Test func oneWrongDecisionFailsTheRunAndIsNamed() {
        var ledger = Self.quietLedger()
        ledger.wrong("stranger-7 (enrolled nowhere) opened the door as soak-user-2", latency: 1)
        ledger.close(at: 70, sample: Self.sample())
        let report = Self.report(ledger, announced: ["unlocked": 3], audited: ["granted": 3])
        #expect(!report.passed)
        #expect(report.problems.contains { $0.contains("1 wrong decision") && $0.contains("stranger-7") })
    }

    @Test func aDecisionWithoutItsAuditRowFailsTheRun() {
        let report = Self.report(Self.quietLedger(), announced: ["unlocked": 2, "no-match": 4, "locked": 9],
                                 audited: ["granted": 2, "no-match": 3, "match": 2])
        #expect(!report.passed)
        #expect(report.problems == ["decisions and audit rows differ: no-match: 4 events, 3 audit rows (no-match)"])
    }

    @Test func growthPastABoundWithinOneRunFailsButARestartStartsAfresh() {
        var ledger = SoakLedger()
        ledger.decided(latency: 1)
        ledger.close(at: 10, sample: Self.sample(rss: 40_000, fds: 13, run: 1))
        ledger.close(at: 20, sample: Self.sample(rss: 40_000 + SoakReport.rssGrowthBoundKiB + 1, fds: 13 + SoakReport.descriptorGrowthBound + 1, run: 1))
        // A new run begins lower than the last one ended: not growth.
        ledger.close(at: 30, sample: Self.sample(rss: 40_000, run: 2))
        ledger.close(at: 40, sample: Self.sample(rss: 40_100, wal: SoakReport.walBoundBytes + 1, run: 2))
        let report = Self.report(ledger, announced: ["unlocked": 1], audited: ["granted": 1])
        #expect(report.problems.count == 3, "\(report.problems)")
        #expect(report.problems.contains { $0.hasPrefix("run 1 of the service grew by 8 MiB") })
        #expect(report.problems.contains { $0.hasPrefix("run 1 of the service holds 3 more file descriptors") })
        #expect(report.problems.contains { $0.hasPrefix("the write-ahead log reached") })
    }
}
