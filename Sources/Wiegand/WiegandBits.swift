/// The two data lines of a Wiegand interface. Both idle high; a reader pulls D0 low for a 0 bit
/// and D1 low for a 1 bit, one line at a time.
public enum WiegandLine: Sendable, Hashable, CustomStringConvertible {
    case d0
    case d1

    /// The bit a pulse on this line carries.
    public var bit: Bool { self == .d1 }

    public init(bit: Bool) { self = bit ? .d1 : .d0 }

    public var description: String { self == .d0 ? "D0" : "D1" }
}

/// A falling edge on one data line (the start of a pulse), stamped by the kernel's monotonic
/// clock in nanoseconds, as libgpiod reports it.
public struct WiegandEdge: Sendable, Hashable {
    public var line: WiegandLine
    public var timestamp: UInt64

    public init(line: WiegandLine, timestamp: UInt64) {
        self.line = line
        self.timestamp = timestamp
    }
}

/// Up to 64 bits in the order they were sent: bit 0 is the first on the wire and the most
/// significant of `value` (a 26-bit frame's `value` is below 2^26).
public struct WiegandBits: Sendable, Hashable, CustomStringConvertible {
    public static let capacity = 64

    public private(set) var count: Int
    public private(set) var value: UInt64

    public init() {
        count = 0
        value = 0
    }

    /// The low `count` bits of `value`, the most significant sent first.
    public init(count: Int, value: UInt64) {
        precondition((0...Self.capacity).contains(count), "a Wiegand frame holds 0…64 bits")
        self.count = count
        self.value = count == 64 ? value : value & ((1 << UInt64(count)) - 1)
    }

    /// Bits written as `0` and `1` (spaces and underscores ignored); nil for anything else or more than 64.
    public init?(_ text: String) {
        self.init()
        for character in text where character != " " && character != "_" {
            guard count < Self.capacity else { return nil }
            switch character {
            case "0": append(false)
            case "1": append(true)
            default: return nil
            }
        }
    }

    /// Adds a bit after the others. The caller keeps `count` below `capacity`.
    public mutating func append(_ bit: Bool) {
        precondition(count < Self.capacity, "a Wiegand frame holds at most 64 bits")
        value = value << 1 | (bit ? 1 : 0)
        count += 1
    }

    /// The bit sent `index`-th (0 first).
    public subscript(index: Int) -> Bool {
        precondition((0..<count).contains(index), "bit \(index) of a \(count)-bit frame")
        return value >> UInt64(count - 1 - index) & 1 == 1
    }

    /// `length` bits from `start` (in sending order) as a number, the first the most significant.
    public func field(from start: Int, length: Int) -> UInt64 {
        precondition(start >= 0 && length >= 0 && start + length <= count && length < 64)
        return value >> UInt64(count - start - length) & ((1 << UInt64(length)) - 1)
    }

    /// The bits as `0` and `1`, first sent first.
    public var description: String {
        String((0..<count).map { self[$0] ? "1" : "0" })
    }
}

/// A key of a Wiegand keypad: its burst carries 0–9, 10 for `*` and 11 for `#`.
public enum WiegandKey: Sendable, Hashable, CustomStringConvertible {
    case digit(UInt8)
    case star
    case hash

    /// The key a burst's 4-bit value stands for; nil for 12–15 (no key).
    public init?(code: UInt8) {
        switch code {
        case 0...9: self = .digit(code)
        case 10: self = .star
        case 11: self = .hash
        default: return nil
        }
    }

    /// The 4-bit value sent for this key.
    public var code: UInt8 {
        switch self {
        case .digit(let digit): digit
        case .star: 10
        case .hash: 11
        }
    }

    public var description: String {
        switch self {
        case .digit(let digit): String(digit)
        case .star: "*"
        case .hash: "#"
        }
    }
}
