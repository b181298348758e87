/// What a sensor driver needs from an SPI device: full-duplex messages, and how large one
/// may be. `SPIDevice` is the spidev implementation; a simulated sensor can be another.
public protocol SPIBus: AnyObject, Sendable, CustomStringConvertible {
    /// The most bytes one message may move in each direction (spidev's `bufsiz`).
    var maxMessageBytes: Int { get }
    /// Runs one message (chip select held across its segments unless a segment says
    /// otherwise) and returns, per segment, the bytes received ([] for segments that do not
    /// receive). Refuses a message that cannot finish before `deadline`.
    func transfer(_ segments: [SPISegment], deadline: ContinuousClock.Instant) throws(SPIError) -> [[UInt8]]
}
