/// What the soak counted, one stretch (a report interval) at a time, and the resources sampled
/// at the end of each. Pure bookkeeping: `SoakBench` fills it, `SoakReport` reads it.
public struct SoakLedger: Sendable {
    /// One report interval.
    public struct Stretch: Sendable {
        public var endSeconds: Double = 0
        /// Presentations (finger or PIN) the door decided.
        public var decisions = 0
        /// Decisions that opened for the wrong person, for a stranger, a deleted user or a wrong PIN.
        public var wrong = 0
        /// Presentations of a right credential the door did not decide in time or refused
        /// (each during or just after a fault, where a refusal is the safe answer).
        public var missed = 0
        /// Touch (or PIN request) to decision, as the soak saw it, in nanoseconds.
        public var latencies: [Int64] = []
        public var queries = 0
        public var failedQueries = 0
        public var enrolled = 0
        public var deleted = 0
        public var failedAdministration = 0
        public var faults = 0
        public var sample: Sample?
    }

    /// The service's footprint at the end of a stretch.
    public struct Sample: Sendable {
        public var rssKiB: Int
        public var descriptors: Int
        public var threads: Int
        public var walBytes: Int
        public var auditRows: Int64
        /// Which run of the service (1 for the first start): growth is judged within one run.
        public var serviceRun: Int
    }

    public private(set) var stretches: [Stretch] = [Stretch()]
    /// Each wrong decision in words, for the report.
    public private(set) var wrongDecisions: [String] = []
    public private(set) var faultsByKind: [String: Int] = [:]

    public init() {}

    var current: Stretch {
        get { stretches[stretches.count - 1] }
        set { stretches[stretches.count - 1] = newValue }
    }

    mutating func decided(latency: Int64) {
        current.decisions += 1
        current.latencies.append(latency)
    }

    mutating func wrong(_ what: String, latency: Int64) {
        decided(latency: latency)
        current.wrong += 1
        wrongDecisions.append(what)
    }

    mutating func missed() { current.missed += 1 }

    mutating func query(ok: Bool) {
        current.queries += 1
        if !ok { current.failedQueries += 1 }
    }

    mutating func administration(enrolled: Bool = false, deleted: Bool = false, failed: Bool = false) {
        if enrolled { current.enrolled += 1 }
        if deleted { current.deleted += 1 }
        if failed { current.failedAdministration += 1 }
    }

    /// Faults that could not be injected (no sqlite3 shell, or the store stayed busy).
    public private(set) var skippedFaults: [String: Int] = [:]

    mutating func skipped(_ kind: SoakMix.Fault) { skippedFaults[kind.rawValue, default: 0] += 1 }

    mutating func fault(_ kind: SoakMix.Fault) {
        current.faults += 1
        faultsByKind[kind.rawValue, default: 0] += 1
    }

    /// Closes the current stretch at `seconds` with its sample and opens the next.
    mutating func close(at seconds: Double, sample: Sample?) {
        current.endSeconds = seconds
        current.sample = sample
        stretches.append(Stretch())
    }

    /// The stretches that were closed.
    public var closed: [Stretch] { Array(stretches.dropLast()) }
}
