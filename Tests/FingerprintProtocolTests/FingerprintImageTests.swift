import Foundation
import Testing

@testable import FingerprintProtocol

@Suite("FingerprintImage")
struct FingerprintImageTests {
    @Test func nibblesExpandHighNibbleToLeftPixel() throws {
        let image = try FingerprintImage(nibbles: [0x0F, 0xA5], width: 2, height: 2)
        #expect(image.pixels == [0, 255, 170, 85])
        #expect(image.width == 2 && image.height == 2)
    }

    @Test func nibbleRoundTripOnFullSizeImage() throws {
        // Every byte value, repeated to fill a 256×288 image, must come back unchanged.
        let wire = (0..<(256 * 288 / 2)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let image = try FingerprintImage(nibbles: wire, width: 256, height: 288)
        #expect(image.nibbles() == wire)
    }

    @Test func encodingKeepsOnlyTheUpperFourBits() throws {
        let image = try FingerprintImage(width: 2, height: 1, pixels: [0x1F, 0xE0])
        #expect(image.nibbles() == [0x1E])
    }

    @Test func wrongByteCountIsRejected() {
        #expect(throws: FingerprintImage.DecodingError.wrongByteCount(expected: 2, actual: 3, width: 2, height: 2)) {
            try FingerprintImage(nibbles: [1, 2, 3], width: 2, height: 2)
        }
    }

    @Test(arguments: [(3, 2), (0, 4), (4, 0), (-2, 2)])
    func oddOrEmptySizesAreRejected(width: Int, height: Int) {
        #expect(throws: FingerprintImage.DecodingError.invalidSize(width: width, height: height)) {
            try FingerprintImage(nibbles: [UInt8](repeating: 0, count: 3), width: width, height: height)
        }
    }

    @Test func errorTextSaysWhatToDo() {
        let error = FingerprintImage.DecodingError.wrongByteCount(expected: 18432, actual: 100, width: 192, height: 192)
        #expect(error.description.contains("100 bytes"))
        #expect(error.description.contains("retry"))
    }

    @Test func pixelInitializerChecksCount() {
        #expect(throws: FingerprintImage.DecodingError.self) {
            try FingerprintImage(width: 3, height: 3, pixels: [1, 2])
        }
    }

    // MARK: PNG structure

    struct Chunk {
        var type: String
        var body: [UInt8]
        var crc: UInt32
    }

    static func chunks(of png: [UInt8]) throws -> [Chunk] {
        var out: [Chunk] = []
        var offset = 8
        while offset < png.count {
            let length = Int(be32(png, offset))
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let body = Array(png[(offset + 8)..<(offset + 8 + length)])
            out.append(Chunk(type: type, body: body, crc: be32(png, offset + 8 + length)))
            offset += 12 + length
        }
        try #require(offset == png.count)
        return out
    }

    static func be32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        bytes[at..<(at + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    @Test func pngHasSignatureChunksAndValidCRCs() throws {
        let image = try FingerprintImage(nibbles: [UInt8](repeating: 0x3C, count: 192 * 192 / 2), width: 192, height: 192)
        let png = image.pngData()
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let chunks = try Self.chunks(of: png)
        #expect(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
        for chunk in chunks {
            #expect(PNGWriter.crc32(Array(chunk.type.utf8) + chunk.body) == chunk.crc, "CRC of \(chunk.type)")
        }
        let ihdr = chunks[0].body
        #expect(ihdr.count == 13)
        #expect(Self.be32(ihdr, 0) == 192)
        #expect(Self.be32(ihdr, 4) == 192)
        #expect(Array(ihdr[8...]) == [8, 0, 0, 0, 0])
        #expect(chunks[2].body.isEmpty)
    }

    @Test func checksumsMatchPublishedVectors() {
        // CRC-32 of "123456789" is 0xCBF43926; Adler-32 of "Wikipedia" is 0x11E60398.
        #expect(PNGWriter.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNGWriter.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(PNGWriter.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    }

    @Test func largeImageSplitsIntoStoredBlocksOfAtMost65535Bytes() throws {
        // 256×288 → 289 × 288 = 74 016 filtered bytes → two stored blocks.
        let stream = PNGWriter.zlibStored([UInt8](repeating: 9, count: 74_016))
        #expect(stream[0] == 0x78 && (UInt16(stream[0]) << 8 | UInt16(stream[1])) % 31 == 0)
        #expect(stream[2] == 0)  // first block not final
        #expect(UInt16(stream[3]) | UInt16(stream[4]) << 8 == 65_535)
        let second = 2 + 5 + 65_535
        #expect(stream[second] == 1)
        #expect(Int(UInt16(stream[second + 1]) | UInt16(stream[second + 2]) << 8) == 74_016 - 65_535)
        #expect(stream.count == 2 + 5 + 65_535 + 5 + (74_016 - 65_535) + 4)
    }

    // MARK: decoded by a decoder we did not write

    /// Python's zlib inflates the IDAT and checks filter bytes; it prints the pixels as hex.
    static let pythonDecoder = """
        import sys, struct, zlib
        data = sys.stdin.buffer.read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
        pos, idat, w, h = 8, b'', 0, 0
        while pos < len(data):
            n, = struct.unpack('>I', data[pos:pos+4]); kind = data[pos+4:pos+8]; body = data[pos+8:pos+8+n]
            crc, = struct.unpack('>I', data[pos+8+n:pos+12+n])
            assert zlib.crc32(kind + body) == crc, kind
            if kind == b'IHDR': w, h = struct.unpack('>II', body[:8]); assert body[8:] == bytes([8,0,0,0,0])
            if kind == b'IDAT': idat += body
            pos += 12 + n
        raw = zlib.decompress(idat)
        assert len(raw) == (w + 1) * h
        rows = [raw[r*(w+1):(r+1)*(w+1)] for r in range(h)]
        assert all(row[0] == 0 for row in rows)
        sys.stdout.write('%d %d %s' % (w, h, b''.join(row[1:] for row in rows).hex()))
        """

    @Test func pythonZlibDecodesTheSamePixels() throws {
        let width = 256, height = 288
        let wire = (0..<(width * height / 2)).map { UInt8(truncatingIfNeeded: ($0 * 31) ^ ($0 >> 7)) }
        let image = try FingerprintImage(nibbles: wire, width: width, height: height)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.pythonDecoder]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Write on another thread: the PNG (~74 KB) is larger than a pipe buffer.
        let png = Data(image.pngData())
        let writer = Thread {
            input.fileHandleForWriting.write(png)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 failed: \(String(decoding: stderr, as: UTF8.self))")

        let expected = "\(width) \(height) " + image.pixels.map { String(format: "%02x", $0) }.joined()
        #expect(String(decoding: stdout, as: UTF8.self) == expected)
    }
}
