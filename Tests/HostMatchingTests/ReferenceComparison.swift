import Glibc
@testable import HostMatching
import MinutiaeExtraction

// The comparison as it was before it was made fast (commit 9c14820: Cylinders/CylinderComparison.swift
// and GlobalConsistency.swift, copied unchanged but for the names), kept as the reference the
// fast one must equal score for score: ComparisonIdentityTests. Slow on purpose; do not optimise.


/// The similarity of two impressions from their cylinders: every cylinder of one against every
/// cylinder of the other (local similarities), then consolidation by Local Similarity Sort with
/// Relaxation (LSS-R): the best pairs are kept, and each pair's similarity is raised or lowered
/// by how well its two minutiae agree, in distance and angles, with the other pairs' — one
/// finger's minutiae keep their geometry from touch to touch, a chance resemblance does not.
enum ReferenceCylinderComparison {
    /// 0 (nothing in common) … 1 (the same impression); symmetric but for ties in sorting.
    static func score(_ a: CylinderTemplate, _ b: CylinderTemplate) -> Float {
        let p = a.parameters
        let countA = a.cylinderCount, countB = b.cylinderCount
        guard countA > 0, countB > 0 else { return 0 }
        let words = p.wordCount
        let minimumCommon = Int(p.minimumMatchableShare * Float(min(a.discBits, b.discBits)))
        let kept = min(countA, countB)
        // The `kept` best local pairs, best first: (similarity, i, j).
        return withUnsafeTemporaryAllocation(of: (similarity: Float, i: Int32, j: Int32).self, capacity: countA * countB) { pairs in
            var count = 0
            a.values.withUnsafeBufferPointer { valuesA in
                a.validity.withUnsafeBufferPointer { validA in
                    b.values.withUnsafeBufferPointer { valuesB in
                        b.validity.withUnsafeBufferPointer { validB in
                            for i in 0..<countA {
                                let angleA = a.angles[i]
                                for j in 0..<countB {
                                    guard abs(referenceDifference(angleA, b.angles[j])) <= p.maximumDirectionDifference else { continue }
                                    var common = 0, onesA = 0, onesB = 0, differing = 0
                                    for w in 0..<words {
                                        let mask = validA[i * words + w] & validB[j * words + w]
                                        let x = valuesA[i * words + w] & mask, y = valuesB[j * words + w] & mask
                                        common += mask.nonzeroBitCount
                                        onesA += x.nonzeroBitCount
                                        onesB += y.nonzeroBitCount
                                        differing += (x ^ y).nonzeroBitCount
                                    }
                                    guard common >= minimumCommon else { continue }
                                    let norm = Float(onesA).squareRoot() + Float(onesB).squareRoot()
                                    guard norm > 0 else { continue }
                                    let similarity = 1 - Float(differing).squareRoot() / norm
                                    guard similarity > 0 else { continue }
                                    pairs[count] = (similarity, Int32(i), Int32(j))
                                    count += 1
                                }
                            }
                        }
                    }
                }
            }
            guard count > 0 else { return 0 }
            let selected = min(kept, count)
            partialSortDescending(pairs, count: count, first: selected)
            let local = relaxed(pairs, count: selected, a, b, pairsToAverage: pairsToAverage(countA, countB, p), p)
            let proposals = (0..<selected).map { (i: Int(pairs[$0].i), j: Int(pairs[$0].j)) }
            // Under each placement that pairs a minutia: the geometric mean (both must agree, so a
            // chance resemblance of cylinders without a consistent placement, or the reverse, stays
            // low); under the six highest of them (the earlier first where two are equal), times
            // the ridges' flow under it; the best of these.
            let placements = ReferenceGlobalConsistency.placements(a, b, proposals: proposals)
                .map { (combined: (local * $0.share).squareRoot(), placement: $0.placement, proposal: $0.proposal) }
            let highest = placements.indices.sorted {
                placements[$0].combined > placements[$1].combined || (placements[$0].combined == placements[$1].combined && $0 < $1)
            }
            var best: Float = 0, winner: Int?
            for index in highest.prefix(6) {
                let product = placements[index].combined * OrientationAgreement.factor(a, b, placements[index].placement)
                if product > best {
                    best = product
                    winner = index
                }
            }
            // The ridges laid on each other around the winner's anchor (2026-12-07).
            guard let winner else { return best }
            let anchor = proposals[placements[winner].proposal].i
            return best * referenceRidgeFactor(a, b, anchorX: a.xs[anchor], anchorY: a.ys[anchor], placements[winner].placement)
        }
    }

