import Glibc

/// One print's minutia pairs, the part of it that does not change when the finger is turned or
/// moved on the sensor (bozorth3's idea): for each pair, the distance between the two minutiae,
/// the direction of the line joining them, and each minutia's ridge direction measured against
/// that line. Built once per print; a comparison only reads it.
///
/// Entries are sorted by the bin of `angleI` (`angleBinWidth` degrees), then by distance in
/// steps of `distanceStep` px, and `firstEntry[key(d, bin)]` is where that cell starts: the
/// pairs a probe pair can agree with lie in 3 contiguous runs (3 bins, its distance window in
/// each), found without searching. The index is 16-bit and coarse in distance to stay small
/// (3 KB a print, 15 MB for 1000 templates of 5 images).
public struct PairTable: Sendable {
    /// One pair (i → j): `distance` in pixels, `direction` of the line i → j and `angleI`,
    /// `angleJ` the minutiae's directions relative to it, all in degrees -180..<180.
    struct Entry: Sendable {
        var distance: Int16
        var direction: Int16
        var angleI: Int16
        var angleJ: Int16
        var i: UInt8
        var j: UInt8
    }

    /// Pairs closer than this say little (two detections of one ridge feature, noise).
    static let minimumDistance = 8
    /// Pairs farther apart rarely both lie in a small sensor's overlap, and cost the most.
    static let maximumDistance = 150

    /// As wide as PairMatcher's angle tolerance: a probe angle's window spans 3 bins.
    static let angleBinWidth = 9
    static let angleBins = 360 / angleBinWidth
    static let distanceStep = 4
    static let distanceSteps = maximumDistance / distanceStep + 2
    static func key(distance: Int, bin: Int) -> Int { bin * distanceSteps + distance / distanceStep }
    static func bin(_ angle: Int) -> Int { (angle + 180) / angleBinWidth }

    let entries: [Entry]
    let firstEntry: [UInt16]
    let xs: [Int32]
    let ys: [Int32]
    public var minutiaCount: Int { xs.count }

    /// `bothWays`: also store each pair as j → i, so that the other print's pairs need be
    /// stored only one way (galleries store both, probes one).
    public init(_ minutiae: [Minutia], bothWays: Bool) {
        // At most 255 minutiae: indices fit a byte, and both-way entries (255 × 254) 16 bits.
        let used = minutiae.prefix(Int(UInt8.max))
        xs = used.map(\.x)
        ys = used.map(\.y)
        var entries: [Entry] = []
        let points = Array(used)
        for i in points.indices {
            for j in points.indices where j != i && (bothWays || j > i) {
                let dx = Double(points[j].x - points[i].x), dy = Double(points[j].y - points[i].y)
                let distance = Int((dx * dx + dy * dy).squareRoot().rounded())
                guard (Self.minimumDistance...Self.maximumDistance).contains(distance) else { continue }
                let direction = Int((atan2(dy, dx) * 180 / Double.pi).rounded())
                entries.append(Entry(
                    distance: Int16(distance), direction: Int16(Angle.normalized(direction)),
                    angleI: Int16(Angle.normalized(Int(points[i].theta) - direction)),
                    angleJ: Int16(Angle.normalized(Int(points[j].theta) - direction)),
                    i: UInt8(i), j: UInt8(j)))
            }
        }
        func key(_ entry: Entry) -> Int { Self.key(distance: Int(entry.distance), bin: Self.bin(Int(entry.angleI))) }
        entries.sort { key($0) < key($1) }
        let keys = Self.key(distance: 0, bin: Self.angleBins)
        var firstEntry = [UInt16](repeating: UInt16(entries.count), count: keys + 1)
        for (index, entry) in entries.enumerated().reversed() { firstEntry[key(entry)] = UInt16(index) }
        for cell in stride(from: keys - 1, through: 0, by: -1) { firstEntry[cell] = min(firstEntry[cell], firstEntry[cell + 1]) }
        self.entries = entries
        self.firstEntry = firstEntry
    }
}

/// Whole-degree angle arithmetic on the circle.
enum Angle {
    /// `degrees` brought into -180..<180. Loops instead of `%`: the matcher's inner loop calls
    /// this on differences of two normalized angles, a step away at most, and a division is slow.
    @inline(__always)
    static func normalized(_ degrees: Int) -> Int {
        var value = degrees
        while value >= 180 { value -= 360 }
        while value < -180 { value += 360 }
        return value
    }

    /// How far apart two angles are, 0...180.
    @inline(__always)
    static func difference(_ a: Int, _ b: Int) -> Int {
        let distance = abs(a - b)
        return distance > 180 ? 360 - distance : distance
    }
}
