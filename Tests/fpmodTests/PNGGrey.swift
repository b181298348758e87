import Foundation

/// Reads an 8-bit grey PNG with an independent decoder (Python's zlib), so a test of a written
/// image does not trust fpmod's own PNG writer.
enum PNGGrey {
    struct Image {
        var width: Int
        var height: Int
        var pixels: [UInt8]
    }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    static let decoder = """
        import sys, struct, zlib
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
        pos, idat, width, height = 8, b'', 0, 0
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b'IHDR':
                width, height, depth, colour = struct.unpack('>IIBB', body[:10])
                assert depth == 8 and colour == 0, 'not 8-bit grey'
            elif kind == b'IDAT':
                idat += body
            pos += 12 + length
        raw = zlib.decompress(idat)
        rows = []
        for y in range(height):
            line = raw[y * (width + 1):(y + 1) * (width + 1)]
            assert line[0] == 0, 'filtered scanline'
            rows.append(line[1:])
        print(width, height, b''.join(rows).hex())
        """

    static func decode(_ data: Data) throws -> Image {
        guard let python = ExternalTools.find("python3") else { throw Unreadable(description: "python3 is not installed") }
        let file = NSTemporaryDirectory() + "fpmod-png-\(UUID().uuidString).png"
        try data.write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try ExternalTools.run(python, ["-c", decoder, file])
        let fields = result.stdout.split(separator: " ")
        guard result.status == 0, fields.count == 3, let width = Int(fields[0]), let height = Int(fields[1]) else {
            throw Unreadable(description: "python3 could not decode the PNG: \(result.stderr)")
        }
        let hex = Array(fields[2].trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        var pixels: [UInt8] = []
        pixels.reserveCapacity(hex.count / 2)
        var index = 0
        while index + 1 < hex.count {
            pixels.append(UInt8(String(decoding: hex[index...index + 1], as: UTF8.self), radix: 16)!)
            index += 2
        }
        return Image(width: width, height: height, pixels: pixels)
    }
}