    /// How many pairs the score averages [nP]: more when both impressions hold more minutiae.
    static func pairsToAverage(_ countA: Int, _ countB: Int, _ p: CylinderParameters) -> Int {
        let z = sigmoid(Float(min(countA, countB)), p.pairsMidpoint, p.pairsSlope)
        return p.minimumPairs + Int((z * Float(p.maximumPairs - p.minimumPairs)).rounded())
    }

    /// LSS-R's relaxation over the selected pairs, then the mean of the `pairsToAverage` pairs
    /// whose similarity held up best (highest relaxed ÷ initial).
    static func relaxed(_ pairs: UnsafeMutableBufferPointer<(similarity: Float, i: Int32, j: Int32)>, count: Int,
                        _ a: CylinderTemplate, _ b: CylinderTemplate, pairsToAverage: Int, _ p: CylinderParameters) -> Float {
        guard count > 1 else { return count == 1 ? pairs[0].similarity / Float(pairsToAverage) : 0 }
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: count * count + 3 * count) { scratch in
            // Compatibility of every two selected pairs, once.
            let rho = UnsafeMutableBufferPointer(rebasing: scratch[0..<(count * count)])
            for t in 0..<count {
                rho[t * count + t] = 0
                let (ta, tb) = (Int(pairs[t].i), Int(pairs[t].j))
                for k in (t + 1)..<max(t + 1, count) {
                    let (ka, kb) = (Int(pairs[k].i), Int(pairs[k].j))
                    let value = compatibility(a, ta, ka, b, tb, kb, p)
                    rho[t * count + k] = value
                    rho[k * count + t] = value
                }
            }
            let base = count * count
            var lambda = UnsafeMutableBufferPointer(rebasing: scratch[base..<(base + count)])
            var next = UnsafeMutableBufferPointer(rebasing: scratch[(base + count)..<(base + 2 * count)])
            let efficiency = UnsafeMutableBufferPointer(rebasing: scratch[(base + 2 * count)..<(base + 3 * count)])
            for t in 0..<count { lambda[t] = pairs[t].similarity }
            for _ in 0..<p.relaxationRounds {
                for t in 0..<count {
                    var support: Float = 0
                    for k in 0..<count { support += rho[t * count + k] * lambda[k] }
                    next[t] = p.relaxationWeight * lambda[t] + (1 - p.relaxationWeight) * support / Float(count - 1)
                }
                swap(&lambda, &next)
            }
            for t in 0..<count { efficiency[t] = lambda[t] / pairs[t].similarity }
            // The pairsToAverage most efficient pairs' relaxed similarities, averaged over
            // pairsToAverage (fewer pairs than that count as zeros: little evidence, low score).
            let taken = min(pairsToAverage, count)
            var total: Float = 0
            for _ in 0..<taken {
                var best = 0
                for t in 1..<count where efficiency[t] > efficiency[best] { best = t }
                total += lambda[best]
                efficiency[best] = -.infinity
            }
            return total / Float(pairsToAverage)
        }
    }

    /// How well pair (ta, tb) and pair (ka, kb) agree [ρ]: the distance between the two minutiae
    /// is the same on both sides, and so are their direction difference and the direction of
    /// the line between them relative to each.
    @inline(__always)
    static func compatibility(_ a: CylinderTemplate, _ ta: Int, _ ka: Int, _ b: CylinderTemplate, _ tb: Int, _ kb: Int,
                              _ p: CylinderParameters) -> Float {
        let ax = a.xs[ka] - a.xs[ta], ay = a.ys[ka] - a.ys[ta]
        let bx = b.xs[kb] - b.xs[tb], by = b.ys[kb] - b.ys[tb]
        let distance = abs((ax * ax + ay * ay).squareRoot() - (bx * bx + by * by).squareRoot())
        let z1 = sigmoid(distance, p.distanceMidpoint, p.distanceSlope)
        guard z1 > 0.001 else { return 0 }
        let turnA = referenceDifference(a.angles[ta], a.angles[ka])
        let turnB = referenceDifference(b.angles[tb], b.angles[kb])
        let z2 = sigmoid(abs(referenceDifference(turnA, turnB)), p.directionMidpoint, p.directionSlope)
        guard z2 > 0.001 else { return 0 }
        let radialA = referenceDifference(a.angles[ta], atan2(ay, ax))
        let radialB = referenceDifference(b.angles[tb], atan2(by, bx))
        let z3 = sigmoid(abs(referenceDifference(radialA, radialB)), p.radialMidpoint, p.radialSlope)
        return z1 * z2 * z3
    }

    @inline(__always)
    static func sigmoid(_ value: Float, _ midpoint: Float, _ slope: Float) -> Float {
        1 / (1 + exp(-slope * (value - midpoint)))
    }

    /// Moves the `first` highest similarities to the front, highest first (a selection: `first`
    /// is small next to `count`).
    static func partialSortDescending(_ pairs: UnsafeMutableBufferPointer<(similarity: Float, i: Int32, j: Int32)>, count: Int, first: Int) {
        for position in 0..<first {
            var best = position
            for index in (position + 1)..<max(position + 1, count) where pairs[index].similarity > pairs[best].similarity { best = index }
            if best != position { pairs.swapAt(position, best) }
        }
    }
}


