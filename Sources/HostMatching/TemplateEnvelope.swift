/// The frame around a `HostTemplate`'s payload: "FPMH", a format byte, the payload's length
/// (4 bytes, little-endian) and CRC-32 (4 bytes), then the payload.
///
/// Formats: 1 is a libfprint print (NBIS minutiae; fpmod up to 0.x's first image-sensor
/// release, and `NBISMatcher`, the baseline it is measured against); 2 was fpmod's own first
/// (the impressions' minutiae and print areas); 3 added the ridge directions over the print; 4
/// is today's (`TemplateCoding`: the same with the ridge pixels, which the comparison's last
/// step lays on each other). A matcher reads only its own
/// format and names the other, so an old store is refused with "enroll again" instead of
/// silently never matching.
///
/// Why: `fp_print_deserialize` aborts the whole process (a GLib-ERROR) on some damaged input, a
/// truncated print for one, so nothing reaches it that this frame has not checked. The store's
/// encryption already authenticates what it keeps; this guards every other path (a backup
/// edited by hand, a bug) and keeps a bad template an error instead of a dead door service.
enum TemplateEnvelope {
    static let magic: [UInt8] = Array("FPMH".utf8)
    /// libfprint's serialized print (NBIS).
    static let libfprintFormat: UInt8 = 1
    /// fpmod's first own format: minutiae and print areas, no ridge directions (refused: enroll again).
    static let minutiaeOnlyFormat: UInt8 = 2
    /// fpmod's second: minutiae, print areas and ridge directions, no ridge pixels (refused: enroll again).
    static let directionsFormat: UInt8 = 3
    /// fpmod's own: `TemplateCoding`.
    static let fpmodFormat: UInt8 = 4
    static let headerSize = magic.count + 1 + 4 + 4

    static func wrap(_ payload: [UInt8], format: UInt8 = libfprintFormat) -> [UInt8] {
        var bytes = magic + [format]
        bytes += littleEndian(UInt32(payload.count))
        bytes += littleEndian(crc32(payload))
        return bytes + payload
    }

    /// The format byte of a frame's header, without reading (or checking) anything after it;
    /// nil when `bytes` do not start with a whole header.
    static func format(of bytes: [UInt8]) -> UInt8? {
        guard bytes.count >= headerSize, bytes.starts(with: magic) else { return nil }
        return bytes[magic.count]
    }

    /// The payload, or why the frame is not intact or not of `format`.
    static func unwrap(_ bytes: [UInt8], format: UInt8 = libfprintFormat) -> Result<ArraySlice<UInt8>, Damage> {
        guard bytes.count >= headerSize, Array(bytes.prefix(magic.count)) == magic else { return .failure(.notATemplate) }
        guard bytes[magic.count] == format else { return .failure(.otherFormat(found: bytes[magic.count], wanted: format)) }
        let length = Int(readLittleEndian(bytes, at: magic.count + 1))
        let checksum = readLittleEndian(bytes, at: magic.count + 5)
        let payload = bytes[headerSize...]
        guard payload.count == length else { return .failure(.truncated(expected: length, found: payload.count)) }
        guard crc32(payload) == checksum else { return .failure(.checksumMismatch) }
        return .success(payload)
    }

    enum Damage: Error, CustomStringConvertible {
        case notATemplate, otherFormat(found: UInt8, wanted: UInt8), truncated(expected: Int, found: Int), checksumMismatch

        var description: String {
            switch self {
            case .notATemplate: "it does not start with fpmod's host-template header"
            case let .otherFormat(found, wanted): "it is of template format \(found), this matcher reads format \(wanted)"
            case let .truncated(expected, found): "it holds \(found) of its \(expected) bytes"
            case .checksumMismatch: "its checksum does not match its contents"
            }
        }
    }

    /// CRC-32 (IEEE 802.3, as zlib's), a byte at a time through a table: a 1:N search checks
    /// every template of the gallery, a few kilobytes each.
    static func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    private static let crcTable: [UInt32] = (0..<256).map { (index: UInt32) in
        var crc = index
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func readLittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}
