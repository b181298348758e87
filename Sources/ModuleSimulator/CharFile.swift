/// The simulator's feature-file format, shaped like the "03 01" files of protocol.md §6:
///
/// | offset | content |
/// |---|---|
/// | 0–1 | `03 01` |
/// | 2 | capture quality |
/// | 3 | minutiae count |
/// | 4–5 | `00 00` |
/// | 6–41 | block mask, 16-bit words (edges set, like the public dumps) |
/// | 56… | 4-byte records: x, y, angle (6 bits) + kind (2 bits), `01` |
/// | last 2 | integrity check (sum of the bytes before it, xor `5A5A`) |
///
/// A stored template is a row of such files (512 = 2 × 256 on R307/AS608, 1536 = 3 × 512 on
/// R503); unused rows are zero. The check lets a template that went up to a host and came back
/// down (DownChar) be recognised, while random bytes are not.
public enum CharFile {
    static let recordsOffset = 56
    static let recordSize = 4

    /// Builds one char file of `size` bytes from the features of a capture.
    public static func encode(_ minutiae: [Minutia], quality: UInt8, size: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        let capacity = (size - recordsOffset - 2) / recordSize
        let records = Array(minutiae.prefix(capacity))
        bytes[0] = 0x03
        bytes[1] = 0x01
        bytes[2] = quality
        bytes[3] = UInt8(records.count)
        let maskWords: [UInt16] = [0xFFFE, 0xE00E, 0xC002, 0x8001, 0x8001, 0x8001, 0x8001, 0x8001, 0x8001,
                                   0x8001, 0x8001, 0x8001, 0x8001, 0x8001, 0xC002, 0xC003, 0xE007, 0xFFFF]
        for (index, word) in maskWords.enumerated() {
            bytes[6 + index * 2] = UInt8(word >> 8)
            bytes[7 + index * 2] = UInt8(word & 0xFF)
        }
        for (index, point) in records.enumerated() {
            let offset = recordsOffset + index * recordSize
            bytes[offset] = point.x
            bytes[offset + 1] = point.y
            bytes[offset + 2] = point.angle | point.kind << 6
            bytes[offset + 3] = 0x01
        }
        let check = integrity(bytes, end: size - 2)
        bytes[size - 2] = UInt8(check >> 8)
        bytes[size - 1] = UInt8(check & 0xFF)
        return bytes
    }

    /// The features of one char file, or nil when the bytes are not a valid file.
    public static func decode(_ bytes: ArraySlice<UInt8>) -> [Minutia]? {
        let file = Array(bytes)
        let size = file.count
        guard size > recordsOffset + 2, file[0] == 0x03, file[1] == 0x01 else { return nil }
        let stored = UInt16(file[size - 2]) << 8 | UInt16(file[size - 1])
        guard stored == integrity(file, end: size - 2) else { return nil }
        let count = min(Int(file[3]), (size - recordsOffset - 2) / recordSize)
        return (0..<count).map { index in
            let offset = recordsOffset + index * recordSize
            return Minutia(x: file[offset], y: file[offset + 1], angle: file[offset + 2] & 0x3F, kind: file[offset + 2] >> 6)
        }
    }

    /// All features in a buffer that holds one char file or a template of several; identical
    /// features seen in two merged captures count once.
    public static func features(in bytes: [UInt8], charFileSize: Int) -> [Minutia] {
        var merged: [Minutia] = []
        var start = 0
        while start + charFileSize <= bytes.count {
            if let points = decode(bytes[start..<start + charFileSize]) {
                for point in points where !merged.contains(where: { $0.isNear(point) }) {
                    merged.append(point)
                }
            }
            start += charFileSize
        }
        return merged
    }

    /// True when at least one row of `bytes` is a valid char file.
    public static func isValid(_ bytes: [UInt8], charFileSize: Int) -> Bool {
        stride(from: 0, to: bytes.count - charFileSize + 1, by: charFileSize).contains {
            decode(bytes[$0..<$0 + charFileSize]) != nil
        }
    }

    /// Lays char files side by side into a template of `templateSize` bytes.
    public static func template(from files: [[UInt8]], templateSize: Int) -> [UInt8] {
        var bytes = files.flatMap { $0 }.prefix(templateSize)
        bytes.append(contentsOf: [UInt8](repeating: 0, count: templateSize - bytes.count))
        return Array(bytes)
    }

    static func integrity(_ bytes: [UInt8], end: Int) -> UInt16 {
        var sum: UInt16 = 0
        for byte in bytes[0..<end] { sum &+= UInt16(byte) }
        return sum ^ 0x5A5A
    }
}

/// Scores two feature sets the way a module's matcher would report it: 0 for strangers,
/// roughly 50–300 for two captures of the same finger (more shared features, higher score).
public enum Matcher {
    public static func score(_ probe: [Minutia], against reference: [Minutia]) -> Int {
        guard !probe.isEmpty, !reference.isEmpty else { return 0 }
        let shared = probe.filter { point in reference.contains { $0.isNear(point) } }.count
        return min(300, shared * 6 + (shared > 4 ? shared % 7 : 0))
    }

    /// The smallest score accepted as a match at security level 1…5 (SynoChip's matcher calls
    /// ≥ 50 a match at the default level 3; level 1 is more permissive, level 5 stricter).
    public static func threshold(securityLevel: Int) -> Int {
        switch securityLevel {
        case ...1: 36
        case 2: 42
        case 3: 50
        case 4: 60
        default: 72
        }
    }

    /// Too few features to extract a usable char file (Img2Tz `07`).
    public static let minimumFeatures = 8
}
