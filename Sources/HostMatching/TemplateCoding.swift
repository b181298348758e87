import MinutiaeExtraction

/// Template format 4: what fpmod's matcher keeps of each enrolled impression — its minutiae,
/// where its print was, which way its ridges ran there and which pixels were ridge — so the
/// cylinders can be built again from it (they are derived data, ten times larger, and their
/// parameters may be tuned without invalidating a store).
///
/// Layout, little-endian: impression count (1 byte), then per impression: width, height (2
/// bytes each), block size (1), blocks across, blocks down (2 each), the foreground flags (one
/// bit per block, rows of blocks concatenated, padded to a byte), the ridge direction of each
/// print block in that order (1 byte each, in 1/256 of a half turn), the ridge map (`RidgeMap`:
/// 1 byte, 0 when the impression has none, else 1 followed by one bit per 8 × 8 tile, rows of
/// tiles concatenated, padded to a byte, set where the tile holds a ridge pixel, then those
/// tiles' 8 bytes each, pixel (x, y) of a tile at bit y × 8 + x), quality score (1), area and
/// clarity (2 each, in 1/10,000), minutia count (2), then 8 bytes per minutia: x and y in 1/8
/// pixel (2 each), angle in 1/65,536 of a turn (2), kind (1), quality in 1/255 (1).
///
/// Decoding checks every count and value against the limits below before it allocates, so a
/// damaged or hostile template (a backup edited by hand) is an error, never a crash or a huge
/// allocation.
public enum TemplateCoding {
    public static let maximumImpressions = 32
    public static let maximumSide = 4096
    public static let maximumMinutiae = 255

    public static func encode(_ impressions: [ExtractedPrint]) -> [UInt8] {
        precondition((1...maximumImpressions).contains(impressions.count), "a template holds 1…\(maximumImpressions) impressions")
        var bytes: [UInt8] = [UInt8(impressions.count)]
        for print in impressions {
            precondition(print.width <= maximumSide && print.height <= maximumSide, "image larger than the format holds")
            put16(&bytes, print.width)
            put16(&bytes, print.height)
            bytes.append(UInt8(print.blockSize))
            put16(&bytes, print.blocksAcross)
            put16(&bytes, print.blocksDown)
            var packed = [UInt8](repeating: 0, count: (print.foreground.count + 7) / 8)
            for (index, flag) in print.foreground.enumerated() where flag { packed[index / 8] |= 1 << UInt8(index % 8) }
            bytes += packed
            for (index, flag) in print.foreground.enumerated() where flag {
                bytes.append(print.orientations.isEmpty ? 0 : OrientationAgreement.step(print.orientations[index]))
            }
            putRidges(&bytes, print.ridges)
            bytes.append(UInt8(clamping: print.quality.score))
            put16(&bytes, fixed(print.quality.area, 10_000))
            put16(&bytes, fixed(print.quality.clarity, 10_000))
            let minutiae = print.minutiae.prefix(maximumMinutiae)
            put16(&bytes, minutiae.count)
            for minutia in minutiae {
                put16(&bytes, fixed(minutia.x, 8, limit: 0xFFFF))
                put16(&bytes, fixed(minutia.y, 8, limit: 0xFFFF))
                let turn = Double(minutia.angle) / (2 * Double.pi)
                put16(&bytes, Int((turn - turn.rounded(.down)) * 65_536) & 0xFFFF)
                bytes.append(minutia.kind.rawValue)
                bytes.append(UInt8(clamping: Int((Double(minutia.quality) * 255).rounded())))
            }
        }
        return bytes
    }

    public static func decode<C: Collection>(_ payload: C) -> Result<[ExtractedPrint], Damage> where C.Element == UInt8 {
        var reader = Reader(bytes: Array(payload))
        do {
            let count = try reader.byte()
            guard (1...maximumImpressions).contains(count) else { return .failure(.impressionCount(count)) }
            var impressions: [ExtractedPrint] = []
            for index in 0..<count { impressions.append(try impression(index, &reader)) }
            guard reader.isAtEnd else { return .failure(.trailingBytes(reader.remaining)) }
            return .success(impressions)
        } catch {
            return .failure(error)
        }
    }

