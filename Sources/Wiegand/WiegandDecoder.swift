/// What a Wiegand frame turned out to be.
public enum WiegandEvent: Sendable, Hashable, CustomStringConvertible {
    /// A card frame whose parity holds. `bits` is the frame as received.
    case card(format: WiegandFormat, facility: UInt32, number: UInt32, bits: WiegandBits)
    /// A keypad burst (4 bits, or 8 with a complement that holds).
    case key(WiegandKey, bits: WiegandBits)
    /// A frame that is no credential, and why.
    case rejected(WiegandRejection)

    /// Reads a complete frame: a 26- or 34-bit card, a 4- or 8-bit key, or a rejection. Never a
    /// card or a key from a frame whose checks fail.
    public init(frame bits: WiegandBits) {
        if let format = WiegandFormat(bitCount: bits.count) {
            if let failure = format.parityFailure(of: bits) {
                self = .rejected(.badParity(format: format, failed: failure, bits: bits))
            } else {
                let data = bits.field(from: 1, length: bits.count - 2)
                let number = UInt32(data & 0xFFFF)
                let facility = UInt32(data >> UInt64(WiegandFormat.numberBitCount))
                self = .card(format: format, facility: facility, number: number, bits: bits)
            }
            return
        }
        switch bits.count {
        case 0..<WiegandKeyBurst.fourBit.bitCount:
            self = .rejected(.noise(bits: bits.count))
        case WiegandKeyBurst.fourBit.bitCount:
            self = Self.key(code: UInt8(bits.value), bits: bits)
        case WiegandKeyBurst.eightBit.bitCount:
            let high = UInt8(bits.value >> 4), low = UInt8(bits.value & 0xF)
            if high != ~low & 0xF {
                self = .rejected(.badKeyComplement(bits: bits))
            } else {
                self = Self.key(code: low, bits: bits)
            }
        default:
            self = .rejected(.unsupportedLength(bits.count))
        }
    }

    private static func key(code: UInt8, bits: WiegandBits) -> WiegandEvent {
        guard let key = WiegandKey(code: code) else { return .rejected(.unknownKey(code: code, bits: bits)) }
        return .key(key, bits: bits)
    }

    public var description: String {
        switch self {
        case .card(let format, let facility, let number, let bits):
            "\(format) card: facility \(facility), number \(number), parity ok (\(bits))"
        case .key(let key, let bits):
            "key \(key) (\(bits.count)-bit burst \(bits))"
        case .rejected(let reason):
            "rejected: \(reason)"
        }
    }
}

/// Why a frame was not taken as a credential, in words an installer can act on.
public enum WiegandRejection: Sendable, Hashable, CustomStringConvertible {
    /// A 26- or 34-bit frame whose parity does not hold.
    case badParity(format: WiegandFormat, failed: WiegandParityFailure, bits: WiegandBits)
    /// A length that is no card or key format read here (a lost or extra bit, or another format).
    case unsupportedLength(Int)
    /// One to three stray pulses.
    case noise(bits: Int)
    /// A 4- or 8-bit burst whose value (12–15) is no key.
    case unknownKey(code: UInt8, bits: WiegandBits)
    /// An 8-bit burst whose high nibble is not the complement of its low nibble.
    case badKeyComplement(bits: WiegandBits)
    /// Two pulses on the same line closer together than `Timing.minimumInterval`.
    case tooFast(line: WiegandLine, interval: UInt64)
    /// Pulses on D0 and D1 closer together than `Timing.minimumInterval`: both lines low at once.
    case bothLines(interval: UInt64)
    /// A pause longer than `Timing.maximumInterval` but shorter than the frame gap, after `afterBits` bits.
    case stalled(pause: UInt64, afterBits: Int)
    /// More than `Timing.maximumBits` pulses without a frame gap.
    case overlong(limit: Int)
    /// An edge stamped earlier than the one before it.
    case outOfOrder

    public var description: String {
        switch self {
        case .badParity(let format, let failed, let bits):
            "\(format) frame with bad parity (\(failed) fails: \(bits)): noise or a loose wire on D0/D1, or a reader in another format"
        case .unsupportedLength(let count):
            "\(count)-bit frame: only 26- and 34-bit cards and 4- or 8-bit keypad bursts are read; a bit was lost or added (noise, a loose wire), or the reader sends another format"
        case .noise(let count):
            "\(count) stray pulse\(count == 1 ? "" : "s"): noise on the lines, a loose connection or a reader powering up"
        case .unknownKey(let code, let bits):
            "keypad burst \(bits) carries \(code), which is no key (0–9, 10 = *, 11 = #)"
        case .badKeyComplement(let bits):
            "8-bit keypad burst \(bits) whose high half is not the complement of its low half: a bit was lost or flipped"
        case .tooFast(let line, let interval):
            "two pulses on \(line) \(Self.duration(interval)) apart, too close for Wiegand: contact bounce or noise"
        case .bothLines(let interval):
            "D0 and D1 pulsed \(Self.duration(interval)) apart, both low at once: the lines are shorted together, noisy, or not a Wiegand output"
        case .stalled(let pause, let afterBits):
            "a pause of \(Self.duration(pause)) inside a frame after \(afterBits) bit\(afterBits == 1 ? "" : "s"), longer than a Wiegand reader pauses between bits"
        case .overlong(let limit):
            "more than \(limit) pulses without a pause: a line stuck pulsing, noise, or a reader in a long format"
        case .outOfOrder:
            "an edge stamped before the previous one: the timestamps are not from one monotonic clock"
        }
    }

