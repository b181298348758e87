import FingerprintModule
import FingerprintProtocol
import ModuleSimulator
import Posix

/// Bulk transfers against the wire: payload throughput measured vs the throughput the wire
/// (and the module's short set-up time) allows for the same bytes, framing included.
public struct TransferBench {
    public let target: BenchTarget

    public enum Kind: String { case upChar = "UpChar", downChar = "DownChar", upImage = "UpImage" }

    public struct Sample {
        public var payloadBytes: Int
        public var measured: Int64
        /// Nil when the module's time is unknown (real hardware).
        public var limit: Int64?
    }

    public struct Summary {
        public let kind: Kind
        public let packetSize: Int
        public let baudRate: Int
        public let samples: [Sample]

        public var measured: Distribution { Distribution(samples.map(\.measured))! }
        public var payloadBytes: Int { samples.first?.payloadBytes ?? 0 }
        /// Payload bytes per second at the median.
        public var throughput: Double { Double(payloadBytes) / (Double(measured.p50) / 1e9) }
        public var limitThroughput: Double? {
            guard let limits = Distribution(samples.compactMap(\.limit)), limits.count == samples.count, limits.p50 > 0 else { return nil }
            return Double(payloadBytes) / (Double(limits.p50) / 1e9)
        }
        /// Measured throughput as a share of the wire-limited one (target ≥ 95 %).
        public var shareOfLimit: Double? { limitThroughput.map { throughput / $0 } }
    }

    /// `count` transfers of `kind`. The bench finger's template (or a fresh capture, for
    /// images) is loaded first, outside the timed part.
    public func run(_ kind: Kind, count: Int) throws -> Summary {
        let module = target.module
        let log = ExchangeLog()
        let previousObserver = module.exchangeObserver
        module.exchangeObserver = log.record
        defer { module.exchangeObserver = previousObserver }
        let slot = module.indexTable?.occupied.max() ?? 0
        var template: [UInt8] = []
        if kind != .upImage {
            try module.loadTemplate(slot: slot)
            template = try module.uploadTemplate()
        } else {
            _ = try module.captureImage()
        }
        var samples: [Sample] = []
        for _ in 0..<count {
            if kind == .upChar { try module.loadTemplate(slot: slot) }
            log.removeAll()
            let start = Monotonic.nanoseconds()
            let payload: Int
            switch kind {
            case .upChar: payload = try module.uploadTemplate().count
            case .upImage: payload = try module.uploadImage().nibbles().count
            case .downChar:
                try module.downloadTemplate(template)
                // The module acknowledges no data packet: the next ack proves the bytes were taken.
                _ = try module.templateCount()
                payload = template.count
            }
            let end = Monotonic.nanoseconds()
            samples.append(Sample(payloadBytes: payload, measured: Int64(end - start), limit: limit(kind, log.records)))
        }
        return Summary(kind: kind, packetSize: module.packetSize ?? 0, baudRate: module.transport.baudRate, samples: samples)
    }

    /// Wire time of every byte of the transfer plus the module's time for its commands.
    private func limit(_ kind: Kind, _ records: [ExchangeRecord]) -> Int64? {
        guard let timing = target.limits.timing, let baud = records.first?.baudRate else { return nil }
        let sent = records.map(\.bytesSent).reduce(0, +)
        let received = records.map(\.bytesReceived).reduce(0, +)
        var module: Duration = .zero
        for record in records where record.code != nil {
            let command: Command = switch record.instruction {
            case .upChar: .upChar(buffer: 1)
            case .downChar: .downChar(buffer: 1)
            case .upImage: .upImage
            default: Command(record.instruction)
            }
            module += timing.moduleDuration(for: command, state: TimingState())
        }
        return module.nanoseconds + target.limits.wire(sent: sent, received: received, baudRate: baud)
    }
}
