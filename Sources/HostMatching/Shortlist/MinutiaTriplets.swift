import Glibc

/// Keys of an impression's minutia triplets, for the first stage of a large search
/// (`TripletIndex`): three minutiae of one finger keep their triangle from touch to touch —
/// its sides, and each minutia's direction against the side leaving it — wherever the finger lay
/// and however it was turned, so two impressions of one finger share the keys of the triangles
/// both hold, and a stranger's impressions share few.
///
/// A triangle's vertices are taken in one turning sense (so its mirror image is another key);
/// an enrolled impression keys each triangle once, starting at the vertex whose outgoing side
/// is longest; a probe keys it from all three vertices (two sides of nearly one length may swap
/// between touches) and, where a feature lies within `softMargin` of a bin's edge, with the
/// neighbouring bin as well, so a small shift between touches does not lose the key.
/// Bins, side limits and margin were chosen on FVC2002 crops (`HostMatchBench shortlist`).
enum MinutiaTriplets {
    static let sideBin: Float = 6
    static let directionSections = 16
    static let shortestSide: Float = 10
    static let longestSide: Float = 100
    static let softMargin: Float = 0.25

    /// One hash per triangle of an enrolled impression.
    static func enrolledKeys(_ template: CylinderTemplate) -> [UInt64] {
        var keys: [UInt64] = []
        forEachTriangle(template) { cycle, sides in
            let start = sides[0] >= sides[1] && sides[0] >= sides[2] ? 0 : sides[1] >= sides[2] ? 1 : 2
            keys.append(hash(bins(features(template, cycle, sides, start))))
        }
        return keys
    }

    /// A probe's keys: every start, with the neighbouring bins near an edge.
    static func probeKeys(_ template: CylinderTemplate) -> [UInt64] {
        var keys: [UInt64] = []
        forEachTriangle(template) { cycle, sides in
            for start in 0..<3 {
                let f = features(template, cycle, sides, start)
                let base = bins(f)
                let fraction = f - f.rounded(.down)
                var step = SIMD8<Int32>(repeating: 0)
                step.replace(with: -1, where: fraction .< softMargin)
                step.replace(with: 1, where: fraction .> 1 - softMargin)
                var mask = 0
                for index in 0..<6 where step[index] != 0 { mask |= 1 << index }
                // Every combination of the features that have a neighbouring bin.
                var subset = mask
                while true {
                    var variant = base
                    for index in 0..<6 where subset & (1 << index) != 0 { variant[index] += step[index] }
                    keys.append(hash(variant))
                    if subset == 0 { break }
                    subset = (subset - 1) & mask
                }
            }
        }
        return keys
    }

    /// Three sides in bins, then three directions in sections, not yet rounded down (lanes 6
    /// and 7 unused, 0.5 so that they never count as near an edge).
    private static func features(_ t: CylinderTemplate, _ cycle: SIMD3<Int32>, _ sides: SIMD3<Float>, _ start: Int) -> SIMD8<Float> {
        let stride = t.minutiaStride
        var values = SIMD8<Float>(repeating: 0.5)
        let sectionWidth = 2 * Float.pi / Float(directionSections)
        for step in 0..<3 {
            values[step] = sides[(start + step) % 3] / sideBin
            let a = Int(cycle[(start + step) % 3]), b = Int(cycle[(start + step + 1) % 3])
            let dx = t.minutiae[b] - t.minutiae[a], dy = t.minutiae[stride + b] - t.minutiae[stride + a]
            var turn = (t.minutiae[2 * stride + a] - atan2(dy, dx)).truncatingRemainder(dividingBy: 2 * .pi)
            if turn < 0 { turn += 2 * .pi }
            values[3 + step] = turn / sectionWidth
        }
        return values
    }

    private static func bins(_ features: SIMD8<Float>) -> SIMD8<Int32> {
        SIMD8<Int32>(features.rounded(.down))
    }

    /// The key of six bins; directions wrap around (section -1 is the last).
    private static func hash(_ bins: SIMD8<Int32>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for index in 0..<6 {
            var bin = bins[index]
            if index >= 3 { bin = (bin + Int32(directionSections)) % Int32(directionSections) }
            h = (h ^ UInt64(UInt32(bitPattern: bin))) &* 0x100_0000_01B3
        }
        // FNV's low bits mix poorly, and the index takes low bits: fold the high half in.
        return h ^ (h >> 29)
    }

    /// Every three minutiae whose sides all lie within the limits, in one turning sense, with
    /// the sides vertex 0→1, 1→2, 2→0.
    private static func forEachTriangle(_ t: CylinderTemplate, _ body: (SIMD3<Int32>, SIMD3<Float>) -> Void) {
        let n = t.minutiaCount, stride = t.minutiaStride
        guard n >= 3 else { return }
        var distance = [Float](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0..<n {
                let dx = t.minutiae[j] - t.minutiae[i], dy = t.minutiae[stride + j] - t.minutiae[stride + i]
                distance[i * n + j] = (dx * dx + dy * dy).squareRoot()
            }
        }
        func fits(_ d: Float) -> Bool { d >= shortestSide && d <= longestSide }
        for i in 0..<n {
            for j in (i + 1)..<n where fits(distance[i * n + j]) {
                for k in (j + 1)..<n where fits(distance[j * n + k]) && fits(distance[k * n + i]) {
                    let cross = (t.minutiae[j] - t.minutiae[i]) * (t.minutiae[stride + k] - t.minutiae[stride + i])
                        - (t.minutiae[stride + j] - t.minutiae[stride + i]) * (t.minutiae[k] - t.minutiae[i])
                    if cross > 0 {
                        body(SIMD3(Int32(i), Int32(j), Int32(k)), SIMD3(distance[i * n + j], distance[j * n + k], distance[k * n + i]))
                    } else {
                        body(SIMD3(Int32(i), Int32(k), Int32(j)), SIMD3(distance[i * n + k], distance[k * n + j], distance[j * n + i]))
                    }
                }
            }
        }
    }
}