    /// Nanoseconds as µs or ms, for messages.
    static func duration(_ nanoseconds: UInt64) -> String {
        let (unit, scale): (String, UInt64) = nanoseconds < 1_000_000 ? ("µs", 1000) : ("ms", 1_000_000)
        let whole = nanoseconds / scale, tenth = nanoseconds % scale / (scale / 10)
        return tenth == 0 || whole >= 100 ? "\(whole) \(unit)" : "\(whole).\(tenth) \(unit)"
    }
}

/// Reads Wiegand frames from the falling edges of D0 and D1, whatever the moment they are fed:
/// a frame ends when no pulse came for `Timing.frameGap`, seen either by the next edge (stamped
/// that much later) or by `poll(now:)`. It never blocks and holds no buffer that grows: a frame
/// is at most 64 bits in one integer, and the counts saturate.
///
/// Resynchronising: once a frame breaks (pulses too close, both lines, a stall, too many bits,
/// a timestamp going back) it is rejected at once, and every edge after it is dropped until the
/// lines have been quiet for a frame gap; the next edge starts a fresh frame. Each frame gives
/// at most one event, so a flood of edges gives one rejection, not one per edge.
public struct WiegandDecoder: Sendable {
    /// Tolerances, in nanoseconds, checked when made. An interval is from one pulse's falling
    /// edge to the next.
    public struct Timing: Sendable, Hashable {
        /// Edges closer than this break the frame (`tooFast` on one line, `bothLines` across).
        public let minimumInterval: UInt64
        /// A longer pause inside a frame (but shorter than `frameGap`) breaks it (`stalled`).
        public let maximumInterval: UInt64
        /// Quiet this long ends a frame.
        public let frameGap: UInt64
        /// More bits than this without a frame gap break the frame (`overlong`), 4…64.
        public let maximumBits: Int

        /// Real readers: pulses of 20–100 µs every 200 µs–20 ms (the SIA 26-bit reader interface,
        /// as readers' manuals quote it), typically 50 µs every 1–2 ms. A 150 µs minimum leaves
        /// room for timestamp jitter below the 220 µs the standard allows; frames end after 25 ms.
        public static let standard = Timing(
            uncheckedMinimumInterval: 150_000, maximumInterval: 20_000_000, frameGap: 25_000_000, maximumBits: 64
        )

        /// Checks that `minimumInterval < maximumInterval ≤ frameGap` (none of them 0) and that
        /// `maximumBits` is 4…64.
        public init(minimumInterval: UInt64, maximumInterval: UInt64, frameGap: UInt64, maximumBits: Int = 64) throws(WiegandTimingError) {
            guard minimumInterval > 0, minimumInterval < maximumInterval, maximumInterval <= frameGap else {
                throw .inconsistentIntervals(minimum: minimumInterval, maximum: maximumInterval, frameGap: frameGap)
            }
            guard Self.maximumBitsRange.contains(maximumBits) else {
                throw .maximumBitsOutOfRange(maximumBits, allowed: Self.maximumBitsRange)
            }
            self.init(uncheckedMinimumInterval: minimumInterval, maximumInterval: maximumInterval, frameGap: frameGap, maximumBits: maximumBits)
        }

        public static let maximumBitsRange = 4...WiegandBits.capacity

        private init(uncheckedMinimumInterval: UInt64, maximumInterval: UInt64, frameGap: UInt64, maximumBits: Int) {
            self.minimumInterval = uncheckedMinimumInterval
            self.maximumInterval = maximumInterval
            self.frameGap = frameGap
            self.maximumBits = maximumBits
        }
    }

    /// What the decoder saw, for diagnostics (`fpmod wiegand listen`, doctor).
    public struct Statistics: Sendable, Hashable {
        public var edges = 0
        public var cards = 0
        public var keys = 0
        public var rejections = 0
        /// The edge that broke a frame and every edge after it until the next frame gap.
        public var discardedEdges = 0
        public init() {}
    }

    public let timing: Timing
    public private(set) var statistics = Statistics()

    private enum State: Sendable {
        case idle
        /// Bits so far and the last edge's time.
        case receiving(WiegandBits, last: UInt64)
        /// A broken frame: edges are dropped until a gap after `last`.
        case discarding(last: UInt64)
    }

    private var state = State.idle

    public init(timing: Timing = .standard) {
        self.timing = timing
    }