    private static func impression(_ index: Int, _ reader: inout Reader) throws(Damage) -> ExtractedPrint {
        let width = try reader.uint16(), height = try reader.uint16()
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height) else {
            throw .outOfRange(impression: index, what: "image size \(width)×\(height)")
        }
        let blockSize = try reader.byte(), across = try reader.uint16(), down = try reader.uint16()
        guard blockSize > 0, across == (width + blockSize - 1) / blockSize, down == (height + blockSize - 1) / blockSize else {
            throw .outOfRange(impression: index, what: "block grid \(across)×\(down) of \(blockSize) px")
        }
        let flags = across * down
        let packed = Array(try reader.bytes((flags + 7) / 8))
        let foreground = (0..<flags).map { packed[$0 / 8] & (1 << UInt8($0 % 8)) != 0 }
        // Each print block's direction, at the middle of its 1/256 step.
        let directions = try reader.bytes(foreground.count { $0 })
        var orientations = [Float](repeating: 0, count: flags)
        var next = directions.startIndex
        for index in 0..<flags where foreground[index] {
            orientations[index] = (Float(directions[next]) + 0.5) / 256 * Float.pi
            next += 1
        }
        let ridges = try readRidges(&reader, width: width, height: height, impression: index)
        let score = try reader.byte(), area = try reader.uint16(), clarity = try reader.uint16()
        guard score <= 100, area <= 10_000, clarity <= 10_000 else { throw .outOfRange(impression: index, what: "quality") }
        let count = try reader.uint16()
        guard count <= maximumMinutiae else { throw .outOfRange(impression: index, what: "\(count) minutiae") }
        var minutiae: [RidgeMinutia] = []
        minutiae.reserveCapacity(count)
        for _ in 0..<count {
            let x = Float(try reader.uint16()) / 8, y = Float(try reader.uint16()) / 8
            let angle = Float(try reader.uint16()) / 65_536 * 2 * Float.pi
            guard let kind = RidgeMinutia.Kind(rawValue: UInt8(try reader.byte())) else {
                throw .outOfRange(impression: index, what: "minutia kind")
            }
            let quality = Float(try reader.byte()) / 255
            guard x < Float(width), y < Float(height) else { throw .outOfRange(impression: index, what: "a minutia outside the image") }
            minutiae.append(RidgeMinutia(x: x, y: y, angle: angle, kind: kind, quality: quality))
        }
        return ExtractedPrint(width: width, height: height, minutiae: minutiae, blockSize: blockSize, blocksAcross: across,
                              blocksDown: down, foreground: foreground, orientations: orientations, ridges: ridges,
                              quality: PrintQuality(score: score, area: Float(area) / 10_000, clarity: Float(clarity) / 10_000))
    }

    private static func putRidges(_ bytes: inout [UInt8], _ ridges: RidgeMap) {
        guard !ridges.isEmpty else {
            bytes.append(0)
            return
        }
        bytes.append(1)
        var present = [UInt8](repeating: 0, count: (ridges.tiles.count + 7) / 8)
        for (index, tile) in ridges.tiles.enumerated() where tile != 0 { present[index / 8] |= 1 << UInt8(index % 8) }
        bytes += present
        for tile in ridges.tiles where tile != 0 {
            for byte in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: tile >> UInt64(8 * byte))) }
        }
    }

    private static func readRidges(_ reader: inout Reader, width: Int, height: Int, impression: Int) throws(Damage) -> RidgeMap {
        switch try reader.byte() {
        case 0: return .none
        case 1: break
        default: throw .outOfRange(impression: impression, what: "ridge map flag")
        }
        let count = (width + 7) / 8 * ((height + 7) / 8)
        let present = Array(try reader.bytes((count + 7) / 8))
        var tiles = [UInt64](repeating: 0, count: count)
        for index in 0..<count where present[index / 8] & (1 << UInt8(index % 8)) != 0 {
            let word = try reader.bytes(8)
            tiles[index] = word.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) }
            // A tile listed as holding ridge holds some: the encoder lists no other.
            guard tiles[index] != 0 else { throw .outOfRange(impression: impression, what: "empty ridge tile") }
        }
        return RidgeMap(width: width, height: height, tiles: tiles)
    }

    public enum Damage: Error, Equatable, CustomStringConvertible {
        case truncated
        case impressionCount(Int)
        case outOfRange(impression: Int, what: String)
        case trailingBytes(Int)

        public var description: String {
            switch self {
            case .truncated: "it ends in the middle of an impression"
            case .impressionCount(let count): "it claims \(count) impressions (1…\(TemplateCoding.maximumImpressions) allowed)"
            case let .outOfRange(impression, what): "impression \(impression + 1) has an impossible \(what)"
            case .trailingBytes(let count): "\(count) bytes follow the last impression"
            }
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        var isAtEnd: Bool { position == bytes.count }
        var remaining: Int { bytes.count - position }

        mutating func byte() throws(Damage) -> Int {
            guard position < bytes.count else { throw .truncated }
            defer { position += 1 }
            return Int(bytes[position])
        }

        mutating func uint16() throws(Damage) -> Int {
            let low = try byte()
            let high = try byte()
            return low | high << 8
        }

        mutating func bytes(_ count: Int) throws(Damage) -> ArraySlice<UInt8> {
            guard count <= remaining else { throw .truncated }
            defer { position += count }
            return bytes[position..<(position + count)]
        }
    }

    private static func put16(_ bytes: inout [UInt8], _ value: Int) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    private static func fixed(_ value: Float, _ scale: Float, limit: Int = 10_000) -> Int {
        min(limit, max(0, Int((value * scale).rounded())))
    }
}
