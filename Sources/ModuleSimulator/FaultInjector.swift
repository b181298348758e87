import FingerprintProtocol

/// Turns reply plans into what actually goes on the wire under the active faults.
public struct FaultInjector: Sendable, Equatable {
    public private(set) var corruptNext = false
    public private(set) var dropNext = false
    public private(set) var garbageNext = false
    public private(set) var noisy = false
    public private(set) var silenced = false
    public private(set) var extraDelay: Duration = .zero

    public init() {}

    public mutating func apply(_ fault: Fault) {
        switch fault {
        case .corrupt: corruptNext = true
        case .drop: dropNext = true
        case .garbage: garbageNext = true
        case .noise: noisy = true
        case .silence: silenced = true
        case let .delay(milliseconds): extraDelay = .milliseconds(milliseconds)
        case .none: self = FaultInjector()
        }
    }

    /// Names of the active faults, for `status`.
    public var active: [String] {
        var names: [String] = []
        if corruptNext { names.append("corrupt") }
        if dropNext { names.append("drop") }
        if garbageNext { names.append("garbage") }
        if noisy { names.append("noise") }
        if silenced { names.append("silence") }
        if extraDelay > .zero { names.append("delay \(extraDelay.components.seconds * 1000 + extraDelay.components.attoseconds / 1_000_000_000_000_000)") }
        return names
    }

    /// Junk that cannot contain a frame header (no `EF`).
    static let junk: [UInt8] = [0x00, 0x13, 0x37, 0xA5, 0x5A, 0xFF, 0x01]

    /// The wire segments of `plan`: each with its delay and its bytes. Empty when dropped.
    public mutating func wireSegments(for plan: ReplyPlan) -> [(delay: Duration, bytes: [UInt8])] {
        if dropNext {
            dropNext = false
            return []
        }
        var segments: [(delay: Duration, bytes: [UInt8])] = []
        for (index, segment) in plan.segments.enumerated() {
            var bytes = segment.bytes
            if index == 0 {
                if corruptNext || noisy, let first = segment.frames.first {
                    corruptNext = false
                    bytes[first.wireSize - 1] ^= 0xFF
                }
                if garbageNext {
                    garbageNext = false
                    bytes = FaultInjector.junk + bytes
                }
            }
            segments.append((segment.delay + extraDelay, bytes))
        }
        return segments
    }
}