    /// Bits of the frame being received (0 between frames and while discarding).
    public var bitCount: Int {
        if case .receiving(let bits, _) = state { return bits.count }
        return 0
    }

    /// When the frame in progress ends if no edge comes before: the time to call `poll(now:)`
    /// (a poll loop's timeout). Nil between frames.
    public var deadline: UInt64? {
        switch state {
        case .idle: nil
        case .receiving(_, let last), .discarding(let last): Self.adding(last, timing.frameGap)
        }
    }

    /// One falling edge. Returns the event it causes: the previous frame's, when this edge comes
    /// a frame gap after it, or a rejection when this edge breaks the frame in progress.
    public mutating func feed(_ edge: WiegandEdge) -> WiegandEvent? {
        statistics.edges = Self.adding(statistics.edges, 1)
        switch state {
        case .idle:
            state = .receiving(Self.firstBit(edge), last: edge.timestamp)
            return nil
        case .discarding(let last):
            if edge.timestamp >= last && edge.timestamp - last >= timing.frameGap {
                state = .receiving(Self.firstBit(edge), last: edge.timestamp)
            } else {
                statistics.discardedEdges = Self.adding(statistics.discardedEdges, 1)
                state = .discarding(last: max(last, edge.timestamp))
            }
            return nil
        case .receiving(var bits, let last):
            guard edge.timestamp >= last else {
                return reject(.outOfOrder, last: last)
            }
            let interval = edge.timestamp - last
            if interval >= timing.frameGap {
                state = .receiving(Self.firstBit(edge), last: edge.timestamp)
                return complete(bits)
            }
            if interval < timing.minimumInterval {
                let previous = WiegandLine(bit: bits[bits.count - 1])
                return reject(previous == edge.line ? .tooFast(line: edge.line, interval: interval) : .bothLines(interval: interval), last: edge.timestamp)
            }
            if interval > timing.maximumInterval {
                return reject(.stalled(pause: interval, afterBits: bits.count), last: edge.timestamp)
            }
            guard bits.count < timing.maximumBits else {
                return reject(.overlong(limit: timing.maximumBits), last: edge.timestamp)
            }
            bits.append(edge.line.bit)
            state = .receiving(bits, last: edge.timestamp)
            return nil
        }
    }

    /// Ends the frame in progress if the lines have been quiet for a frame gap by `now` (the
    /// same monotonic clock as the edges), and returns its event. Nil otherwise, and for a
    /// broken frame (its rejection came when it broke).
    public mutating func poll(now: UInt64) -> WiegandEvent? {
        switch state {
        case .idle:
            return nil
        case .receiving(let bits, let last):
            guard now >= last && now - last >= timing.frameGap else { return nil }
            state = .idle
            return complete(bits)
        case .discarding(let last):
            if now >= last && now - last >= timing.frameGap { state = .idle }
            return nil
        }
    }

    /// Ends the frame in progress now, whatever the time (the edges stopped: the reader is being
    /// closed, or a recording ended), and returns its event.
    public mutating func finish() -> WiegandEvent? {
        defer { state = .idle }
        if case .receiving(let bits, _) = state { return complete(bits) }
        return nil
    }

    private static func firstBit(_ edge: WiegandEdge) -> WiegandBits {
        var bits = WiegandBits()
        bits.append(edge.line.bit)
        return bits
    }

    private mutating func complete(_ bits: WiegandBits) -> WiegandEvent {
        let event = WiegandEvent(frame: bits)
        switch event {
        case .card: statistics.cards = Self.adding(statistics.cards, 1)
        case .key: statistics.keys = Self.adding(statistics.keys, 1)
        case .rejected: statistics.rejections = Self.adding(statistics.rejections, 1)
        }
        return event
    }

    private mutating func reject(_ reason: WiegandRejection, last: UInt64) -> WiegandEvent {
        statistics.rejections = Self.adding(statistics.rejections, 1)
        statistics.discardedEdges = Self.adding(statistics.discardedEdges, 1)
        state = .discarding(last: last)
        return .rejected(reason)
    }

    private static func adding<N: FixedWidthInteger>(_ a: N, _ b: N) -> N {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}

/// A decoder configuration that cannot work.
public enum WiegandTimingError: Error, Sendable, Hashable, CustomStringConvertible {
    case inconsistentIntervals(minimum: UInt64, maximum: UInt64, frameGap: UInt64)
    case maximumBitsOutOfRange(Int, allowed: ClosedRange<Int>)

    public var description: String {
        switch self {
        case .inconsistentIntervals(let minimum, let maximum, let frameGap):
            "Wiegand timing needs 0 < minimum interval < maximum interval ≤ frame gap; got \(minimum) ns, \(maximum) ns, \(frameGap) ns"
        case .maximumBitsOutOfRange(let bits, let allowed):
            "Wiegand maximum bits must be \(allowed.lowerBound)–\(allowed.upperBound); got \(bits)"
        }
    }
}
