import FingerprintModule
import FingerprintProtocol
import Posix

/// N identify cycles (GenImg → Img2Tz → Search, then the host's decision), each split into
/// stages with the exchange records of the driver, and set against the wire + module limit.
public struct IdentifyBench {
    public let target: BenchTarget
    /// The Search range: the occupied range by default, or the whole library for the sweep.
    public let range: Range<Int>

    public struct Result {
        public var samples: [Stage: [StageSample]] = [:]
        /// Cycles that did not end in a match (a miss is reported, not hidden).
        public var misses = 0
        public var cycles = 0
        public var summaries: [StageSummary] { Stage.allCases.compactMap { StageSummary(stage: $0, samples: samples[$0] ?? []) } }
    }

    public func run(cycles: Int) throws -> Result {
        let module = target.module
        let log = ExchangeLog()
        let previousObserver = module.exchangeObserver
        module.exchangeObserver = log.record
        defer { module.exchangeObserver = previousObserver }
        let searched = target.templatesSearched(in: range)
        // The decision a door makes: whose finger is it, and may they come in.
        var owners: [Int: String] = [:]
        for slot in module.indexTable?.occupied ?? [] { owners[slot] = "user-\(slot)" }

        var result = Result()
        for _ in 0..<cycles {
            log.removeAll()
            var timing = IdentifyTiming()
            let outcome = try module.identify(range: range, timing: &timing)
            let granted: Bool
            if case let .match(slot, _) = outcome, let owner = owners[slot] {
                granted = !owner.isEmpty
            } else {
                granted = false
            }
            let decided = Monotonic.nanoseconds()
            result.cycles += 1
            guard granted else {
                result.misses += 1
                continue
            }
            // One record per stage; a retried exchange leaves two and the later one counts.
            let records = log.records
            func last(_ instruction: Instruction) -> ExchangeRecord? { records.last { $0.instruction == instruction } }
            guard let capture = last(.genImg), let extract = last(.img2Tz), let search = last(.search) else {
                result.misses += 1
                continue
            }
            let stages: [(Stage, ExchangeRecord, UInt64, UInt64)] = [
                (.capture, capture, timing.captureStart, timing.captureEnd),
                (.extract, extract, timing.captureEnd, timing.extractEnd),
                (.search, search, timing.extractEnd, timing.searchEnd),
            ]
            var totalLimit: Int64? = 0
            var totalHost: Int64 = 0
            for (stage, record, start, end) in stages {
                let limit = target.limits.limit(stage, record: record, templatesSearched: searched)
                let host = Int64(record.sentAt) - Int64(start) + Int64(end) - Int64(record.doneAt)
                result.samples[stage, default: []].append(
                    StageSample(measured: Int64(end - start), limit: limit, hostCode: host))
                totalLimit = totalLimit.flatMap { sum in limit.map { sum + $0 } }
                totalHost += host
            }
            let decision = Int64(decided - timing.searchEnd)
            result.samples[.decision, default: []].append(StageSample(measured: decision, limit: 0, hostCode: decision))
            result.samples[.total, default: []].append(
                StageSample(measured: Int64(decided - timing.captureStart), limit: totalLimit, hostCode: totalHost + decision))
        }
        return result
    }
}
