import FingerprintProtocol

/// One command/reply round trip, stamped with `Monotonic.nanoseconds()` so `fpmod bench` can
/// split host time, wire time and module time:
/// wire ≈ (bytesSent + bytesReceived) × 10 / baud; module ≈ (firstByteAt − sentAt) − wire of the
/// command; host = everything the caller measures outside `sentAt…doneAt`.
public struct ExchangeRecord: Sendable, Equatable {
    public var instruction: Instruction
    /// Bytes written (command frame, or data packets for a download).
    public var bytesSent: Int
    /// Bytes read during the exchange, garbage included.
    public var bytesReceived: Int
    /// When the write returned.
    public var sentAt: UInt64
    /// When the first reply byte was read; nil if nothing came.
    public var firstByteAt: UInt64?
    /// When the exchange finished (reply decoded, or failed).
    public var doneAt: UInt64
    /// The line speed during the exchange.
    public var baudRate: Int
    /// 0 for the first try, 1 for the one retry.
    public var attempt: Int
    /// Confirmation code of the ack, nil when none was received (failure, or a data phase).
    public var code: ConfirmationCode?

    /// Time on the wire for the bytes counted, at `baudRate`.
    public var wireNanoseconds: UInt64 {
        WireTime.nanoseconds(bytes: bytesSent + bytesReceived, baudRate: baudRate)
    }
}

/// Collects exchange records in memory (for `fpmod bench`, `fpmod raw --trace` and tests).
/// Install with `module.exchangeObserver = log.record`.
public final class ExchangeLog {
    public private(set) var records: [ExchangeRecord] = []

    public init(reservingCapacity capacity: Int = 256) {
        records.reserveCapacity(capacity)
    }

    public func record(_ record: ExchangeRecord) { records.append(record) }
    public func removeAll() { records.removeAll(keepingCapacity: true) }
}
