import FingerprintProtocol
import JSONValue

/// What one scan found, in fprintd's vocabulary (plus the slot and score of a match).
public enum ScanOutcome: Sendable, Equatable {
    case match(slot: Int, score: Int)
    case noMatch
    /// Poor image: extraction failed; lift and press again.
    case retryScan(ConfirmationCode)
    /// The touch line fired but the sensor saw no finger.
    case misplaced
    /// The reader stopped answering during the scan.
    case disconnected(String)
    /// The reader answered but the scan could not finish (the host matcher or the store
    /// failed): no decision, the door stays locked.
    case failed(String)

    /// The public event name (`match`, `no-match`, `retry-scan`, `misplaced`, `disconnected`, `scan-failed`).
    public var name: String {
        switch self {
        case .match: "match"
        case .noMatch: "no-match"
        case .retryScan: "retry-scan"
        case .misplaced: "misplaced"
        case .disconnected: "disconnected"
        case .failed: "scan-failed"
        }
    }
}

/// Monotonic nanosecond stamps (CLOCK_MONOTONIC, the GPIO event clock) of one unlock's stages;
/// 0 = the stage did not happen.
public struct ScanTiming: Sendable, Equatable {
    /// The touch edge (kernel timestamp), or when the scan was requested without one.
    public var edge: UInt64 = 0
    public var captureStart: UInt64 = 0
    public var captureEnd: UInt64 = 0
    public var extractEnd: UInt64 = 0
    public var searchEnd: UInt64 = 0
    /// The policy decided.
    public var decision: UInt64 = 0
    /// The relay was energised (0 when the decision did not unlock).
    public var relayOn: UInt64 = 0

    public init() {}

    /// Milliseconds from the edge to each stage that happened, in stage order.
    public var millisecondsFromEdge: [(stage: String, milliseconds: Double)] {
        let stages: [(String, UInt64)] = [("captureStart", captureStart), ("captureEnd", captureEnd),
                                          ("extractEnd", extractEnd), ("searchEnd", searchEnd),
                                          ("decision", decision), ("relayOn", relayOn)]
        return stages.compactMap { name, stamp in
            guard stamp != 0, edge != 0, stamp >= edge else { return nil }
            return (name, Double((stamp - edge) / 1000) / 1000)
        }
    }

    /// `{"captureEnd":0.4,…}` for the event.
    public var jsonValue: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: millisecondsFromEdge.map { ($0.stage, JSONValue.double($0.milliseconds)) }))
    }

    /// The same as text, for the audit row.
    public var json: String { jsonValue.encoded }
}
