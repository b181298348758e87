import JSONValue
import FingerprintModule
import FingerprintProtocol
import ModuleSimulator

/// The stages of one identify cycle, in order, plus the whole cycle.
public enum Stage: String, CaseIterable {
    case capture, extract, search
    /// From the Search reply decoded to "open / do not open": the host's own decision.
    case decision
    /// The sum of the above, as the door loop sees it.
    case total
}

/// One stage of one cycle: what the host clock measured, and what the wire and module allow.
public struct StageSample {
    /// Stage start to stage end.
    public var measured: Int64
    /// Wire time of the bytes at the port's baud plus the module's own time; nil when the
    /// module's time is unknown (real hardware).
    public var limit: Int64?
    /// Time spent in host code: stage start → command written, reply decoded → stage end.
    /// The rest of `measured − limit` is wake-up and scheduling slack (on the simulator, the
    /// simulator's own timer granularity is part of it).
    public var hostCode: Int64
}

/// What a perfect host would see: wire time both ways plus the module's processing time.
public struct LimitModel {
    /// The simulator's timing model; nil for real hardware, whose own time is unknown.
    public var timing: TimingModel?
    /// A UART delays the host's bytes too; a pseudo-terminal delivers them at once (the
    /// simulator paces only its replies), so on the simulator they are not part of the limit.
    public var pacesHostToModule: Bool

    public func wire(sent: Int, received: Int, baudRate: Int) -> Int64 {
        Int64(WireTime.nanoseconds(bytes: received + (pacesHostToModule ? sent : 0), baudRate: baudRate))
    }

    /// The module's time for one stage's command, nil when unknown.
    public func moduleTime(_ stage: Stage, templatesSearched: Int) -> Int64? {
        guard let timing else { return nil }
        let duration: Duration = switch stage {
        case .capture: timing.captureDuration(fingerPresent: true)
        case .extract: timing.extractDuration()
        case .search: timing.searchDuration(templates: templatesSearched)
        case .decision, .total: .zero
        }
        return duration.nanoseconds
    }

    /// The limit of one exchange-backed stage.
    public func limit(_ stage: Stage, record: ExchangeRecord, templatesSearched: Int) -> Int64? {
        guard let module = moduleTime(stage, templatesSearched: templatesSearched) else { return nil }
        return module + wire(sent: record.bytesSent, received: record.bytesReceived, baudRate: record.baudRate)
    }
}

/// Percentiles of one stage over all cycles, with the limit and the host's share.
public struct StageSummary {
    public let stage: Stage
    public let measured: Distribution
    public let limit: Distribution?
    /// measured − limit, per cycle.
    public let overhead: Distribution?
    public let hostCode: Distribution?

    public init?(stage: Stage, samples: [StageSample]) {
        guard let measured = Distribution(samples.map(\.measured)) else { return nil }
        self.stage = stage
        self.measured = measured
        let limits = samples.compactMap(\.limit)
        let complete = limits.count == samples.count
        limit = complete ? Distribution(limits) : nil
        overhead = complete ? Distribution(samples.map { $0.measured - $0.limit! }) : nil
        hostCode = Distribution(samples.map(\.hostCode))
    }

    /// measured p50 / limit p50; nil without a limit or with a zero limit (the decision stage).
    public var ratio: Double? {
        guard let limit, limit.p50 > 0 else { return nil }
        return Double(measured.p50) / Double(limit.p50)
    }
}

extension Duration {
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

extension Distribution {
    public var json: JSONValue {
        .object(["count": .int(Int64(count)), "p50_ms": .double(DurationText.milliseconds(p50)),
                 "p95_ms": .double(DurationText.milliseconds(p95)), "p99_ms": .double(DurationText.milliseconds(p99)),
                 "max_ms": .double(DurationText.milliseconds(max)), "mean_ms": .double((mean / 1e4).rounded() / 100)])
    }
}

extension StageSummary {
    public var json: JSONValue {
        var object: [String: JSONValue] = ["stage": .string(stage.rawValue), "measured": measured.json]
        object["limit"] = limit?.json ?? .null
        object["overhead"] = overhead?.json ?? .null
        object["host_code"] = hostCode?.json ?? .null
        object["ratio_measured_to_limit"] = ratio.map { .double(($0 * 1000).rounded() / 1000) } ?? .null
        return .object(object)
    }
}
