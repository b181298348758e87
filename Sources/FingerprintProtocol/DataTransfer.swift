/// Splitting and joining the data phase of UpChar/DownChar/UpImage/DownImage (protocol.md §5):
/// `ceil(size / N)` packets of N bytes, the last one with PID `08`; no acks in between.
public enum DataTransfer {
    /// The data/end frames that carry `payload` in packets of `packetSize` bytes.
    public static func frames(for payload: [UInt8], packetSize: Int, address: UInt32 = Frame.defaultAddress) -> [Frame] {
        precondition(PacketSize(bytes: packetSize) != nil, "packet size must be 32, 64, 128 or 256")
        guard !payload.isEmpty else { return [] }
        var frames: [Frame] = []
        var start = 0
        while start < payload.count {
            let end = min(start + packetSize, payload.count)
            let isLast = end == payload.count
            frames.append(Frame(address: address, packetID: isLast ? .end : .data, content: Array(payload[start..<end])))
            start = end
        }
        return frames
    }

    /// The wire bytes of all the packets of `payload`, in one buffer (one write).
    public static func encoded(_ payload: [UInt8], packetSize: Int, address: UInt32 = Frame.defaultAddress) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + (payload.count / packetSize + 1) * 11)
        for frame in frames(for: payload, packetSize: packetSize, address: address) {
            frame.appendEncoded(to: &bytes)
        }
        return bytes
    }

    /// Bytes on the wire for a payload of `size` in packets of `packetSize`.
    public static func wireBytes(payloadSize size: Int, packetSize: Int) -> Int {
        let packets = (size + packetSize - 1) / packetSize
        return size + packets * (Frame.prefixSize + 2)
    }
}

/// Time a byte count takes on an 8N1 UART: 10 bits per byte.
public enum WireTime {
    public static func seconds(bytes: Int, baudRate: Int) -> Double {
        Double(bytes) * 10 / Double(baudRate)
    }
    public static func nanoseconds(bytes: Int, baudRate: Int) -> UInt64 {
        UInt64(bytes) * 10 * 1_000_000_000 / UInt64(baudRate)
    }
}
