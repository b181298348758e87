import FingerprintProtocol
import Posix

/// Bulk transfers (protocol.md §5): uploads read data packets until the end packet, each with
/// its own deadline and checksum; any damage aborts the whole transfer (flush, throw) rather
/// than returning a template with a hole in it.
extension FingerprintModule {
    /// UpChar: the template (or feature file) in `buffer`. Its size is learned, never assumed.
    public func uploadTemplate(buffer: UInt8 = CharBuffer.one) throws(ModuleError) -> [UInt8] {
        try performExpectingSuccess(.upChar(buffer: buffer))
        let bytes = try receiveDataPhase(.upChar, sizeHint: templateSize ?? profile.templateSize)
        if templateSize == nil { templateSize = bytes.count }
        return bytes
    }

    /// DownChar: send a template into `buffer` (then `store(buffer:slot:)` it). Packets of exactly
    /// the module's packet size, the remainder in the end packet, all in one write.
    public func downloadTemplate(_ bytes: [UInt8], buffer: UInt8 = CharBuffer.one) throws(ModuleError) {
        try sendDataPhase(.downChar(buffer: buffer), payload: bytes)
    }

    /// UpImage: the image buffer as a 4-bit image (geometry from product info or the family;
    /// a payload that fits another known sensor geometry is decoded with that one).
    public func uploadImage() throws(ModuleError) -> FingerprintImage {
        try performExpectingSuccess(.upImage)
        let nibbles = try receiveDataPhase(.upImage, sizeHint: imageSize.width * imageSize.height / 2)
        let candidates = [imageSize, (width: 256, height: 288), (width: 192, height: 192)]
        guard let geometry = candidates.first(where: { $0.width * $0.height / 2 == nibbles.count }) else {
            throw .unexpectedPacket(.upImage, "an image of \(nibbles.count) bytes fits no known sensor geometry "
                + "(expected \(imageSize.width)×\(imageSize.height) = \(imageSize.width * imageSize.height / 2) bytes)")
        }
        do { return try FingerprintImage(nibbles: nibbles, width: geometry.width, height: geometry.height) } catch {
            throw .unexpectedPacket(.upImage, error.description)
        }
    }

    /// DownImage: send an image into the image buffer (4-bit, as UpImage delivers it; the
    /// manuals leave the DownImage format unverified, protocol.md §5.2).
    public func downloadImage(_ image: FingerprintImage) throws(ModuleError) {
        try sendDataPhase(.downImage, payload: image.nibbles())
    }

    func requirePacketSize() throws(ModuleError) -> Int {
        if let packetSize { return packetSize }
        try refreshSystemParameters()
        guard let size = packetSize else {
            throw .unexpectedPacket(.readSysPara, "packet size code \(systemParameters?.packetSizeCode ?? -1) is not 0 to 3")
        }
        return size
    }

    private func sendDataPhase(_ command: Command, payload: [UInt8]) throws(ModuleError) {
        guard !payload.isEmpty else { throw .invalidArgument("Nothing to send: the payload is empty.") }
        let size = try requirePacketSize()
        try performExpectingSuccess(command)
        let bytes = DataTransfer.encoded(payload, packetSize: size, address: address)
        let sentAt = Monotonic.nanoseconds()
        do { try transport.send(bytes) } catch { throw .transport(error) }
        // The module answers nothing; the bytes may still be on the wire when the next command
        // goes out, so its deadline grows by their wire time.
        queuedWireTime = .nanoseconds(Int64(WireTime.nanoseconds(bytes: bytes.count, baudRate: transport.baudRate)))
        var record = ExchangeRecord(instruction: command.instruction, bytesSent: bytes.count, bytesReceived: 0,
                                    sentAt: sentAt, firstByteAt: nil, doneAt: 0, baudRate: transport.baudRate,
                                    attempt: 0, code: nil)
        finish(&record)
    }

    /// Reads data packets until the end packet. The decoder still holds whatever arrived with the ack.
    /// The most a transfer of about `sizeHint` bytes may bring: four times that (no known
    /// family's template or image is off by more than that), and never less than 4 KiB.
    public static func transferLimit(sizeHint: Int) -> Int { max(sizeHint, 1024) * 4 }

    private func receiveDataPhase(_ instruction: Instruction, sizeHint: Int) throws(ModuleError) -> [UInt8] {
        var payload: [UInt8] = []
        payload.reserveCapacity(sizeHint)
        var record = ExchangeRecord(instruction: instruction, bytesSent: 0, bytesReceived: 0,
                                    sentAt: Monotonic.nanoseconds(), firstByteAt: nil, doneAt: 0,
                                    baudRate: transport.baudRate, attempt: 0, code: nil)
        defer { finish(&record) }
        let damageBefore = decoder.statistics.discardedBytes + decoder.statistics.rejectedFrames
        var dataPacketSize: Int?
        var packets = 0
        let packetWait = timeouts.dataPacket
            + .nanoseconds(Int64(WireTime.nanoseconds(bytes: 267, baudRate: transport.baudRate)))
        while true {
            let frame = try nextFrame(until: now() + packetWait, record: &record)
            let statistics = decoder.statistics
            guard let frame, statistics.discardedBytes + statistics.rejectedFrames == damageBefore else {
                let damaged = frame != nil || decoder.bufferedByteCount > 0
                    || statistics.discardedBytes + statistics.rejectedFrames != damageBefore
                try abortTransfer()
                if damaged || !payload.isEmpty { throw .corruptedReply(instruction, statistics) }
                throw .timeout(instruction, after: packetWait)
            }
            switch frame.packetID {
            case .data:
                // Every data packet has the module's packet size; a different one means bytes went missing.
                if let expected = dataPacketSize, frame.content.count != expected {
                    try abortTransfer()
                    throw .corruptedReply(instruction, statistics)
                }
                dataPacketSize = frame.content.count
                payload.append(contentsOf: frame.content)
                packets += 1
                // A module that never sends the end packet would otherwise keep this going, and
                // growing, for as long as each packet beats its deadline: the module is untrusted.
                if payload.count > Self.transferLimit(sizeHint: sizeHint) {
                    try abortTransfer()
                    throw .corruptedReply(instruction, statistics)
                }
                if let observer = dataPacketObserver {
                    do { try observer(instruction, packets) } catch {
                        try abortTransfer()
                        throw .transport(error)
                    }
                }
            case .end:
                if let expected = dataPacketSize, frame.content.count > expected {
                    try abortTransfer()
                    throw .corruptedReply(instruction, statistics)
                }
                payload.append(contentsOf: frame.content)
                return payload
            case .acknowledge, .command:
                try abortTransfer()
                throw .unexpectedPacket(instruction, "a \(frame.packetID) frame in the middle of the data phase")
            }
        }
    }

    /// Lets the module finish streaming (until the line is quiet for the inter-byte gap, at most
    /// a few seconds), then drops everything, so the next command starts clean.
    private func abortTransfer() throws(ModuleError) {
        let limit = now() + .seconds(3)
        while now() < limit {
            let bytes: [UInt8]
            do {
                bytes = try transport.receive(maxCount: 4096, deadline: min(limit, now() + timeouts.interByteGap))
            } catch { throw .transport(error) }
            if bytes.isEmpty { break }
        }
        try flushInput()
    }
}
