import Glibc
import MinutiaeExtraction

/// The final consistency step: the cylinders' best pairs each propose how one impression lies
/// on the other (a turn and a shift); under each proposal the two impressions' minutiae are
/// paired one to one where they fall together, and the count is set against how many minutiae
/// each impression shows in the area both saw. Two touches of one finger that share a corner
/// agree on most of the minutiae in that corner; a stranger's agree by chance on a few.
enum GlobalConsistency {
    /// Minutiae closer than this after alignment, and turned less than `angleTolerance`, pair up.
    static let distanceTolerance: Float = 12
    static let angleTolerance: Float = .pi / 6
    /// Added to each side's count of minutiae in the overlap: a tiny overlap proves little.
    static let overlapPrior: Float = 3

    /// 0 … 1: the best proposal's paired share, m² / ((nA + k)(nB + k)).
    static func score(_ a: CylinderTemplate, _ b: CylinderTemplate, proposals: [(i: Int, j: Int)]) -> Float {
        var best: Float = 0
        for (i, j) in proposals {
            let turn = b.angles[j] - a.angles[i]
            let c = cos(turn), s = sin(turn)
            let shiftX = b.xs[j] - (c * a.xs[i] - s * a.ys[i])
            let shiftY = b.ys[j] - (s * a.xs[i] + c * a.ys[i])
            var usedB = [Bool](repeating: false, count: b.all.count)
            var paired = 0, inOverlapA = 0
            for minutia in a.all {
                let x = c * minutia.x - s * minutia.y + shiftX, y = s * minutia.x + c * minutia.y + shiftY
                guard b.area.isForeground(x: x, y: y) else { continue }
                inOverlapA += 1
                var nearest = -1, nearestDistance = distanceTolerance * distanceTolerance
                for (k, other) in b.all.enumerated() where !usedB[k] {
                    let dx = other.x - x, dy = other.y - y
                    let squared = dx * dx + dy * dy
                    guard squared < nearestDistance,
                          abs(CylinderTemplate.difference(minutia.angle + turn, other.angle)) <= angleTolerance else { continue }
                    nearest = k
                    nearestDistance = squared
                }
                if nearest >= 0 {
                    usedB[nearest] = true
                    paired += 1
                }
            }
            // B's minutiae that fall on A's print, under the inverse proposal.
            var inOverlapB = 0
            for other in b.all {
                let dx = other.x - shiftX, dy = other.y - shiftY
                let x = c * dx + s * dy, y = -s * dx + c * dy
                if a.area.isForeground(x: x, y: y) { inOverlapB += 1 }
            }
            let m = Float(paired)
            best = max(best, m * m / ((Float(inOverlapA) + overlapPrior) * (Float(inOverlapB) + overlapPrior)))
        }
        return min(1, best)
    }
}
