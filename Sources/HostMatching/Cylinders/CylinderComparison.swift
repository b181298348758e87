import Glibc

/// The similarity of two impressions from their cylinders: every cylinder of one against every
/// cylinder of the other (local similarities), then consolidation by Local Similarity Sort with
/// Relaxation (LSS-R): the best pairs are kept, and each pair's similarity is raised or lowered
/// by how well its two minutiae agree, in distance and angles, with the other pairs' — one
/// finger's minutiae keep their geometry from touch to touch, a chance resemblance does not.
///
/// Written for speed (a 1:N search makes one comparison per enrolled impression) without
/// changing a single score: every floating-point operation that reaches the result is the one
/// the straightforward form makes, in the same order (HostMatchingTests keeps that form as
/// `ReferenceCylinderComparison` and checks the two agree on real impressions, bit for bit;
/// `HostMatchBench dump` compares two builds on every FVC2002 pair). What is saved is work
/// whose outcome is known or can be found more cheaply: popcounts of 128 bits at a time (on
/// x86-64 three vectors added by a carry-save adder first, `ones`), square roots of counts from a table, the cylinders facing each other listed without a branch each,
/// the best pairs found through a histogram instead of a sort of them all (`Selection`),
/// sigmoids not evaluated where they are certainly below their cut-off, a probe's own geometry
/// computed once (`CylinderTemplate.shapes`), no allocation on the heap for a crop's comparison.
public enum CylinderComparison {
    /// 0 (nothing in common) … 1 (the same impression); symmetric but for ties in sorting.
    public static func score(_ a: CylinderTemplate, _ b: CylinderTemplate) -> Float {
        score(a, b, skippingWhen: { _ in false }) ?? 0
    }

