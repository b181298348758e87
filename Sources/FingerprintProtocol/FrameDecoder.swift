/// Turns a byte stream into frames, whatever the chunking, resynchronising on anything that is
/// not a valid frame (protocol.md §9.1): garbage before a header (the boot byte `55`, a glitch
/// `00`, leftovers of an aborted exchange), a wrong address, an unknown packet identifier, an
/// impossible length (outside 3…258) or a bad checksum. After a rejected candidate the scan
/// resumes at the byte after its `EF`, so a real header hidden inside a broken frame is found.
///
/// It never blocks: `feed` stores bytes, `nextFrame` returns nil when it needs more.
public struct FrameDecoder: Sendable {
    /// Frames from any other address are dropped (the module would ignore them too); nil accepts all.
    public var expectedAddress: UInt32?

    /// What the decoder threw away, for diagnostics ("corrupted frame" vs "no answer").
    public struct Statistics: Equatable, Sendable {
        public var discardedBytes = 0
        public var checksumErrors = 0
        public var addressMismatches = 0
        public var invalidLengths = 0
        public var invalidPacketIDs = 0
        public init() {}
        /// Any candidate frame rejected for its content (not mere garbage between frames).
        public var rejectedFrames: Int { checksumErrors + addressMismatches + invalidLengths + invalidPacketIDs }
    }

    public private(set) var statistics = Statistics()
    private var buffer: [UInt8] = []
    private var position = 0

    public init(expectedAddress: UInt32? = nil) {
        self.expectedAddress = expectedAddress
        buffer.reserveCapacity(512)
    }

    /// Bytes received but not yet returned as a frame or discarded.
    public var bufferedByteCount: Int { buffer.count - position }

    /// True when a frame has started (a header was seen) but is not complete: the caller should
    /// keep reading instead of treating silence as "nothing came".
    public var isInsideFrame: Bool {
        bufferedByteCount > 0 && buffer[position] == Frame.header.0
    }

    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
    }

    /// Drops everything buffered (used with a flush of the port before a new command).
    public mutating func reset() {
        statistics.discardedBytes += bufferedByteCount
        buffer.removeAll(keepingCapacity: true)
        position = 0
    }

    public mutating func resetStatistics() { statistics = Statistics() }

    /// The next complete, valid frame, or nil when more bytes are needed.
    public mutating func nextFrame() -> Frame? {
        defer { compact() }
        while true {
            guard let start = findHeader() else { return nil }
            let available = buffer.count - start
            if available < Frame.prefixSize { return nil }
            let address = UInt32(buffer[start + 2]) << 24 | UInt32(buffer[start + 3]) << 16
                | UInt32(buffer[start + 4]) << 8 | UInt32(buffer[start + 5])
            if let expected = expectedAddress, address != expected {
                statistics.addressMismatches += 1
                skip(to: start + 1)
                continue
            }
            guard let packetID = PacketID(rawValue: buffer[start + 6]) else {
                statistics.invalidPacketIDs += 1
                skip(to: start + 1)
                continue
            }
            let length = Int(buffer[start + 7]) << 8 | Int(buffer[start + 8])
            guard Frame.lengthRange.contains(length) else {
                statistics.invalidLengths += 1
                skip(to: start + 1)
                continue
            }
            if available < Frame.prefixSize + length { return nil }
            let contentStart = start + Frame.prefixSize
            let contentEnd = contentStart + length - 2
            let content = buffer[contentStart..<contentEnd]
            let received = UInt16(buffer[contentEnd]) << 8 | UInt16(buffer[contentEnd + 1])
            guard received == Frame.checksum(packetID: packetID.rawValue, content: content) else {
                statistics.checksumErrors += 1
                skip(to: start + 1)
                continue
            }
            position = contentEnd + 2
            return Frame(address: address, packetID: packetID, content: Array(content))
        }
    }

    /// Moves `position` to the next `EF 01` and returns it; garbage before it is discarded.
    /// A trailing lone `EF` is kept, since its `01` may be in the next read.
    private mutating func findHeader() -> Int? {
        var index = position
        let end = buffer.count
        while index < end {
            if buffer[index] == Frame.header.0 {
                if index + 1 == end { break }
                if buffer[index + 1] == Frame.header.1 {
                    skip(to: index)
                    return index
                }
            }
            index += 1
        }
        skip(to: index)
        return nil
    }

    private mutating func skip(to index: Int) {
        statistics.discardedBytes += index - position
        position = index
    }

    private mutating func compact() {
        if position == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            position = 0
        } else if position > 4096 {
            buffer.removeFirst(position)
            position = 0
        }
    }
}
