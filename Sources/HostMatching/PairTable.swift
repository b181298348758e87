import Glibc

/// One print's minutia pairs, the part of it that does not change when the finger is turned or
/// moved on the sensor (bozorth3's idea): for each pair, the distance between the two minutiae,
/// the direction of the line joining them, and each minutia's ridge direction measured against
/// that line. Built once per print; a comparison only reads it.
///
/// Entries are sorted by distance, and `firstEntry[d]` is where distance `d` starts, so the
/// matcher finds a probe pair's candidates without searching.
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

    let entries: [Entry]
    let firstEntry: [Int32]
    let xs: [Int32]
    let ys: [Int32]
    var minutiaCount: Int { xs.count }

    /// `bothWays`: also store each pair as j → i, so that the other print's pairs need be
    /// stored only one way (galleries store both, probes one).
    public init(_ minutiae: [Minutia], bothWays: Bool) {
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
        entries.sort { $0.distance < $1.distance }
        var firstEntry = [Int32](repeating: Int32(entries.count), count: Self.maximumDistance + 2)
        for (index, entry) in entries.enumerated().reversed() { firstEntry[Int(entry.distance)] = Int32(index) }
        for distance in stride(from: Self.maximumDistance, through: 0, by: -1) {
            firstEntry[distance] = min(firstEntry[distance], firstEntry[distance + 1])
        }
        self.entries = entries
        self.firstEntry = firstEntry
    }
}

/// Whole-degree angle arithmetic on the circle.
enum Angle {
    /// `degrees` brought into -180..<180.
    static func normalized(_ degrees: Int) -> Int {
        var value = (degrees + 180) % 360
        if value < 0 { value += 360 }
        return value - 180
    }

    /// How far apart two angles are, 0...180.
    static func difference(_ a: Int, _ b: Int) -> Int { abs(normalized(a - b)) }
}