    /// The score, or nil without the final steps when `cannotReach(bound)` says an upper bound of
    /// it is too low to matter (before the consistency step, and again before the ridges' flow). The bound is √local, the score the consolidated
    /// local similarity would make with perfect consistency (global ≤ 1, and Float's rounding
    /// keeps √(local × global) ≤ √local): a search that needs only the scores at or above a
    /// threshold skips the step wherever √local is below it — most comparisons with a stranger.
    static func score(_ a: CylinderTemplate, _ b: CylinderTemplate, skippingWhen cannotReach: (Float) -> Bool) -> Float? {
        let p = a.parameters
        let countA = a.cylinderCount, countB = b.cylinderCount
        guard countA > 0, countB > 0 else { return 0 }
        let minimumCommon = Int(p.minimumMatchableShare * Float(min(a.discBits, b.discBits)))
        let kept = min(countA, countB)
        // Scratch, on the stack when small: every local pair, a histogram of their similarities,
        // B's cylinders facing A's, the pairs chosen.
        return withUnsafeTemporaryAllocation(of: Candidate.self, capacity: countA * countB + kept) { scratch -> Float? in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: Selection.buckets) { histogram -> Float? in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * countB) { facing -> Float? in
                    let chosen = UnsafeMutableBufferPointer(rebasing: scratch[(countA * countB)...])
                    var selection = Selection(candidates: scratch.baseAddress!, histogram: histogram.baseAddress!, kept: kept)
                    if p.wordCount == 6 {
                        localSimilarities384(a, b, minimumCommon: minimumCommon, facing: facing.baseAddress!, into: &selection)
                    } else {
                        localSimilarities(a, b, minimumCommon: minimumCommon, into: &selection)
                    }
                    let selected = selection.best(into: chosen.baseAddress!)
                    guard selected > 0 else { return 0 }
                    let pairs = UnsafeBufferPointer(rebasing: chosen[0..<selected])
                    let local = relaxed(pairs, a, b, pairsToAverage: pairsToAverage(countA, countB, p), p)
                    if cannotReach(local.squareRoot()) { return nil }
                    // Under each placement the consistency step proposes, the geometric mean of the
                    // local similarity and that placement's paired share (both must agree, so a chance
                    // resemblance of cylinders without a consistent placement, or the reverse, stays
                    // low), times the ridges' flow there (`OrientationAgreement`, at most 1, so √local
                    // stays a bound); the best of them (`GlobalConsistency.best`).
                    return GlobalConsistency.best(a, b, proposals: pairs, local: local,
                                                  skippingWhen: cannotReach)
                }
            }
        }
    }

    /// One local pair: its similarity, the two cylinders, and (while selecting) where the pair
    /// stands in the order of all pairs (`Selection`).
    struct Candidate {
        var similarity: Float
        var i: Int32
        var j: Int32
        var position: Int32
    }

    /// √n for every count of bits a cylinder can hold (n ≤ 384 with six words), exactly
    /// `Float(n).squareRoot()`.
    static let roots: [Float] = (0...384).map { Float($0).squareRoot() }

    /// The local similarity of every two cylinders that point within `maximumDirectionDifference`
    /// of each other and overlap enough, offered to `selection` in the order i, then j. Six words
    /// a cylinder (the standard 8 × 8 × 6 bits), two at a time: a 128-bit popcount of three
    /// vectors is a few byte operations and one sum, even where the CPU has no popcount.
    @inline(__always)
    static func localSimilarities384(_ a: CylinderTemplate, _ b: CylinderTemplate, minimumCommon: Int,
                                     facing: UnsafeMutablePointer<Int32>, into selection: inout Selection) {
        let maximumDirectionDifference = a.parameters.maximumDirectionDifference
        let countA = a.cylinderCount, countB = b.cylinderCount
        // Two validity masks within one disc of D bits share at least |A| + |B| - D of them:
        // at or beyond this sum, "enough overlap" needs no count.
        let certainlyCommon = a.discBits == b.discBits ? minimumCommon + a.discBits : Int.max
        roots.withUnsafeBufferPointer { roots in
          a.validCounts.withUnsafeBufferPointer { validCountsA in
           b.validCounts.withUnsafeBufferPointer { validCountsB in
            a.angles.withUnsafeBufferPointer { anglesA in
                b.angles.withUnsafeBufferPointer { anglesB in
                    a.values.withUnsafeBufferPointer { valuesA in
                        a.validity.withUnsafeBufferPointer { validA in
                            b.values.withUnsafeBufferPointer { valuesB in
                                b.validity.withUnsafeBufferPointer { validB in
                                    let valuesA = UnsafeRawPointer(valuesA.baseAddress!), validA = UnsafeRawPointer(validA.baseAddress!)
                                    let valuesB = UnsafeRawPointer(valuesB.baseAddress!), validB = UnsafeRawPointer(validB.baseAddress!)
                                    for i in 0..<countA {
                                        // B's cylinders facing this one, in order, without a branch per cylinder
                                        // (a 0/1 flag each, eight at a time, then a list of those flagged).
                                        let flags = facing + countB
                                        facingFlags(anglesA[i], anglesB, maximumDirectionDifference, flags)
                                        var facingCount = 0
                                        for j in 0..<countB {
                                            facing[facingCount] = Int32(truncatingIfNeeded: j)
                                            facingCount &+= Int(flags[j])
                                        }
                                        let x = Cylinder384(valuesA, validA, i)
                                        let validCountA = Int(validCountsA[i])
                                        for f in 0..<facingCount {
                                            let j = Int(facing[f])
                                            let y = Cylinder384(valuesB, validB, j)
                                            let mask0 = x.valid0 & y.valid0, mask1 = x.valid1 & y.valid1, mask2 = x.valid2 & y.valid2
                                            if validCountA + Int(validCountsB[j]) < certainlyCommon {
                                                guard ones(mask0, mask1, mask2) >= minimumCommon else { continue }
                                            }
                                            let a0 = x.value0 & mask0, a1 = x.value1 & mask1, a2 = x.value2 & mask2
                                            let b0 = y.value0 & mask0, b1 = y.value1 & mask1, b2 = y.value2 & mask2
                                            let onesA = ones(a0, a1, a2), onesB = ones(b0, b1, b2)
                                            let differing = ones(a0 ^ b0, a1 ^ b1, a2 ^ b2)
                                            let norm = roots[onesA] + roots[onesB]
                                            guard norm > 0 else { continue }
                                            let similarity = 1 - roots[differing] / norm
                                            guard similarity > 0 else { continue }
                                            selection.offer(similarity, i, j)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
           }
          }
        }
    }

    /// flags[j] = 1 where |difference(angle, angles[j])| ≤ maximum, else 0: the same
    /// difference (`CylinderTemplate.difference`), its steps taken eight lanes at a time, and
    /// where a lane would need more than one step, the eight taken one by one.
    @inline(__always)
    static func facingFlags(_ angle: Float, _ angles: UnsafeBufferPointer<Float>, _ maximum: Float, _ flags: UnsafeMutablePointer<Int32>) {
        let count = angles.count
        let twoPi = SIMD8<Float>(repeating: 2 * .pi), below = SIMD8<Float>(repeating: -.pi), above = SIMD8<Float>(repeating: .pi)
        let a = SIMD8<Float>(repeating: angle), limit = SIMD8<Float>(repeating: maximum)
        var j = 0
        while j + 8 <= count {
            var d = a - UnsafeRawPointer(angles.baseAddress! + j).loadUnaligned(as: SIMD8<Float>.self)
            d.replace(with: d + twoPi, where: d .< below)
            d.replace(with: d - twoPi, where: d .>= above)
            if _slowPath(any((d .< below) .| (d .>= above))) {
                for lane in j..<(j + 8) { flags[lane] = abs(CylinderTemplate.difference(angle, angles[lane])) <= maximum ? 1 : 0 }
            } else {
                let within = SIMD8<Int32>(repeating: 0).replacing(with: 1, where: (d .<= limit) .& (d .>= -limit))
                UnsafeMutableRawPointer(flags + j).storeBytes(of: within, as: SIMD8<Int32>.self)
            }
            j += 8
        }
        while j < count {
            flags[j] = abs(CylinderTemplate.difference(angle, angles[j])) <= maximum ? 1 : 0
            j += 1
        }
    }

    /// One cylinder of six words, as three 128-bit vectors of values and three of validity.
    struct Cylinder384 {
        let value0, value1, value2, valid0, valid1, valid2: SIMD2<UInt64>

        @inline(__always)
        init(_ values: UnsafeRawPointer, _ validity: UnsafeRawPointer, _ index: Int) {
            let offset = index * 48
            value0 = values.loadUnaligned(fromByteOffset: offset, as: SIMD2<UInt64>.self)
            value1 = values.loadUnaligned(fromByteOffset: offset + 16, as: SIMD2<UInt64>.self)
            value2 = values.loadUnaligned(fromByteOffset: offset + 32, as: SIMD2<UInt64>.self)
            valid0 = validity.loadUnaligned(fromByteOffset: offset, as: SIMD2<UInt64>.self)
            valid1 = validity.loadUnaligned(fromByteOffset: offset + 16, as: SIMD2<UInt64>.self)
            valid2 = validity.loadUnaligned(fromByteOffset: offset + 32, as: SIMD2<UInt64>.self)
        }
    }

    /// The bits set in six words.
    ///
    /// On x86-64 the baseline has no popcount instruction, and each vector's count is a dozen
    /// byte operations: the three vectors are first added bit by bit (a carry-save adder: each
    /// bit position's 0…3 set bits as a ones bit and a twos bit), so only two are counted.
    @inline(__always)
    static func ones(_ a: SIMD2<UInt64>, _ b: SIMD2<UInt64>, _ c: SIMD2<UInt64>) -> Int {
        #if arch(x86_64)
        let ab = a ^ b
        let onesBits = ab ^ c, twosBits = (a & b) | (ab & c)
        let sum = onesBits.nonzeroBitCount &+ twosBits.nonzeroBitCount &<< 1
        #else
        let sum = a.nonzeroBitCount &+ b.nonzeroBitCount &+ c.nonzeroBitCount
        #endif
        return Int(truncatingIfNeeded: sum[0] &+ sum[1])
    }

    /// The same for cylinders of any other size, a word at a time.
    static func localSimilarities(_ a: CylinderTemplate, _ b: CylinderTemplate, minimumCommon: Int, into selection: inout Selection) {
        let p = a.parameters
        let words = p.wordCount
        a.values.withUnsafeBufferPointer { valuesA in
            a.validity.withUnsafeBufferPointer { validA in
                b.values.withUnsafeBufferPointer { valuesB in
                    b.validity.withUnsafeBufferPointer { validB in
                        for i in 0..<a.cylinderCount {
                            let angleA = a.angles[i]
                            for j in 0..<b.cylinderCount {
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
                                selection.offer(similarity, i, j)
                            }
                        }
                    }
                }
            }
        }
    }

    /// LSS's choice of the `kept` best local pairs, best first, exactly as a selection sort of all
    /// pairs (in the order they were found) would make it — ties included, which a selection sort
    /// breaks by position, and positions move as it swaps — without sorting them all.
    ///
    /// While the pairs are offered, a histogram counts their similarities in buckets of 1/32 of
    /// an octave (the Float's top bits); the buckets from the top down that hold the `kept`
    /// best say which pairs can be chosen at all (a few more, those in the last bucket), and
    /// the selection sort is replayed on these alone: each step takes the highest similarity at
    /// the lowest position, and the pair it displaces from the step's position (when that pair
    /// is among them) moves to its place. The other pairs' moves are never looked at: they are
    /// never chosen.
    struct Selection {
        /// Buckets: similarities 1/256 … 1 (keys 3809 … 4064 of the bits above the lowest 18);
        /// everything smaller shares bucket 0.
        static let buckets = 256
        static let lowestKey = 4064 - 255

        let candidates: UnsafeMutablePointer<Candidate>
        let histogram: UnsafeMutablePointer<Int32>
        let kept: Int
        /// Pairs offered so far: the next one's position in the order of all pairs.
        var offered = 0

        init(candidates: UnsafeMutablePointer<Candidate>, histogram: UnsafeMutablePointer<Int32>, kept: Int) {
            self.candidates = candidates
            self.histogram = histogram
            self.kept = kept
            histogram.initialize(repeating: 0, count: Self.buckets)
        }

        /// The bucket of a similarity in 0 < s ≤ 1 (never decreasing as s grows).
        @inline(__always)
        static func bucket(_ similarity: Float) -> Int {
            let key = Int(similarity.bitPattern &>> 18) &- lowestKey
            return key > 0 ? key : 0
        }

        @inline(__always)
        mutating func offer(_ similarity: Float, _ i: Int, _ j: Int) {
            candidates[offered] = Candidate(similarity: similarity, i: Int32(truncatingIfNeeded: i), j: Int32(truncatingIfNeeded: j),
                                            position: Int32(truncatingIfNeeded: offered))
            offered &+= 1
            histogram[Self.bucket(similarity)] &+= 1
        }

        /// Writes the `min(kept, offered)` best pairs, best first, to `chosen`; returns their count.
        mutating func best(into chosen: UnsafeMutablePointer<Candidate>) -> Int {
            let selected = min(kept, offered)
            guard selected > 0 else { return 0 }
            // The highest bucket whose pairs and those above reach `selected`: pairs in lower
            // buckets have lower similarities than at least `selected` others, and are never chosen.
            var lowest = Self.buckets - 1, above = Int(histogram[lowest])
            while above < selected {
                lowest -= 1
                above += Int(histogram[lowest])
            }
            // A pair's bucket is at least `lowest` exactly where its similarity's bits are at least
            // the first of that bucket's keys (every bucket is, where `lowest` is 0): the sign of a
            // difference, added as a number (a comparison here becomes a branch the CPU mispredicts).
            let first = Int64(lowest > 0 ? (lowest + Self.lowestKey) << 18 : 0)
            var remaining = 0
            for index in 0..<offered {
                candidates[remaining] = candidates[index]
                let fromFirst = Int64(candidates[index].similarity.bitPattern) &- first
                remaining &+= 1 &+ Int(truncatingIfNeeded: fromFirst &>> 63)
            }
            for step in 0..<selected {
                let position = Int32(truncatingIfNeeded: step)
                // The highest similarity, at the lowest position among equals: one key, the
                // similarity's bits (positive, so they order as the values do) above the
                // position's complement. A pair already chosen has key 0.
                var best = 0, bestKey: UInt64 = 0
                for index in 0..<remaining {
                    let candidate = candidates[index]
                    let key = UInt64(candidate.similarity.bitPattern) &<< 32 | UInt64(~UInt32(bitPattern: candidate.position))
                    best = key > bestKey ? index : best
                    bestKey = key > bestKey ? key : bestKey
                }
                // The swap: whatever stood at this step's position goes where the best stood.
                let from = candidates[best].position
                if from != position {
                    for index in 0..<remaining where candidates[index].position == position { candidates[index].position = from }
                }
                chosen[step] = candidates[best]
                candidates[best].similarity = 0
                candidates[best].position = -1
            }
            return selected
        }
    }

    /// How many pairs the score averages [nP]: more when both impressions hold more minutiae.
    static func pairsToAverage(_ countA: Int, _ countB: Int, _ p: CylinderParameters) -> Int {
        let z = sigmoid(Float(min(countA, countB)), p.pairsMidpoint, p.pairsSlope)
        return p.minimumPairs + Int((z * Float(p.maximumPairs - p.minimumPairs)).rounded())
    }

    /// LSS-R's relaxation over the selected pairs, then the mean of the `pairsToAverage` pairs
    /// whose similarity held up best (highest relaxed ÷ initial).
    static func relaxed(_ pairs: UnsafeBufferPointer<Candidate>, _ a: CylinderTemplate, _ b: CylinderTemplate,
                        pairsToAverage: Int, _ p: CylinderParameters) -> Float {
        let count = pairs.count
        guard count > 1 else { return count == 1 ? pairs[0].similarity / Float(pairsToAverage) : 0 }
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: count * count + 4 * count) { scratch in
            // Compatibility of every two selected pairs, once.
            let rho = scratch.baseAddress!
            let cutoffs = Cutoffs(p)
            a.xs.withUnsafeBufferPointer { xsA in
                a.ys.withUnsafeBufferPointer { ysA in
                    a.angles.withUnsafeBufferPointer { anglesA in
                        b.xs.withUnsafeBufferPointer { xsB in
                            b.ys.withUnsafeBufferPointer { ysB in
                                b.angles.withUnsafeBufferPointer { anglesB in
                                    a.shapes.withUnsafeBufferPointer { shapesA in
                                        let countA = a.cylinderCount
                                        if !shapesA.isEmpty, count <= 64 {
                                            // First every distance difference, without a branch; then the full
                                            // compatibility only where it is within the cut-off (elsewhere it is 0).
                                            for t in 0..<count {
                                                let (ta, tb) = (Int(pairs[t].i), Int(pairs[t].j))
                                                var within: UInt64 = 0
                                                for k in (t + 1)..<max(t + 1, count) {
                                                    let (ka, kb) = (Int(pairs[k].i), Int(pairs[k].j))
                                                    let bx = xsB[kb] - xsB[tb], by = ysB[kb] - ysB[tb]
                                                    let distance = abs(shapesA[ta * countA + ka].distance - (bx * bx + by * by).squareRoot())
                                                    within |= UInt64(distance <= cutoffs.distance ? 1 : 0) &<< UInt64(k)
                                                    rho[t * count + k] = 0
                                                    rho[k * count + t] = 0
                                                }
                                                rho[t * count + t] = 0
                                                while within != 0 {
                                                    let k = within.trailingZeroBitCount
                                                    within &= within &- 1
                                                    let (ka, kb) = (Int(pairs[k].i), Int(pairs[k].j))
                                                    let value = compatibility(shapesA[ta * countA + ka], xsB, ysB, anglesB, tb, kb, cutoffs, p)
                                                    rho[t * count + k] = value
                                                    rho[k * count + t] = value
                                                }
                                            }
                                            return
                                        }
                                        for t in 0..<count {
                                            rho[t * count + t] = 0
                                            let (ta, tb) = (Int(pairs[t].i), Int(pairs[t].j))
                                            for k in (t + 1)..<max(t + 1, count) {
                                                let (ka, kb) = (Int(pairs[k].i), Int(pairs[k].j))
                                                let shapeA = shapesA.isEmpty ? CylinderTemplate.PairShape(xsA, ysA, anglesA, ta, ka) : shapesA[ta * countA + ka]
                                                let value = compatibility(shapeA, xsB, ysB, anglesB, tb, kb, cutoffs, p)
                                                rho[t * count + k] = value
                                                rho[k * count + t] = value
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            let base = count * count
            var lambda = scratch.baseAddress! + base
            var next = lambda + count
            let efficiency = next + count
            let support = efficiency + count
            for t in 0..<count { lambda[t] = pairs[t].similarity }
            let weight = p.relaxationWeight, others = Float(count - 1)
            for _ in 0..<p.relaxationRounds {
                // Every pair's support, summed over k in order as a pair at a time would: ρ is
                // symmetric, so row k holds ρ(t, k) for every t, and the sums run side by side,
                // eight in a vector held across the rows (each lane's additions in the same order).
                var eight = 0
                while eight + 8 <= count {
                    var sums = SIMD8<Float>()
                    for k in 0..<count {
                        let row: SIMD8<Float> = UnsafeRawPointer(rho + (k &* count &+ eight)).loadUnaligned(as: SIMD8<Float>.self)
                        sums += row * lambda[k]
                    }
                    UnsafeMutableRawPointer(support + eight).storeBytes(of: sums, as: SIMD8<Float>.self)
                    eight += 8
                }
                for t in eight..<count {
                    var sum: Float = 0
                    for k in 0..<count { sum += rho[k &* count &+ t] * lambda[k] }
                    support[t] = sum
                }
                for t in 0..<count {
                    next[t] = weight * lambda[t] + (1 - weight) * support[t] / others
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

    /// Where the compatibility's sigmoids certainly fall to the cut-off (≤ 0.001, which makes ρ
    /// zero): beyond these, exp is not evaluated. With the standard parameters a distance
    /// difference above 9.4 px or a direction difference above 0.50 rad; the exact crossings are
    /// 9.32 and 0.492, and the 1 % margin is far above Float's rounding, so no outcome changes.
    struct Cutoffs {
        let distance: Float
        let direction: Float

        init(_ p: CylinderParameters) {
            distance = Self.cutoff(p.distanceMidpoint, p.distanceSlope)
            direction = Self.cutoff(p.directionMidpoint, p.directionSlope)
        }

        /// A value beyond which sigmoid(value, midpoint, slope) < 0.001 (infinity for a rising sigmoid).
        static func cutoff(_ midpoint: Float, _ slope: Float) -> Float {
            guard slope < 0, slope.isFinite, midpoint.isFinite else { return .infinity }
            return midpoint + 1.01 * Float(log(999.0)) / -slope + 0.001
        }
    }

    /// How well pair (ta, tb) and pair (ka, kb) agree [ρ]: the distance between the two minutiae
    /// is the same on both sides, and so are their direction difference and the direction of
    /// the line between them relative to each. A's side (`shapeA`) comes ready; B's is computed
    /// as far as the sigmoids need it.
    @inline(__always)
    static func compatibility(_ shapeA: CylinderTemplate.PairShape, _ xsB: UnsafeBufferPointer<Float>, _ ysB: UnsafeBufferPointer<Float>,
                              _ anglesB: UnsafeBufferPointer<Float>, _ tb: Int, _ kb: Int, _ cutoffs: Cutoffs,
                              _ p: CylinderParameters) -> Float {
        let bx = xsB[kb] - xsB[tb], by = ysB[kb] - ysB[tb]
        let distance = abs(shapeA.distance - (bx * bx + by * by).squareRoot())
        guard distance <= cutoffs.distance else { return 0 }
        let z1 = sigmoid(distance, p.distanceMidpoint, p.distanceSlope)
        guard z1 > 0.001 else { return 0 }
        let turnB = CylinderTemplate.difference(anglesB[tb], anglesB[kb])
        let direction = abs(CylinderTemplate.difference(shapeA.turn, turnB))
        guard direction <= cutoffs.direction else { return 0 }
        let z2 = sigmoid(direction, p.directionMidpoint, p.directionSlope)
        guard z2 > 0.001 else { return 0 }
        let radialB = CylinderTemplate.difference(anglesB[tb], atan2(by, bx))
        let z3 = sigmoid(abs(CylinderTemplate.difference(shapeA.radial, radialB)), p.radialMidpoint, p.radialSlope)
        return z1 * z2 * z3
    }

    @inline(__always)
    static func sigmoid(_ value: Float, _ midpoint: Float, _ slope: Float) -> Float {
        1 / (1 + exp(-slope * (value - midpoint)))
    }
}
