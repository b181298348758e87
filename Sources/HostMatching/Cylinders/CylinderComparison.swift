import Glibc

/// The similarity of two impressions from their cylinders: every cylinder of one against every
/// cylinder of the other (local similarities), then consolidation by Local Similarity Sort with
/// Relaxation (LSS-R): the best pairs are kept, and each pair's similarity is raised or lowered
/// by how well its two minutiae agree, in distance and angles, with the other pairs' — one
/// finger's minutiae keep their geometry from touch to touch, a chance resemblance does not.
public enum CylinderComparison {
    /// 0 (nothing in common) … 1 (the same impression); symmetric but for ties in sorting.
    public static func score(_ a: CylinderTemplate, _ b: CylinderTemplate) -> Float {
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
                                    guard abs(CylinderTemplate.difference(angleA, b.angles[j])) <= p.maximumDirectionDifference else { continue }
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
            let proposals = (0..<min(selected, 6)).map { (i: Int(pairs[$0].i), j: Int(pairs[$0].j)) }
            let global = GlobalConsistency.score(a, b, proposals: proposals)
            // The geometric mean: both must agree, so a chance resemblance of cylinders without a
            // consistent placement (or the reverse) stays low.
            return (local * global).squareRoot()
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
        let turnA = CylinderTemplate.difference(a.angles[ta], a.angles[ka])
        let turnB = CylinderTemplate.difference(b.angles[tb], b.angles[kb])
        let z2 = sigmoid(abs(CylinderTemplate.difference(turnA, turnB)), p.directionMidpoint, p.directionSlope)
        guard z2 > 0.001 else { return 0 }
        let radialA = CylinderTemplate.difference(a.angles[ta], atan2(ay, ax))
        let radialB = CylinderTemplate.difference(b.angles[tb], atan2(by, bx))
        let z3 = sigmoid(abs(CylinderTemplate.difference(radialA, radialB)), p.radialMidpoint, p.radialSlope)
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
