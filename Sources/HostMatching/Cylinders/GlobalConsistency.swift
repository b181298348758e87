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
    /// Added to each side's count of minutiae in the overlap: a tiny overlap proves little
    /// (3 until 2026-12-06; 4 with the placement chosen by the ridges' flow too, see `best`).
    static let overlapPrior: Float = 4
    /// Proposals are weighed this many at a time, in the order of their pairs' similarity: the
    /// best product of one batch is the bar every proposal of the next must be able to clear
    /// while its minutiae are paired (`needed`), so most of them are given up early.
    static let batchSize = 6

    /// The comparison's score from its local similarity: under each proposal that pairs a
    /// minutia, √(local × share) with share = m² / ((nA + k)(nB + k)) (0 … 1), times the ridges'
    /// flow under its placement (`OrientationAgreement.factor`); the best of them (0 when none
    /// pairs a minutia). Each proposal is a local pair (i, j) of cylinders: every pair the
    /// consolidation kept (six until 2026-12-07: the later pairs' placements, each a little
    /// different, find the one that lays two distorted whole prints right more often — FVC2002's
    /// whole-image mean EER 2.4 → 1.8 %, docs/accuracy.md). All of them, not only the best share:
    /// the proposal that pairs the most minutiae is not always the one that lays the prints right
    /// — with few minutiae in an overlap, a wrong placement can pair one more by chance.
    ///
    /// The factor is at most 1, so a placement's product is at most its √(local × share), and
    /// the score is the maximum of the products whatever order they are weighed in. They are
    /// weighed `batchSize` at a time, in each batch from the highest upper bound of
    /// √(local × share) down — the share's bound m² / ((nA + k) k), before B's minutiae on A's
    /// print are counted — and a placement whose bound, or then whose √(local × share), is not
    /// above the best product so far cannot win: its pairing is given up, or its B side and its
    /// flow are never computed. `cannotReach` (a 1:N search's threshold) holds every placement to
    /// the threshold the same way: nil when the best is below it. Every value that reaches the
    /// result is computed by the same operations in the same order as the straightforward form
    /// (`ReferenceCylinderComparison`).
    ///
    /// A's minutiae that fall on B's print are listed first (without a branch each), and for each
    /// of them B's minutiae within the distance tolerance are found eight at a time, then
    /// weighed in order.
    static func best(_ a: CylinderTemplate, _ b: CylinderTemplate, proposals: UnsafeBufferPointer<CylinderComparison.Candidate>,
                     local: Float, skippingWhen cannotReach: (Float) -> Bool) -> Float? {
        let areaA = Area(a.area), areaB = Area(b.area)
        let countA = a.minutiaCount, countB = b.minutiaCount, strideA = a.minutiaStride, strideB = b.minutiaStride
        let tolerance = distanceTolerance * distanceTolerance
        let tolerance8 = SIMD8<Float>(repeating: tolerance), lanes = SIMD8<Int32>(1, 2, 4, 8, 16, 32, 64, 128)
        let flowScratch = OrientationAgreement.scratchCount(a)
        return withUnsafeTemporaryAllocation(of: Proposed.self, capacity: max(1, min(proposals.count, batchSize))) { proposed -> Float? in
          withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * countA + countB + strideB + flowScratch) { scratch -> Float? in
            a.minutiae.withUnsafeBufferPointer { minutiaeA -> Float? in
                b.minutiae.withUnsafeBufferPointer { minutiaeB -> Float? in
                    a.area.foreground.withUnsafeBytes { foregroundA -> Float? in
                        b.area.foreground.withUnsafeBytes { foregroundB -> Float? in
                            let xsA = minutiaeA.baseAddress!, ysA = xsA + strideA, anglesA = ysA + strideA
                            let xsB = minutiaeB.baseAddress!, ysB = xsB + strideB, anglesB = ysB + strideB
                            // A's minutiae on B's print under the proposal: position and direction.
                            let overlapX = scratch.baseAddress!, overlapY = overlapX + countA, overlapAngle = overlapY + countA
                            let usedB = overlapAngle + countA, squaredB = usedB + countB
                            let flow = squaredB + strideB
                            var best: Float = 0
                            var start = 0
                            while start < proposals.count {
                                let batch = UnsafeBufferPointer(rebasing: proposals[start..<min(proposals.count, start + batchSize)])
                                start += batchSize
                                var count = 0
                                for proposal in batch {
                                    let (i, j) = (Int(proposal.i), Int(proposal.j))
                                    let turn = b.angles[j] - a.angles[i]
                                    let c = cos(turn), s = sin(turn)
                                    let shiftX = b.xs[j] - (c * a.xs[i] - s * a.ys[i])
                                    let shiftY = b.ys[j] - (s * a.xs[i] + c * a.ys[i])
                                    // Eight of A's minutiae at a time (the stride's padding is never listed).
                                    var inOverlapA = 0
                                    var chunk = 0
                                    while chunk < countA {
                                        let xs8 = UnsafeRawPointer(xsA + chunk).loadUnaligned(as: SIMD8<Float>.self)
                                        let ys8 = UnsafeRawPointer(ysA + chunk).loadUnaligned(as: SIMD8<Float>.self)
                                        let x = c * xs8 - s * ys8 + shiftX, y = s * xs8 + c * ys8 + shiftY
                                        let onB = areaB.flags(foregroundB, x, y)
                                        for lane in 0..<min(8, countA &- chunk) {
                                            overlapX[inOverlapA] = x[lane]
                                            overlapY[inOverlapA] = y[lane]
                                            overlapAngle[inOverlapA] = anglesA[chunk &+ lane]
                                            inOverlapA &+= Int(onB[lane])
                                        }
                                        chunk &+= 8
                                    }
                                    guard inOverlapA > 0 else { continue }
                                    // The fewest paired minutiae whose share's bound (below) is above the best
                                    // product so far and not below the threshold: a proposal that cannot pair
                                    // as many can neither raise the best nor reach the threshold, and is given
                                    // up as soon as the minutiae left cannot make up the difference (1, the
                                    // same as pairing none, where nothing is skipped).
                                    let sharesDenominator = (Float(inOverlapA) + overlapPrior) * overlapPrior
                                    var needed = 1
                                    while true {
                                        let bound = (local * min(1, Float(needed) * Float(needed) / sharesDenominator)).squareRoot()
                                        guard bound <= best || cannotReach(bound) else { break }
                                        guard needed < inOverlapA else { needed = inOverlapA + 1; break }
                                        needed += 1
                                    }
                                    for k in 0..<countB { usedB[k] = 0 }
                                    var paired = 0
                                    for index in 0..<inOverlapA {
                                        if paired &+ (inOverlapA &- index) < needed { break }
                                        let x = overlapX[index], y = overlapY[index], angle = overlapAngle[index]
                                        // B's minutiae in order, the nearest so far kept; one farther than
                                        // the tolerance is never taken, so only those within it are weighed.
                                        var nearest = -1, nearestDistance = tolerance
                                        let x8 = SIMD8<Float>(repeating: x), y8 = SIMD8<Float>(repeating: y)
                                        var chunk = 0
                                        while chunk < strideB {
                                            // Up to 64 of B's minutiae: their squared distances, and a bit for
                                            // each within the tolerance (the sign of squared - tolerance, exact
                                            // in sign for a finite square), eight lanes at a time.
                                            var near: UInt64 = 0
                                            var k = chunk
                                            while k < min(strideB, chunk + 64) {
                                                let dx = UnsafeRawPointer(xsB + k).loadUnaligned(as: SIMD8<Float>.self) - x8
                                                let dy = UnsafeRawPointer(ysB + k).loadUnaligned(as: SIMD8<Float>.self) - y8
                                                let squared = dx * dx + dy * dy
                                                UnsafeMutableRawPointer(squaredB + k).storeBytes(of: squared, as: SIMD8<Float>.self)
                                                let sign = unsafeBitCast(squared - tolerance8, to: SIMD8<Int32>.self) &>> 31
                                                near |= UInt64(truncatingIfNeeded: (sign & lanes).wrappedSum()) &<< UInt64(k - chunk)
                                                k += 8
                                            }
                                            while near != 0 {
                                                let other = chunk + near.trailingZeroBitCount
                                                near &= near &- 1
                                                let distance = squaredB[other]
                                                guard usedB[other] == 0, distance < nearestDistance,
                                                      abs(CylinderTemplate.difference(angle + turn, anglesB[other])) <= angleTolerance else { continue }
                                                nearest = other
                                                nearestDistance = distance
                                            }
                                            chunk += 64
                                        }
                                        if nearest >= 0 {
                                            usedB[nearest] = 1
                                            paired += 1
                                        }
                                    }
                                    guard paired >= needed, paired > 0 else { continue }
                                    let m = Float(paired)
                                    // nB ≥ 0: the share is at most m² / ((nA + k) k) (every step rounds
                                    // monotonically), and so √(local × share) at most this.
                                    let shareBound = m * m / sharesDenominator
                                    proposed[count] = Proposed(bound: (local * min(1, shareBound)).squareRoot(), paired: m, inOverlapA: inOverlapA,
                                                               c: c, s: s, placement: OrientationAgreement.Placement(turn: turn, shiftX: shiftX, shiftY: shiftY))
                                    count += 1
                                }
                                for step in 0..<count {
                                    var highest = step
                                    for index in (step + 1)..<max(step + 1, count) where proposed[index].bound > proposed[highest].bound { highest = index }
                                    proposed.swapAt(step, highest)
                                    let candidate = proposed[step]
                                    // Neither this placement nor any after it can raise the best.
                                    guard candidate.bound > best else { break }
                                    // Below the threshold, and so is every placement after it in this batch
                                    // (a later batch's are held to the threshold by `needed`).
                                    if cannotReach(candidate.bound) { break }
                                    let (c, s) = (candidate.c, candidate.s)
                                    let (shiftX, shiftY) = (candidate.placement.shiftX, candidate.placement.shiftY)
                                    // B's minutiae that fall on A's print, under the inverse proposal.
                                    // Eight at a time; the stride's padding lanes are not counted.
                                    var inOverlapB = 0
                                    var chunk = 0
                                    while chunk < countB {
                                        let dx = UnsafeRawPointer(xsB + chunk).loadUnaligned(as: SIMD8<Float>.self) - shiftX
                                        let dy = UnsafeRawPointer(ysB + chunk).loadUnaligned(as: SIMD8<Float>.self) - shiftY
                                        let x = c * dx + s * dy, y = -s * dx + c * dy
                                        let onA = areaA.flags(foregroundA, x, y)
                                        let real = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7) .< SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: countB &- chunk))
                                        inOverlapB &+= Int(onA.replacing(with: 0, where: .!real).wrappedSum())
                                        chunk &+= 8
                                    }
                                    let m = candidate.paired
                                    let share = m * m / ((Float(candidate.inOverlapA) + overlapPrior) * (Float(inOverlapB) + overlapPrior))
                                    let combined = (local * min(1, share)).squareRoot()
                                    guard combined > best else { continue }
                                    best = max(best, combined * OrientationAgreement.factor(a, b, candidate.placement, c: c, s: s, scratch: flow))
                                }
                            }
                            return cannotReach(best) ? nil : best
                        }
                    }
                }
            }
          }
        }
    }

    /// A proposal that pairs a minutia, before B's side is counted.
    struct Proposed {
        /// An upper bound of √(local × share).
        var bound: Float
        /// The minutiae paired (m).
        var paired: Float
        /// A's minutiae on B's print (nA).
        var inOverlapA: Int
        /// cos and sin of the turn.
        var c: Float
        var s: Float
        var placement: OrientationAgreement.Placement
    }

    /// `ExtractedPrint.isForeground`, inlined: the same answer for every point (a point at or
    /// beyond the last block's edge is outside either way; this form also never traps on one
    /// too large for an Int).
    struct Area {
        let blockSize: Int
        /// log2(blockSize) when it is a power of two (the extractor's 8), else -1: a shift is
        /// the same division for the non-negative pixel positions asked about, and far cheaper.
        let blockShift: Int
        let blocksAcross: Int
        let blocksDown: Int
        let width: Float
        let height: Float

        init(_ print: ExtractedPrint) {
            blockSize = print.blockSize
            blockShift = print.blockSize > 0 && print.blockSize & (print.blockSize - 1) == 0 ? print.blockSize.trailingZeroBitCount : -1
            blocksAcross = print.blocksAcross
            blocksDown = print.blocksDown
            width = Float(print.blocksAcross * print.blockSize)
            height = Float(print.blocksDown * print.blockSize)
        }

        @inline(__always)
        func contains(_ foreground: UnsafeBufferPointer<Bool>, _ x: Float, _ y: Float) -> Bool {
            foreground.withMemoryRebound(to: UInt8.self) { flag(UnsafeRawBufferPointer($0), x, y) } == 1
        }

        /// 1 where `contains`, else 0, without a branch: the block is looked up at the point
        /// moved onto the image (NaN to 0) and the answer kept only where it lay there already.
        @inline(__always)
        func flag(_ foreground: UnsafeRawBufferPointer, _ x: Float, _ y: Float) -> Int {
            let inside = Self.bit(x >= 0) & Self.bit(y >= 0) & Self.bit(x < width) & Self.bit(y < height)
            let clampedX = x < width ? x : 0, clampedY = y < height ? y : 0
            let column = Self.pixel(clampedX > 0 ? clampedX : 0) &>> blockShift, row = Self.pixel(clampedY > 0 ? clampedY : 0) &>> blockShift
            let fallback = blockShift >= 0 ? 0 : 1
            let block = fallback == 0 ? row &* blocksAcross &+ column
                : (Self.pixel(clampedY > 0 ? clampedY : 0) / blockSize) &* blocksAcross &+ Self.pixel(clampedX > 0 ? clampedX : 0) / blockSize
            return Int(foreground[block]) & inside
        }

        /// `flag` of eight points, the same answer for each. Where the blocks are a power of two
        /// in size (the extractor's 8) without a branch: a point's column is the whole part of its
        /// x, found from x + 2²³ (whose lowest bits are x rounded to a whole number: exact for
        /// 0 ≤ x < 2²³, which every point on the image is), less one where that rounded up;
        /// likewise its row. A point off the image (NaN included) looks up block 0 and is not
        /// counted, as in `flag`.
        @inline(__always)
        func flags(_ foreground: UnsafeRawBufferPointer, _ x: SIMD8<Float>, _ y: SIMD8<Float>) -> SIMD8<Int32> {
            guard blockShift >= 0, foreground.count == blocksAcross * blocksDown, foreground.count > 0, width < 8_388_608, height < 8_388_608 else {
                return flagsOneByOne(foreground, x, y)
            }
            let inside = (x .>= 0) .& (y .>= 0) .& (x .< width) .& (y .< height)
            let column = Self.wholePart(SIMD8<Float>().replacing(with: x, where: inside)) &>> Int32(truncatingIfNeeded: blockShift)
            let row = Self.wholePart(SIMD8<Float>().replacing(with: y, where: inside)) &>> Int32(truncatingIfNeeded: blockShift)
            let block = row &* Int32(truncatingIfNeeded: blocksAcross) &+ column
            var result = SIMD8<Int32>()
            // Every block looked up is on the area: an inside point's row and column are within it, any other's are 0.
            let flags = foreground.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for lane in 0..<8 { result[lane] = Int32(flags[Int(block[lane])]) }
            return result.replacing(with: 0, where: .!inside)
        }

        /// `flags` of any area, a point at a time.
        @inline(never)
        func flagsOneByOne(_ foreground: UnsafeRawBufferPointer, _ x: SIMD8<Float>, _ y: SIMD8<Float>) -> SIMD8<Int32> {
            var result = SIMD8<Int32>()
            for lane in 0..<8 { result[lane] = Int32(truncatingIfNeeded: flag(foreground, x[lane], y[lane])) }
            return result
        }

        /// ⌊v⌋ for 0 ≤ v < 2²³ (-0 included), without a conversion that checks its range.
        @inline(__always)
        static func wholePart(_ v: SIMD8<Float>) -> SIMD8<Int32> {
            let biased = v + 8_388_608
            let nearest = unsafeBitCast(biased, to: SIMD8<Int32>.self) &- 0x4B00_0000
            return nearest.replacing(with: nearest &- 1, where: biased - 8_388_608 .> v)
        }

        /// The block a point on the print lies in (where `flag` is 1), by a shift where it can be.
        @inline(__always)
        func block(_ x: Float, _ y: Float) -> Int {
            let column = Self.pixel(x), row = Self.pixel(y)
            return blockShift >= 0 ? (row &>> blockShift) &* blocksAcross &+ (column &>> blockShift)
                : (row / blockSize) &* blocksAcross &+ column / blockSize
        }

        @inline(__always)
        static func bit(_ condition: Bool) -> Int { condition ? 1 : 0 }

        /// A pixel's index, for 0 ≤ value < the image's width or height.
        @inline(__always)
        static func pixel(_ value: Float) -> Int { Int(Int32(value)) }
    }
}