/// The final consistency step: the cylinders' best pairs each propose how one impression lies
/// on the other (a turn and a shift); under each proposal the two impressions' minutiae are
/// paired one to one where they fall together, and the count is set against how many minutiae
/// each impression shows in the area both saw. Two touches of one finger that share a corner
/// agree on most of the minutiae in that corner; a stranger's agree by chance on a few.
enum ReferenceGlobalConsistency {
    /// Minutiae closer than this after alignment, and turned less than `angleTolerance`, pair up.
    static let distanceTolerance: Float = 12
    static let angleTolerance: Float = .pi / 6
    /// Added to each side's count of minutiae in the overlap: a tiny overlap proves little.
    static let overlapPrior: Float = 4

    /// Every proposal that pairs a minutia: its paired share, m² / ((nA + k)(nB + k)) (0 … 1), and its placement.
    static func placements(_ a: CylinderTemplate, _ b: CylinderTemplate, proposals: [(i: Int, j: Int)])
        -> [(share: Float, placement: OrientationAgreement.Placement, proposal: Int)] {
        var found: [(share: Float, placement: OrientationAgreement.Placement, proposal: Int)] = []
        for (proposal, (i, j)) in proposals.enumerated() {
            let turn = b.angles[j] - a.angles[i]
            let c = cos(turn), s = sin(turn)
            let shiftX = b.xs[j] - (c * a.xs[i] - s * a.ys[i])
            let shiftY = b.ys[j] - (s * a.xs[i] + c * a.ys[i])
            var usedB = [Bool](repeating: false, count: b.referenceMinutiae.count)
            var paired = 0, inOverlapA = 0
            for minutia in a.referenceMinutiae {
                let x = c * minutia.x - s * minutia.y + shiftX, y = s * minutia.x + c * minutia.y + shiftY
                guard b.area.isForeground(x: x, y: y) else { continue }
                inOverlapA += 1
                var nearest = -1, nearestDistance = distanceTolerance * distanceTolerance
                for (k, other) in b.referenceMinutiae.enumerated() where !usedB[k] {
                    let dx = other.x - x, dy = other.y - y
                    let squared = dx * dx + dy * dy
                    guard squared < nearestDistance,
                          abs(referenceDifference(minutia.angle + turn, other.angle)) <= angleTolerance else { continue }
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
            for other in b.referenceMinutiae {
                let dx = other.x - shiftX, dy = other.y - shiftY
                let x = c * dx + s * dy, y = -s * dx + c * dy
                if a.area.isForeground(x: x, y: y) { inOverlapB += 1 }
            }
            guard paired > 0 else { continue }
            let m = Float(paired)
            let share = m * m / ((Float(inOverlapA) + overlapPrior) * (Float(inOverlapB) + overlapPrior))
            found.append((min(1, share), OrientationAgreement.Placement(turn: turn, shiftX: shiftX, shiftY: shiftY), proposal))
        }
        return found
    }
}

/// How well the ridges agree around A's point (anchorX, anchorY) under `placement`, the
/// straightforward way (`RidgeAgreement`, the fast form, must give the same Float): A's pixels
/// within the radius, every other one each way, on A's print; each move's count of those that
/// land on B's print and agree on ridge or valley; the move chosen on the pixels four apart (the
/// shift across the ridges, then the turn), its agreement on all of them, squared.
func referenceRidgeFactor(_ a: CylinderTemplate, _ b: CylinderTemplate, anchorX: Float, anchorY: Float,
                          _ placement: OrientationAgreement.Placement) -> Float {
    let ridgesA = a.area.ridges, ridgesB = b.area.ridges
    guard !ridgesA.isEmpty, !ridgesB.isEmpty else { return 1 }
    var coarse: [(x: Float, y: Float, ridge: Bool)] = [], all: [(x: Float, y: Float, ridge: Bool)] = []
    if anchorX >= 0, anchorY >= 0, anchorX < Float(a.area.width), anchorY < Float(a.area.height) {
        for dy in stride(from: -40, through: 40, by: 2) {
            for dx in stride(from: -40, through: 40, by: 2) where dx * dx + dy * dy <= 1_600 {
                let x = Int(anchorX) + dx, y = Int(anchorY) + dy
                guard x >= 0, y >= 0, x < a.area.width, y < a.area.height, a.area.isForeground(x: Float(x), y: Float(y)) else { continue }
                let sample = (x: Float(x) - anchorX, y: Float(y) - anchorY, ridge: ridgesA.isRidge(x: x, y: y))
                all.append(sample)
                if dx % 4 == 0 && dy % 4 == 0 { coarse.append(sample) }
            }
        }
    }
    guard !all.isEmpty else { return 0.25 }
    let c = cos(placement.turn), s = sin(placement.turn)
    let anchorBX = c * anchorX - s * anchorY + placement.shiftX, anchorBY = s * anchorX + c * anchorY + placement.shiftY
    var ridge: Float = 0
    let column = Int(anchorX) / a.area.blockSize, row = Int(anchorY) / a.area.blockSize
    if column < a.area.blocksAcross, row < a.area.blocksDown, row * a.area.blocksAcross + column < a.directions.count {
        ridge = Float(a.directions[row * a.area.blocksAcross + column]) / 256 * .pi
    }
    func agreement(_ samples: [(x: Float, y: Float, ridge: Bool)], turn: Float, step: Int) -> Float {
        let ct = cos(turn), st = sin(turn)
        let normal = ridge + .pi / 2 + turn
        let shiftX = Float(step) * cos(normal), shiftY = Float(step) * sin(normal)
        var agree = 0, total = 0
        for sample in samples {
            let u = anchorBX + ct * sample.x - st * sample.y + shiftX + 0.5, v = anchorBY + st * sample.x + ct * sample.y + shiftY + 0.5
            guard u >= 0, v >= 0 else { continue }
            let x = Int(u.rounded(.down)), y = Int(v.rounded(.down))
            guard x < b.area.width, y < b.area.height, b.area.isForeground(x: Float(x), y: Float(y)) else { continue }
            total += 1
            if ridgesB.isRidge(x: x, y: y) == sample.ridge { agree += 1 }
        }
        return (Float(agree) + 10) / (Float(total) + 20)
    }
    // The shift across the ridges first, then the turn at that shift (the first of equals).
    var best: Float = -1, chosen: (turn: Float, step: Int) = (placement.turn, 0)
    for step in -4...4 {
        let value = agreement(coarse, turn: placement.turn, step: step)
        if value > best {
            best = value
            chosen.step = step
        }
    }
    for turnIndex in [-2, -1, 1, 2] {
        let turn = placement.turn + Float(turnIndex) * 0.04
        let value = agreement(coarse, turn: turn, step: chosen.step)
        if value > best {
            best = value
            chosen.turn = turn
        }
    }
    let found = agreement(all, turn: chosen.turn, step: chosen.step)
    return found * found
}

/// The difference of two angles, in -π ..< π, as it was (CylinderTemplate.difference).
func referenceDifference(_ a: Float, _ b: Float) -> Float {
    var d = a - b
    while d < -.pi { d += 2 * .pi }
    while d >= .pi { d -= 2 * .pi }
    return d
}

extension CylinderTemplate {
    /// Every minutia (the template keeps them one field after the other), as the reference read them.
    var referenceMinutiae: [(x: Float, y: Float, angle: Float)] {
        (0..<minutiaCount).map { (x: minutiae[$0], y: minutiae[minutiaStride + $0], angle: minutiae[2 * minutiaStride + $0]) }
    }
}
