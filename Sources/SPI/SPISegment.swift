/// One transfer of an SPI message: bytes shifted out while as many bytes are shifted in.
/// A message is several segments with chip select held between them (unless `csChange`), so a
/// register address and its data go out in one message, as sensor datasheets ask.
public struct SPISegment: Sendable, Equatable {
    /// Bytes to send; nil shifts out zeroes (a pure read).
    public var transmit: [UInt8]?
    /// How many bytes the segment clocks (the length of `transmit` when it is set).
    public var count: Int
    /// Whether what comes back is kept (false for a pure write).
    public var receives: Bool
    /// Before the last segment: deselect the chip before the next one. On the last segment:
    /// keep the chip selected after the message, so the next message continues the same
    /// transaction (how a read larger than the driver's buffer is split). A hint to the
    /// controller driver, as the kernel documents it.
    public var csChange: Bool
    /// Pause after the segment, before chip select changes (microseconds).
    public var delayMicroseconds: UInt16

    public init(transmit: [UInt8]?, count: Int? = nil, receives: Bool, csChange: Bool = false, delayMicroseconds: UInt16 = 0) {
        self.transmit = transmit
        self.count = count ?? transmit?.count ?? 0
        self.receives = receives
        self.csChange = csChange
        self.delayMicroseconds = delayMicroseconds
    }

    /// Sends `bytes`, keeps nothing.
    public static func write(_ bytes: [UInt8], csChange: Bool = false) -> SPISegment {
        SPISegment(transmit: bytes, receives: false, csChange: csChange)
    }

    /// Clocks `count` bytes in while sending zeroes.
    public static func read(_ count: Int, csChange: Bool = false) -> SPISegment {
        SPISegment(transmit: nil, count: count, receives: true, csChange: csChange)
    }

    /// Sends `bytes` and keeps the bytes that came back at the same time.
    public static func exchange(_ bytes: [UInt8], csChange: Bool = false) -> SPISegment {
        SPISegment(transmit: bytes, receives: true, csChange: csChange)
    }
}

/// SPI clock polarity and phase (the four classic modes).
public enum SPIMode: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    /// CPOL 0, CPHA 0: clock idles low, data sampled on the rising edge (FPC1020 and most sensors).
    case mode0 = 0
    case mode1 = 1
    case mode2 = 2
    case mode3 = 3

    public var description: String { "mode \(rawValue)" }
}
