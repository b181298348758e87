/// Turns the bytes of a PN532 host interface into frames, whatever the chunking,
/// resynchronising on anything that is not a valid frame: the HSU wake-up preamble (`55 55 00
/// …`), postambles, line noise, a length whose LCS does not match, a TFI other than D4, D5 (or
/// the error frame's 7F), an extended length over the PN532's buffer, a bad DCS. After a
/// rejected candidate the scan resumes at the byte after its start code's `00`, so a real
/// frame hidden inside a broken one is found.
///
/// It never blocks: `feed` stores bytes, `nextFrame` returns nil when it needs more.
public struct PN532FrameDecoder: Sendable {
    /// What the decoder threw away, for diagnostics ("garbled frame" vs "nothing came").
    public struct Statistics: Equatable, Sendable {
        /// Bytes outside any frame: preambles, postambles, wake-up bytes and garbage.
        public var skippedBytes = 0
        public var lengthChecksumErrors = 0
        public var dataChecksumErrors = 0
        public var invalidLengths = 0
        public var invalidTFIs = 0
        public init() {}
        /// Candidate frames rejected for their content (not mere bytes between frames).
        public var rejectedFrames: Int { lengthChecksumErrors + dataChecksumErrors + invalidLengths + invalidTFIs }
    }

    public private(set) var statistics = Statistics()
    private var buffer: [UInt8] = []
    private var position = 0

    public init() {
        buffer.reserveCapacity(512)
    }

    /// Bytes received but not yet returned as a frame or skipped.
    public var bufferedByteCount: Int { buffer.count - position }

    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
    }

    /// Drops everything buffered (a host flushing its input before a new command).
    public mutating func reset() {
        statistics.skippedBytes += bufferedByteCount
        buffer.removeAll(keepingCapacity: true)
        position = 0
    }

    /// The next complete, valid frame, or nil when more bytes are needed.
    public mutating func nextFrame() -> PN532Frame? {
        defer { compact() }
        while true {
            guard let start = findStartCode() else { return nil }
            let available = buffer.count - start
            if available < 4 { return nil }
            let first = buffer[start + 2], second = buffer[start + 3]
            switch (first, second) {
            case (0x00, 0xFF):
                position = start + 4
                return .ack
            case (0xFF, 0x00):
                position = start + 4
                return .nack
            default:
                break
            }
            // Where TFI is, and how many bytes from TFI to the last data byte.
            let headerSize: Int
            let length: Int
            if first == 0xFF && second == 0xFF {
                if available < 7 { return nil }
                let high = buffer[start + 4], low = buffer[start + 5]
                guard high &+ low &+ buffer[start + 6] == 0 else {
                    statistics.lengthChecksumErrors += 1
                    skip(to: start + 1)
                    continue
                }
                length = Int(high) << 8 | Int(low)
                headerSize = 7
            } else {
                guard first &+ second == 0 else {
                    statistics.lengthChecksumErrors += 1
                    skip(to: start + 1)
                    continue
                }
                length = Int(first)
                headerSize = 4
            }
            guard (1...PN532Frame.maximumDataLength + 1).contains(length) else {
                statistics.invalidLengths += 1
                skip(to: start + 1)
                continue
            }
            // TFI, data, DCS.
            if available < headerSize + length + 1 { return nil }
            let tfiIndex = start + headerSize
            let dcsIndex = tfiIndex + length
            let sum = buffer[tfiIndex...dcsIndex].reduce(0, &+)
            guard sum == 0 else {
                statistics.dataChecksumErrors += 1
                skip(to: start + 1)
                continue
            }
            let tfi = buffer[tfiIndex]
            let frame: PN532Frame
            if tfi == PN532Frame.errorTFI && length == 1 && headerSize == 4 {
                frame = .applicationError
            } else if let direction = PN532Direction(rawValue: tfi) {
                frame = .information(direction, Array(buffer[(tfiIndex + 1)..<dcsIndex]))
            } else {
                statistics.invalidTFIs += 1
                skip(to: start + 1)
                continue
            }
            position = dcsIndex + 1
            return frame
        }
    }

    /// Moves `position` to the next `00 FF` and returns it; bytes before it are skipped. A
    /// trailing lone `00` is kept, since its `FF` may be in the next read.
    private mutating func findStartCode() -> Int? {
        var index = position
        let end = buffer.count
        while index < end {
            if buffer[index] == PN532Frame.startCode.0 {
                if index + 1 == end { break }
                if buffer[index + 1] == PN532Frame.startCode.1 {
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
        statistics.skippedBytes += index - position
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
