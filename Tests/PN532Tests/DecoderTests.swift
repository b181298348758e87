import PN532
import Testing

@Suite("PN532 decoder: any chunking, garbage, corruption")
struct DecoderTests {
    static let firmware = PN532Frame.information(.pn532ToHost, [0x03, 0x32, 0x01, 0x06, 0x07])
    static let samConfiguration = PN532Frame.information(.hostToPN532, [0x14, 0x01])
    static let long = PN532Frame.information(.pn532ToHost, (0..<264).map { UInt8(truncatingIfNeeded: $0 * 7) })
    /// What libnfc's pn532_uart driver writes before a command to a sleeping PN532.
    static let wakeUp: [UInt8] = [0x55, 0x55] + [UInt8](repeating: 0, count: 14)

    static let stream = PN532Frame.ack.bytes + firmware.bytes + long.bytes + PN532Frame.nack.bytes
        + PN532Frame.applicationError.bytes + samConfiguration.bytes
    static let expected: [PN532Frame] = [.ack, firmware, long, .nack, .applicationError, samConfiguration]

    @Test("every frame kind, split in two at every byte")
    func splitEverywhere() {
        for split in 0...Self.stream.count {
            var decoder = PN532FrameDecoder()
            var frames: [PN532Frame] = []
            decoder.feed(Self.stream[..<split])
            while let frame = decoder.nextFrame() { frames.append(frame) }
            decoder.feed(Self.stream[split...])
            while let frame = decoder.nextFrame() { frames.append(frame) }
            #expect(frames == Self.expected, "split at \(split)")
            #expect(decoder.statistics.rejectedFrames == 0)
        }
    }

    @Test("one byte at a time: nothing comes out before a frame's last byte")
    func byteByByte() {
        var decoder = PN532FrameDecoder()
        var frames: [PN532Frame] = []
        var completedAt: [Int] = []
        for (index, byte) in Self.stream.enumerated() {
            decoder.feed([byte])
            while let frame = decoder.nextFrame() {
                frames.append(frame)
                completedAt.append(index)
            }
        }
        #expect(frames == Self.expected)
        // ACK completes at its 5th byte (00 00 FF 00 FF), the firmware frame at its DCS.
        #expect(completedAt.first == 4)
        #expect(completedAt[1] == 6 + 11)
    }

    @Test("the wake-up preamble and garbage before a frame are skipped and counted")
    func garbageBefore() {
        var decoder = PN532FrameDecoder()
        let garbage: [UInt8] = [0x12, 0xFF, 0x00, 0x55, 0xD4]
        decoder.feed(Self.wakeUp + garbage + Self.samConfiguration.bytes)
        #expect(decoder.nextFrame() == Self.samConfiguration)
        #expect(decoder.nextFrame() == nil)
        // The 16 wake-up bytes, the garbage and the frame's own preamble; the postamble waits.
        #expect(decoder.statistics.skippedBytes == 16 + garbage.count + 1)
        #expect(decoder.statistics.rejectedFrames == 0)
        #expect(decoder.bufferedByteCount == 1)
    }

    @Test("a bad LCS is rejected and the next frame found")
    func badLengthChecksum() {
        var broken = Self.firmware.bytes
        broken[4] ^= 0x01
        var decoder = PN532FrameDecoder()
        decoder.feed(broken + Self.samConfiguration.bytes)
        #expect(decoder.nextFrame() == Self.samConfiguration)
        #expect(decoder.statistics.lengthChecksumErrors == 1)
    }

    @Test("a bad extended LCS is rejected and the next frame found")
    func badExtendedLengthChecksum() {
        var broken = Self.long.bytes
        broken[7] ^= 0x80
        var decoder = PN532FrameDecoder()
        decoder.feed(broken + Self.firmware.bytes)
        #expect(decoder.nextFrame() == Self.firmware)
        #expect(decoder.statistics.lengthChecksumErrors == 1)
    }

    @Test("a bad DCS is rejected and the next frame found")
    func badDataChecksum() {
        var broken = Self.firmware.bytes
        broken[broken.count - 2] ^= 0x40
        var decoder = PN532FrameDecoder()
        decoder.feed(broken + Self.samConfiguration.bytes)
        #expect(decoder.nextFrame() == Self.samConfiguration)
        #expect(decoder.statistics.dataChecksumErrors == 1)
    }

    @Test("a frame inside a broken frame's data is found")
    func hiddenFrame() {
        // A frame whose data holds a whole ACK and whose DCS is wrong.
        var outer = PN532Frame.information(.pn532ToHost, [0x4B, 0x01] + PN532Frame.ack.bytes + [0x20]).bytes
        outer[outer.count - 2] ^= 0xFF
        var decoder = PN532FrameDecoder()
        decoder.feed(outer)
        #expect(decoder.nextFrame() == .ack)
        #expect(decoder.nextFrame() == nil)
        #expect(decoder.statistics.dataChecksumErrors == 1)
    }

    @Test("a TFI other than D4, D5 or the error frame's 7F is rejected")
    func invalidTFI() {
        // LEN 2, LCS FE, TFI D6, data 02, DCS 28: the checksums hold, the TFI does not.
        var decoder = PN532FrameDecoder()
        decoder.feed([0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD6, 0x02, 0x28, 0x00] + Self.firmware.bytes)
        #expect(decoder.nextFrame() == Self.firmware)
        #expect(decoder.statistics.invalidTFIs == 1)
    }

    @Test("an extended length over the PN532's buffer is rejected")
    func oversizedExtended() {
        // LEN 0x0200 with a matching LCS: 511 data bytes, more than any PN532 takes.
        var decoder = PN532FrameDecoder()
        decoder.feed([0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x02, 0x00, 0xFE] + Self.firmware.bytes)
        #expect(decoder.nextFrame() == Self.firmware)
        #expect(decoder.statistics.invalidLengths == 1)
    }

    /// Each byte of the frame from LEN to DCS changed to every other value: never a frame.
    @Test("no single corrupted byte between LEN and DCS passes", arguments: Array(3..<12))
    func singleByteCorruption(index: Int) {
        let frame = Self.firmware.bytes
        for value in 0...255 where UInt8(value) != frame[index] {
            var corrupted = frame
            corrupted[index] = UInt8(value)
            var decoder = PN532FrameDecoder()
            decoder.feed(corrupted)
            let decoded = decoder.nextFrame()
            #expect(decoded == nil, "byte \(index) = \(value) gave \(String(describing: decoded))")
        }
    }

    @Test("reset drops a half-received frame")
    func resetDropsPartial() {
        var decoder = PN532FrameDecoder()
        decoder.feed(Self.firmware.bytes.prefix(7))
        #expect(decoder.nextFrame() == nil)
        decoder.reset()
        decoder.feed(Self.samConfiguration.bytes)
        #expect(decoder.nextFrame() == Self.samConfiguration)
    }
}
