/// An `SPIBus` that reports every message it passes on, for bringing up a sensor: what was
/// sent and what came back, segment by segment (`fpmod sensor -v`).
public final class TracingSPIBus: SPIBus {
    private let bus: any SPIBus
    private let log: @Sendable (String) -> Void

    public init(_ bus: any SPIBus, log: @escaping @Sendable (String) -> Void) {
        self.bus = bus
        self.log = log
    }

    public var maxMessageBytes: Int { bus.maxMessageBytes }
    public var description: String { bus.description }

    public func transfer(_ segments: [SPISegment], deadline: ContinuousClock.Instant) throws(SPIError) -> [[UInt8]] {
        do {
            let replies = try bus.transfer(segments, deadline: deadline)
            log("SPI " + zip(segments, replies).map { Self.describe($0, $1) }.joined(separator: " | "))
            return replies
        } catch {
            log("SPI " + segments.map { Self.describe($0, nil) }.joined(separator: " | ") + " ✗ \(error)")
            throw error
        }
    }

    /// "→ fc", "← 02 0a", "← 36 bytes: 80 81 … (first 16)"; "+cs" where chip select is kept.
    static func describe(_ segment: SPISegment, _ reply: [UInt8]?) -> String {
        var parts: [String] = []
        if let sent = segment.transmit { parts.append("→ " + hex(sent)) }
        if segment.receives { parts.append("← " + (reply.map(hex) ?? "\(segment.count) bytes")) }
        if parts.isEmpty { parts.append("\(segment.count) zero bytes") }
        return parts.joined(separator: " ") + (segment.csChange ? " +cs" : "")
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let shown = bytes.prefix(16).map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
        return bytes.count > 16 ? "\(bytes.count) bytes: \(shown) …" : shown
    }
}
