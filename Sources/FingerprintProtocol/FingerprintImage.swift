// A fingerprint image as the module sends it (4 bits per pixel over UART) and as people look
// at it (8-bit grayscale, PNG). Pure: no I/O, no C libraries.

/// An 8-bit grayscale fingerprint image, rows top to bottom, pixels left to right.
public struct FingerprintImage: Equatable, Sendable {
    /// Width in pixels (256 on ZFM-20/R307/AS608, 192 on R50x).
    public let width: Int
    /// Height in pixels (288 on ZFM-20/R307/AS608, 192 on R50x).
    public let height: Int
    /// `width * height` gray levels, 0 = black, 255 = white, row-major.
    public let pixels: [UInt8]

    /// Why bytes could not become an image.
    public enum DecodingError: Error, Equatable, CustomStringConvertible {
        /// Width or height is zero/negative, or the width is odd (two pixels share one byte).
        case invalidSize(width: Int, height: Int)
        /// The transfer did not carry exactly `width * height / 2` (nibbles) or `width * height` (pixels) bytes.
        case wrongByteCount(expected: Int, actual: Int, width: Int, height: Int)

        public var description: String {
            switch self {
            case let .invalidSize(width, height):
                return "Image size \(width)×\(height) is not usable: width and height must be positive "
                    + "and the width even (two pixels per byte). Check the module's image size (protocol.md §5.2)."
            case let .wrongByteCount(expected, actual, width, height):
                return "Image data has \(actual) bytes but a \(width)×\(height) image needs \(expected). "
                    + "The transfer was cut short or the size is wrong for this module; retry the upload "
                    + "or pass the module's real image size."
            }
        }
    }

    /// An image from 8-bit pixels; `pixels.count` must be `width * height`.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(DecodingError) {
        guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
        guard pixels.count == width * height else {
            throw .wrongByteCount(expected: width * height, actual: pixels.count, width: width, height: height)
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Decodes the module's UART image format (protocol.md §5.2): one byte holds two horizontally
    /// adjacent pixels, high nibble = left pixel; each nibble is expanded ×17 so 0x0 → 0 and 0xF → 255.
    public init(nibbles: [UInt8], width: Int, height: Int) throws(DecodingError) {
        guard width > 0, height > 0, width % 2 == 0 else { throw .invalidSize(width: width, height: height) }
        let expected = width * height / 2
        guard nibbles.count == expected else {
            throw .wrongByteCount(expected: expected, actual: nibbles.count, width: width, height: height)
        }
        var pixels = [UInt8](repeating: 0, count: width * height)
        for (index, byte) in nibbles.enumerated() {
            pixels[2 * index] = (byte >> 4) * 17
            pixels[2 * index + 1] = (byte & 0x0F) * 17
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Encodes to the module's UART format (what UpImage sends, what the simulator must produce).
    /// Only the upper 4 bits of each pixel survive, exactly as on the real module.
    /// The width is even for every image made by `init(nibbles:width:height:)`; an odd width pads
    /// nothing — the last pixel of one row shares a byte with the first of the next.
    public func nibbles() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: (pixels.count + 1) / 2)
        for index in bytes.indices {
            let left = pixels[2 * index] >> 4
            let right = 2 * index + 1 < pixels.count ? pixels[2 * index + 1] >> 4 : 0
            bytes[index] = left << 4 | right
        }
        return bytes
    }

    /// The image as an 8-bit grayscale PNG file (uncompressed deflate blocks, so any decoder reads it).
    public func pngData() -> [UInt8] {
        PNGWriter.grayscale(width: width, height: height, pixels: pixels)
    }
}

/// Writes minimal PNG files. Stored (uncompressed) deflate keeps it small and obviously correct;
/// a 256×288 image becomes ~74 KB, which is fine for a diagnostic file.
enum PNGWriter {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The deflate format caps a stored block at 65535 bytes.
    static let maxStoredBlock = 65_535

    static func grayscale(width: Int, height: Int, pixels: [UInt8]) -> [UInt8] {
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 0, 0, 0, 0]  // bit depth 8, color type 0 (gray), deflate, filter 0, no interlace

        // Every scanline starts with its filter type; 0 = none.
        var raw: [UInt8] = []
        raw.reserveCapacity((width + 1) * height)
        for row in 0..<height {
            raw.append(0)
            raw += pixels[(row * width)..<((row + 1) * width)]
        }

        var file = signature
        file += chunk("IHDR", header)
        file += chunk("IDAT", zlibStored(raw))
        file += chunk("IEND", [])
        return file
    }

    /// A zlib stream (RFC 1950) of stored deflate blocks (RFC 1951 §3.2.4).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]  // deflate, 32 KB window, no dictionary; 0x7801 % 31 == 0
        var offset = 0
        repeat {
            let length = min(maxStoredBlock, data.count - offset)
            let isLast = offset + length == data.count
            out.append(isLast ? 1 : 0)  // BFINAL bit, BTYPE 00 (stored)
            let len = UInt16(length)
            out += [UInt8(len & 0xFF), UInt8(len >> 8), UInt8(~len & 0xFF), UInt8(~len >> 8)]
            out += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        out.appendBigEndian(adler32(data))
        return out
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.appendBigEndian(UInt32(body.count))
        let typed = Array(type.utf8) + body
        out += typed
        out.appendBigEndian(crc32(typed))
        return out
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        // 5552 is the largest run that cannot overflow 32 bits before the modulo (zlib's NMAX).
        var index = 0
        while index < data.count {
            let end = min(index + 5552, data.count)
            for byte in data[index..<end] {
                a += UInt32(byte)
                b += a
            }
            a %= 65_521
            b %= 65_521
            index = end
        }
        return b << 16 | a
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

extension Array where Element == UInt8 {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
