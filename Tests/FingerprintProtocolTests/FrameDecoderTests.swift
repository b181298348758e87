import Imaging
import Testing
@testable import FingerprintProtocol

struct FrameDecoderTests {
    let searchHit = hex("EF 01 FF FF FF FF 07 00 07 00 00 01 00 60 00 6F")
    let ok = hex("EF 01 FF FF FF FF 07 00 03 00 00 0A")

    func decodeAll(_ chunks: [[UInt8]], address: UInt32? = nil) -> ([Frame], FrameDecoder) {
        var decoder = FrameDecoder(expectedAddress: address)
        var frames: [Frame] = []
        for chunk in chunks {
            decoder.feed(chunk)
            while let frame = decoder.nextFrame() { frames.append(frame) }
        }
        return (frames, decoder)
    }

    @Test func oneByteAtATimeEqualsAllAtOnce() {
        let stream = searchHit + ok + searchHit
        let (whole, _) = decodeAll([stream])
        let (bytewise, _) = decodeAll(stream.map { [$0] })
        #expect(whole.count == 3)
        #expect(whole == bytewise)
    }

    @Test func everySplitPointGivesTheSameFrames() {
        let stream = ok + searchHit
        for split in 0...stream.count {
            let (frames, _) = decodeAll([Array(stream[..<split]), Array(stream[split...])])
            #expect(frames.count == 2, "split at \(split)")
        }
    }

    @Test func skipsBootByteAndGlitch() {
        let (frames, decoder) = decodeAll([[0x55], [0x00, 0x55] + ok])
        #expect(frames.count == 1)
        #expect(decoder.statistics.discardedBytes == 3)
        #expect(decoder.statistics.rejectedFrames == 0)
    }

    @Test func findsHeaderAfterALoneEF() {
        // EF EF 01 …: the first EF is garbage; ESPHome's reader drops the real header here.
        let (frames, _) = decodeAll([[0xEF], [0xEF, 0x01] + Array(ok.dropFirst(2))])
        #expect(frames.count == 1)
    }

    @Test func keepsATrailingEFForTheNextRead() {
        var decoder = FrameDecoder()
        decoder.feed([0x12, 0xEF])
        #expect(decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == 1)
        #expect(decoder.isInsideFrame)
        decoder.feed(ok.dropFirst())
        #expect(decoder.nextFrame() != nil)
    }

    @Test func badChecksumRescansFromTheNextByte() {
        var broken = searchHit
        broken[broken.count - 1] ^= 0x01
        let (frames, decoder) = decodeAll([broken + ok])
        #expect(frames == [try! Acknowledgement(frame: Frame(packetID: .acknowledge, content: [0])).frame()])
        #expect(decoder.statistics.checksumErrors == 1)
    }

    @Test func headerHiddenInsideACorruptFrameIsFound() {
        // A frame cut short by a lost byte: its announced length swallows the start of the next
        // frame, the checksum fails, and the rescan finds the real frame inside.
        let truncated = Array(searchHit.prefix(12))
        let (frames, decoder) = decodeAll([truncated + ok + ok])
        #expect(frames.count >= 1)
        #expect(frames.allSatisfy { $0.content == [0] })
        #expect(decoder.statistics.rejectedFrames >= 1)
    }

    @Test func wrongAddressIsDroppedAndRescanned() {
        let foreign = Acknowledgement(code: .success).frame(address: 0x1234_5678).encoded()
        let (frames, decoder) = decodeAll([foreign + ok], address: 0xFFFF_FFFF)
        #expect(frames.count == 1)
        #expect(frames[0].address == 0xFFFF_FFFF)
        #expect(decoder.statistics.addressMismatches == 1)
    }

    @Test(arguments: [[0x00, 0x02], [0x01, 0x03], [0xFF, 0xFF], [0x00, 0x00]])
    func impossibleLengthRescans(length: [UInt8]) {
        let bogus = hex("EF 01 FF FF FF FF 07") + length
        let (frames, decoder) = decodeAll([bogus + ok])
        #expect(frames.count == 1)
        #expect(decoder.statistics.invalidLengths == 1)
    }

    @Test func unknownPacketIDRescans() {
        let bogus = hex("EF 01 FF FF FF FF 05 00 03 00 00 08")
        let (frames, decoder) = decodeAll([bogus + ok])
        #expect(frames.count == 1)
        #expect(decoder.statistics.invalidPacketIDs == 1)
    }

    @Test func maximumLengthDataPacket() {
        let payload = (0..<256).map { UInt8($0) }
        let frame = Frame(packetID: .end, content: payload)
        #expect(frame.lengthField == 258)
        let (frames, _) = decodeAll([frame.encoded()])
        #expect(frames == [frame])
    }

    @Test func resetDropsPartialFrame() {
        var decoder = FrameDecoder()
        decoder.feed(ok.prefix(7))
        decoder.reset()
        decoder.feed(ok)
        #expect(decoder.nextFrame() != nil)
    }

    @Test func echoedCommandIsDecodedAsACommandPacket() {
        let (frames, _) = decodeAll([Command.highSpeedSearch(buffer: 1, start: 0, count: 200).frame().encoded()])
        #expect(frames.first?.packetID == .command)
    }

    /// Property: valid frames embedded in random garbage always come out intact and in order,
    /// and random bytes alone never produce a frame whose checksum is wrong.
    @Test func randomGarbageAroundFrames() {
        var rng = SeededGenerator(seed: 0xF1A9)
        for _ in 0..<300 {
            var stream: [UInt8] = []
            var expected: [Frame] = []
            for _ in 0..<Int.random(in: 1...5, using: &rng) {
                let garbage = (0..<Int.random(in: 0...40, using: &rng)).map { _ in
                    // Avoid accidentally writing a header: an EF here is fine only when no 01 follows.
                    let byte = UInt8.random(in: 0...255, using: &rng)
                    return byte == 0xEF ? 0x55 : byte
                }
                stream += garbage
                let content = (0..<Int.random(in: 1...256, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                let frame = Frame(address: 0xFFFF_FFFF, packetID: [.acknowledge, .data, .end].randomElement(using: &rng)!, content: content)
                expected.append(frame)
                stream += frame.encoded()
            }
            var chunks: [[UInt8]] = []
            var index = 0
            while index < stream.count {
                let size = Int.random(in: 1...64, using: &rng)
                chunks.append(Array(stream[index..<min(index + size, stream.count)]))
                index += size
            }
            let (frames, _) = decodeAll(chunks)
            #expect(frames == expected)
        }
    }

    @Test func pureNoiseNeverYieldsAnInvalidFrame() {
        var rng = SeededGenerator(seed: 7)
        var decoder = FrameDecoder()
        for _ in 0..<2000 {
            decoder.feed((0..<Int.random(in: 1...300, using: &rng)).map { _ in
                [0xEF, 0x01, 0x00, 0xFF].randomElement(using: &rng)! &+ UInt8.random(in: 0...1, using: &rng)
            })
            while let frame = decoder.nextFrame() {
                #expect(Frame.lengthRange.contains(frame.lengthField))
                #expect(!frame.content.isEmpty)
            }
        }
        #expect(decoder.bufferedByteCount < 300 + 267)
    }
}
