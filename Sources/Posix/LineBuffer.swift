/// Bytes received on a stream, cut into lines at `\n` (a `\r` before it is dropped too).
/// Pure: the socket code feeds it, tests can feed it directly.
struct LineBuffer {
    /// Longest line accepted; a peer that sends more without a newline is misbehaving.
    let maximumLineLength: Int
    private var bytes: [UInt8] = []
    private var scanned = 0  // bytes already known to hold no newline

    init(maximumLineLength: Int = 64 * 1024) { self.maximumLineLength = maximumLineLength }

    var isEmpty: Bool { bytes.isEmpty }

    mutating func append(_ chunk: some Collection<UInt8>) { bytes.append(contentsOf: chunk) }

    /// The next complete line without its terminator, or nil if none is complete yet.
    /// Throws `Errno.messageTooLong` when the partial line exceeds the limit.
    mutating func nextLine() throws(Errno) -> String? {
        guard let newline = bytes[scanned...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = bytes.count
            if bytes.count > maximumLineLength { throw Errno.messageTooLong }
            return nil
        }
        var end = newline
        if end > 0, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = String(decoding: bytes[..<end], as: UTF8.self)
        bytes.removeSubrange(...newline)
        scanned = 0
        return line
    }

    /// Whatever is left (a last line without a newline), emptying the buffer.
    mutating func takeRemainder() -> String? {
        guard !bytes.isEmpty else { return nil }
        defer { bytes.removeAll(); scanned = 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
