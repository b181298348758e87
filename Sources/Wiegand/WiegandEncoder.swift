/// A card number to send to a panel: a format, a facility code and a card number, checked
/// against the format's ranges when made.
public struct WiegandCredential: Sendable, Hashable, CustomStringConvertible {
    public let format: WiegandFormat
    public let facility: UInt32
    public let number: UInt32

    public init(format: WiegandFormat, facility: UInt32, number: UInt32) throws(WiegandEncoderError) {
        guard format.facilityRange.contains(facility) else {
            throw .facilityOutOfRange(facility, format: format, allowed: format.facilityRange)
        }
        guard format.numberRange.contains(number) else {
            throw .numberOutOfRange(number, format: format, allowed: format.numberRange)
        }
        self.format = format
        self.facility = facility
        self.number = number
    }

    /// The frame: even parity bit, facility code, card number, odd parity bit.
    public var bits: WiegandBits { format.frame(facility: facility, number: number) }

    public var description: String { "\(format) facility \(facility) number \(number)" }
}

/// One pulse to drive: pull `line` low at `start` (nanoseconds from the frame's start) for `width`.
public struct WiegandPulse: Sendable, Hashable {
    public var line: WiegandLine
    public var start: UInt64
    public var width: UInt64

    public init(line: WiegandLine, start: UInt64, width: UInt64) {
        self.line = line
        self.start = start
        self.width = width
    }
}

/// Turns credentials and keys into frames and pulse schedules for a panel's Wiegand input. The
/// pulse width and interval (falling edge to falling edge) are checked when it is made, against
/// ranges a little wider than the SIA reader interface's 20–100 µs pulses every 200 µs–20 ms,
/// so a slow panel or a simulated one can be fed too; the lines rest at least as long as a
/// pulse between pulses.
public struct WiegandEncoder: Sendable, Hashable {
    public static let pulseWidthRange: ClosedRange<UInt64> = 20_000...2_000_000
    public static let intervalRange: ClosedRange<UInt64> = 200_000...25_000_000

    /// How long each pulse holds its line low, in nanoseconds.
    public let pulseWidth: UInt64
    /// From one pulse's start to the next, in nanoseconds.
    public let interval: UInt64

    /// 50 µs pulses every 1 ms by default, what most readers send.
    public init(pulseWidth: UInt64 = 50_000, interval: UInt64 = 1_000_000) throws(WiegandEncoderError) {
        guard Self.pulseWidthRange.contains(pulseWidth) else {
            throw .pulseWidthOutOfRange(pulseWidth, allowed: Self.pulseWidthRange)
        }
        guard Self.intervalRange.contains(interval) else {
            throw .intervalOutOfRange(interval, allowed: Self.intervalRange)
        }
        guard interval >= 2 * pulseWidth else {
            throw .pulsesTooClose(pulseWidth: pulseWidth, interval: interval)
        }
        self.pulseWidth = pulseWidth
        self.interval = interval
    }

    /// The pulses of a card frame.
    public func schedule(_ credential: WiegandCredential) -> [WiegandPulse] {
        schedule(credential.bits)
    }

    /// The pulses of a keypad burst. Only a digit 0–9, `*` and `#` can be sent.
    public func schedule(_ key: WiegandKey, burst: WiegandKeyBurst) throws(WiegandEncoderError) -> [WiegandPulse] {
        try schedule(Self.bits(for: key, burst: burst))
    }

    /// The pulses of any frame: bit i on D1 (1) or D0 (0) from `i × interval`.
    public func schedule(_ bits: WiegandBits) -> [WiegandPulse] {
        (0..<bits.count).map { index in
            WiegandPulse(line: WiegandLine(bit: bits[index]), start: UInt64(index) * interval, width: pulseWidth)
        }
    }

    /// How long a frame of `bitCount` bits takes to send, from the first pulse's start to the last one's end.
    public func duration(bitCount: Int) -> UInt64 {
        bitCount == 0 ? 0 : UInt64(bitCount - 1) * interval + pulseWidth
    }

    /// A key's burst, checked: a digit above 9 is no key.
    public static func bits(for key: WiegandKey, burst: WiegandKeyBurst) throws(WiegandEncoderError) -> WiegandBits {
        if case .digit(let digit) = key, digit > 9 { throw .notAKey(digit) }
        return burst.frame(code: key.code)
    }
}

/// Input the encoder refuses, naming what is allowed.
public enum WiegandEncoderError: Error, Sendable, Hashable, CustomStringConvertible {
    case facilityOutOfRange(UInt32, format: WiegandFormat, allowed: ClosedRange<UInt32>)
    case numberOutOfRange(UInt32, format: WiegandFormat, allowed: ClosedRange<UInt32>)
    case pulseWidthOutOfRange(UInt64, allowed: ClosedRange<UInt64>)
    case intervalOutOfRange(UInt64, allowed: ClosedRange<UInt64>)
    /// The interval leaves the lines less rest than a pulse's width between pulses.
    case pulsesTooClose(pulseWidth: UInt64, interval: UInt64)
    case notAKey(UInt8)

    public var description: String {
        switch self {
        case .facilityOutOfRange(let value, let format, let allowed):
            "facility code \(value) does not fit a \(format) frame: it must be \(allowed.lowerBound)–\(allowed.upperBound)"
        case .numberOutOfRange(let value, let format, let allowed):
            "card number \(value) does not fit a \(format) frame: it must be \(allowed.lowerBound)–\(allowed.upperBound)"
        case .pulseWidthOutOfRange(let value, let allowed):
            "Wiegand pulse width \(WiegandRejection.duration(value)) is outside \(WiegandRejection.duration(allowed.lowerBound))–\(WiegandRejection.duration(allowed.upperBound))"
        case .intervalOutOfRange(let value, let allowed):
            "Wiegand pulse interval \(WiegandRejection.duration(value)) is outside \(WiegandRejection.duration(allowed.lowerBound))–\(WiegandRejection.duration(allowed.upperBound))"
        case .pulsesTooClose(let width, let interval):
            "Wiegand pulse interval \(WiegandRejection.duration(interval)) must be at least twice the pulse width \(WiegandRejection.duration(width))"
        case .notAKey(let digit):
            "\(digit) is no keypad key: a digit is 0–9"
        }
    }
}
