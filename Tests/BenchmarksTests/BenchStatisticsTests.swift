@testable import Benchmarks
import Testing

@Suite struct BenchStatisticsTests {
    @Test func percentilesAreNearestRankOfMeasuredValues() throws {
        let samples: [Int64] = Array(1...100).reversed().map { Int64($0) * 1000 }
        let distribution = try #require(Distribution(samples))
        #expect(distribution.count == 100)
        #expect(distribution.p50 == 50_000)
        #expect(distribution.p95 == 95_000)
        #expect(distribution.p99 == 99_000)
        #expect(distribution.max == 100_000)
        #expect(distribution.mean == 50_500)
    }

    @Test func fewSamplesGiveTheLargestForHighPercentiles() throws {
        let distribution = try #require(Distribution([30, 10, 20]))
        #expect(distribution.p50 == 20)
        #expect(distribution.p95 == 30)
        #expect(distribution.p99 == 30)
    }

    @Test func noSamplesMeansNoDistribution() {
        #expect(Distribution([]) == nil)
    }

    @Test func overheadIsMeasuredMinusLimitPerSample() throws {
        let samples = [StageSample(measured: 10_000_000, limit: 9_000_000, hostCode: 100_000),
                       StageSample(measured: 12_000_000, limit: 9_000_000, hostCode: 300_000)]
        let summary = try #require(StageSummary(stage: .capture, samples: samples))
        #expect(summary.overhead?.p50 == 1_000_000)
        #expect(summary.overhead?.max == 3_000_000)
        #expect(summary.hostCode?.max == 300_000)
        let ratio = try #require(summary.ratio)
        #expect(abs(ratio - 10.0 / 9.0) < 1e-9)
    }

    @Test func anUnknownLimitLeavesOverheadUnknown() throws {
        let samples = [StageSample(measured: 5, limit: nil, hostCode: 1), StageSample(measured: 6, limit: 4, hostCode: 1)]
        let summary = try #require(StageSummary(stage: .search, samples: samples))
        #expect(summary.limit == nil)
        #expect(summary.overhead == nil)
        #expect(summary.ratio == nil)
    }

    @Test func durationsFormatWithFixedDigits() {
        #expect(DurationText.fixed(1.005, digits: 2) == "1.01" || DurationText.fixed(1.005, digits: 2) == "1.00")
        #expect(DurationText.fixed(-0.5, digits: 1) == "-0.5")
        #expect(DurationText.fixed(12, digits: 0) == "12")
        #expect(DurationText.fixed(0.07, digits: 2) == "0.07")
        #expect(DurationText.format(412_000) == "412 µs")
        #expect(DurationText.format(3_270_000) == "3.27 ms")
        #expect(DurationText.format(1_204_000_000) == "1.204 s")
    }

    @Test func tableAlignsNumbersRightAndNamesLeft() {
        var table = TextTable(["stage", "p50"])
        table.add(["capture", "1.00"])
        table.add(["search", "123.45"])
        #expect(table.rendered() == """
            stage       p50
            -------  ------
            capture    1.00
            search   123.45

            """)
        #expect(table.markdown().hasPrefix("| stage | p50 |\n|---|---:|\n| capture | 1.00 |"))
    }

    @Test func cpuTicksComeFromFields14And15EvenWithSpacesInTheName() {
        let stat = "4242 (fpmod run x) S 1 4242 4242 0 -1 4194560 500 0 0 0 17 4 0 0 20 0 3 0 100 0 0"
        #expect(IdleBench.parseCPUTicks(stat: stat) == 21)
        #expect(IdleBench.parseCPUTicks(stat: "garbage") == nil)
    }

    @Test func theLimitCountsHostBytesOnlyWhenTheLinePacesThem() {
        let uart = LimitModel(timing: nil, pacesHostToModule: true)
        let pty = LimitModel(timing: nil, pacesHostToModule: false)
        #expect(uart.wire(sent: 12, received: 12, baudRate: 57600) == 4_166_666)
        #expect(pty.wire(sent: 12, received: 12, baudRate: 57600) == 2_083_333)
        #expect(uart.moduleTime(.capture, templatesSearched: 0) == nil)
    }
}
