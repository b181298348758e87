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
    /// The ridges' flow is weighed under the placements with the highest √(local × share), this
    /// many (every placement until 2026-12-07: the same accuracy on FVC2002 within noise, in
    /// half the flow's work, docs/accuracy.md).
    static let flowPlacements = 6

    /// The comparison's score from its local similarity: under each proposal that pairs a
    /// minutia, √(local × share) with share = m² / ((nA + k)(nB + k)) (0 … 1); under the
    /// `flowPlacements` highest of them (the earlier proposal first where two are equal), that
    /// times the ridges' flow (`OrientationAgreement.factor`); the best of these (the first where
    /// two are equal), times the ridges laid on each other around its anchor
    /// (`RidgeAgreement.factor`, since 2026-12-07); 0 when no proposal pairs a minutia. Each proposal is a local pair (i, j) of cylinders: every pair
    /// the consolidation kept (six until 2026-12-07: the later pairs' placements, each a little
    /// different, find the one that lays two distorted whole prints right more often — FVC2002's
    /// whole-image mean EER 2.4 → 1.8 %, docs/accuracy.md). All of them, not only the best share:
    /// the proposal that pairs the most minutiae is not always the one that lays the prints right
    /// — with few minutiae in an overlap, a wrong placement can pair one more by chance.
    ///
    /// What is skipped cannot change the result. nA and nB are counted before the minutiae are
    /// paired, so √(local × share) is known for every count of pairs: once `flowPlacements`
    /// placements are kept, a proposal must pair enough minutiae to rise above the lowest of them
    /// (and, in a 1:N search, to reach the threshold `cannotReach` holds it to), and its pairing
    /// is given up as soon as the minutiae left cannot make up the difference. The flow is
    /// weighed from the highest placement down, and not at all once √(local × share) is no higher
    /// than the best product so far (the factor is at most 1). Every value that reaches the
    /// result is computed by the same operations in the same order as the straightforward form
    /// (`ReferenceCylinderComparison`).
    ///
    /// A's minutiae that fall on B's print are listed first (without a branch each), each with
    /// its cell of B (`Nearby`); for each of them only the unpaired minutiae of B its cell lists
    /// are weighed, in B's order, the nearest within the tolerances taken (the first of equals).
    static func best(_ a: CylinderTemplate, _ b: CylinderTemplate, proposals: UnsafeBufferPointer<CylinderComparison.Candidate>,
                     local: Float, skippingWhen cannotReach: (Float) -> Bool) -> Float? {
        let areaA = Area(a.area), areaB = Area(b.area)
        // A print this large (no image is: `TemplateCoding.maximumSide`) is beyond `Nearby.cells`; it matches nothing.
        guard areaB.width < 8_388_608, areaB.height < 8_388_608 else { return cannotReach(0) ? nil : 0 }
        let countA = a.minutiaCount, countB = b.minutiaCount, strideA = a.minutiaStride, strideB = b.minutiaStride
        let tolerance = distanceTolerance * distanceTolerance
        let nearby = Nearby(areaB, minutiae: countB)
        let flowScratch = OrientationAgreement.scratchCount(a)
        return withUnsafeTemporaryAllocation(of: Kept.self, capacity: flowPlacements + 1) { kept -> Float? in
          withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * countA + flowScratch) { scratch -> Float? in
          withUnsafeTemporaryAllocation(of: UInt64.self, capacity: nearby.count + nearby.words) { cellsBuffer -> Float? in
          withUnsafeTemporaryAllocation(of: Int32.self, capacity: countA) { overlapCells -> Float? in
            a.minutiae.withUnsafeBufferPointer { minutiaeA -> Float? in
                b.minutiae.withUnsafeBufferPointer { minutiaeB -> Float? in
                    a.area.foreground.withUnsafeBytes { foregroundA -> Float? in
                        b.area.foreground.withUnsafeBytes { foregroundB -> Float? in
                            let xsA = minutiaeA.baseAddress!, ysA = xsA + strideA, anglesA = ysA + strideA
                            let xsB = minutiaeB.baseAddress!, ysB = xsB + strideB, anglesB = ysB + strideB
                            // A's minutiae on B's print under the proposal: position and direction.
                            let overlapX = scratch.baseAddress!, overlapY = overlapX + countA, overlapAngle = overlapY + countA
                            let flow = overlapAngle + countA
                            // Each cell's bits, then a bit for each of B's minutiae already paired.
                            let cells = cellsBuffer.baseAddress!, usedB = cells + nearby.count
                            // The first word of the cell each listed minutia of A lies in.
                            let overlapCell = overlapCells.baseAddress!
                            nearby.list(xsB, ysB, into: cells)
                            // The highest placements so far, highest first (an equal one after those already kept).
                            var keptCount = 0
                            for proposal in proposals {
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
                                    let cell = nearby.cells(x, y)
                                    let turned = UnsafeRawPointer(anglesA + chunk).loadUnaligned(as: SIMD8<Float>.self) + turn
                                    for lane in 0..<min(8, countA &- chunk) {
                                        overlapX[inOverlapA] = x[lane]
                                        overlapY[inOverlapA] = y[lane]
                                        overlapAngle[inOverlapA] = turned[lane]
                                        overlapCell[inOverlapA] = cell[lane]
                                        inOverlapA &+= Int(onB[lane])
                                    }
                                    chunk &+= 8
                                }
                                guard inOverlapA > 0 else { continue }
                                // B's minutiae that fall on A's print, under the inverse proposal.
                                // Eight at a time; the stride's padding lanes are not counted.
                                var inOverlapB = 0
                                chunk = 0
                                while chunk < countB {
                                    let dx = UnsafeRawPointer(xsB + chunk).loadUnaligned(as: SIMD8<Float>.self) - shiftX
                                    let dy = UnsafeRawPointer(ysB + chunk).loadUnaligned(as: SIMD8<Float>.self) - shiftY
                                    let x = c * dx + s * dy, y = -s * dx + c * dy
                                    let onA = areaA.flags(foregroundA, x, y)
                                    let real = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7) .< SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: countB &- chunk))
                                    inOverlapB &+= Int(onA.replacing(with: 0, where: .!real).wrappedSum())
                                    chunk &+= 8
                                }
                                let denominator = (Float(inOverlapA) + overlapPrior) * (Float(inOverlapB) + overlapPrior)
                                // The fewest paired minutiae whose √(local × share) is kept (above the lowest
                                // kept placement once there are enough) and not below the threshold; a
                                // proposal that cannot pair as many is given up as soon as the minutiae
                                // left cannot make up the difference.
                                let bar: Float = keptCount == flowPlacements ? kept[keptCount - 1].combined : -1
                                // Found by halving [1, nA + 1] (nA + 1: none is enough): whether a count is
                                // enough only grows with the count.
                                var needed = 1, none = inOverlapA + 1
                                while needed < none {
                                    let middle = (needed + none) / 2
                                    let m = Float(middle)
                                    let combined = (local * min(1, m * m / denominator)).squareRoot()
                                    if combined > bar && !cannotReach(combined) { none = middle } else { needed = middle + 1 }
                                }
                                guard needed <= inOverlapA else { continue }
                                for word in 0..<nearby.words { usedB[word] = 0 }
                                var paired = 0
                                for index in 0..<inOverlapA {
                                    if paired &+ (inOverlapA &- index) < needed { break }
                                    let x = overlapX[index], y = overlapY[index], angle = overlapAngle[index], cell = Int(overlapCell[index])
                                    // B's minutiae near its cell, in order, the nearest so far kept: only those
                                    // within the tolerance can be taken, and every one of them is listed there.
                                    var nearest = -1, nearestDistance = tolerance
                                    for word in 0..<nearby.words {
                                        var near = cells[cell &+ word] & ~usedB[word]
                                        while near != 0 {
                                            let other = word &* 64 &+ near.trailingZeroBitCount
                                            near &= near &- 1
                                            let dx = xsB[other] - x, dy = ysB[other] - y
                                            let distance = dx * dx + dy * dy
                                            // Without a branch: which of them is taken is not foreseeable.
                                            let closer = distance < nearestDistance ? 1 : 0
                                            let turned = abs(CylinderTemplate.difference(angle, anglesB[other])) <= angleTolerance ? 1 : 0
                                            let taken = closer & turned != 0
                                            nearest = taken ? other : nearest
                                            nearestDistance = taken ? distance : nearestDistance
                                        }
                                    }
                                    if nearest >= 0 {
                                        usedB[nearest >> 6] |= 1 &<< UInt64(nearest & 63)
                                        paired += 1
                                    }
                                }
                                guard paired >= needed else { continue }
                                let m = Float(paired)
                                let combined = (local * min(1, m * m / denominator)).squareRoot()
                                // Into the kept list after every placement at least as high (paired ≥ needed:
                                // above the lowest kept, which a full list drops).
                                var position = min(keptCount, flowPlacements - 1)
                                while position > 0 && kept[position - 1].combined < combined {
                                    kept[position] = kept[position - 1]
                                    position -= 1
                                }
                                kept[position] = Kept(anchor: i, combined: combined, c: c, s: s,
                                                      placement: OrientationAgreement.Placement(turn: turn, shiftX: shiftX, shiftY: shiftY))
                                keptCount = min(flowPlacements, keptCount + 1)
                            }
                            var best: Float = 0, winner = -1
                            for index in 0..<keptCount {
                                let candidate = kept[index]
                                // Neither this placement nor any after it can raise the best, or reach the threshold.
                                guard candidate.combined > best, !cannotReach(candidate.combined) else { break }
                                let product = candidate.combined * OrientationAgreement.factor(a, b, candidate.placement,
                                                                                               c: candidate.c, s: candidate.s, scratch: flow)
                                if product > best {
                                    best = product
                                    winner = index
                                }
                            }
                            // The ridges can only lower it (the factor is below 1): not weighed where it cannot reach.
                            guard winner >= 0, !cannotReach(best) else { return cannotReach(best) ? nil : best }
                            let chosen = kept[winner]
                            best *= RidgeAgreement.factor(a, b, anchorX: a.xs[chosen.anchor], anchorY: a.ys[chosen.anchor], placement: chosen.placement)
                            return cannotReach(best) ? nil : best
                        }
                    }
                }
            }
          }
          }
          }
        }
    }

    /// B's minutiae near each square cell of its image, 16 pixels a side (no smaller than the
    /// distance tolerance): a bit per minutia, `words` words per cell, set for the minutiae that
    /// lie in the cell or in one of its eight neighbours. A point on B's print lies in one cell,
    /// and every minutia within the tolerance of it is listed there (a cell index never differs
    /// by more than one between two points closer than a side), so the pairing weighs those alone.
    struct Nearby {
        static let shift = 4
        let across: Int
        let down: Int
        let words: Int
        let minutiae: Int

        init(_ area: Area, minutiae: Int) {
            let side = 1 << Self.shift
            across = max(1, (Int(area.width) + side - 1) >> Self.shift)
            down = max(1, (Int(area.height) + side - 1) >> Self.shift)
            words = max(1, (minutiae + 63) / 64)
            self.minutiae = minutiae
        }

        /// Words the cells take.
        var count: Int { across * down * words }

        /// The first word of the cell each of eight points lies in, for those on the image
        /// (0 ≤ x < width, 0 ≤ y < height); any number for the others.
        @inline(__always)
        func cells(_ x: SIMD8<Float>, _ y: SIMD8<Float>) -> SIMD8<Int32> {
            let inside = (x .>= 0) .& (y .>= 0) .& (x .< Float(across << Self.shift)) .& (y .< Float(down << Self.shift))
            let column = GlobalConsistency.Area.wholePart(SIMD8<Float>().replacing(with: x, where: inside)) &>> Int32(Self.shift)
            let row = GlobalConsistency.Area.wholePart(SIMD8<Float>().replacing(with: y, where: inside)) &>> Int32(Self.shift)
            return (row &* Int32(truncatingIfNeeded: across) &+ column) &* Int32(truncatingIfNeeded: words)
        }

        /// Every cell's bits, from the minutiae's positions (a minutia off the image is listed in
        /// the cells it borders, if any).
        func list(_ xs: UnsafePointer<Float>, _ ys: UnsafePointer<Float>, into cells: UnsafeMutablePointer<UInt64>) {
            cells.initialize(repeating: 0, count: count)
            let side = Float(1 << Self.shift)
            for minutia in 0..<minutiae {
                let column = (xs[minutia] / side).rounded(.down), row = (ys[minutia] / side).rounded(.down)
                // Beyond one cell off the grid (NaN included) it borders none.
                guard column >= -1, column <= Float(across), row >= -1, row <= Float(down) else { continue }
                let (x, y) = (Int(column), Int(row))
                let bit = UInt64(1) &<< UInt64(minutia & 63), word = minutia >> 6
                for cellY in max(0, y - 1)...min(down - 1, y + 1) {
                    for cellX in max(0, x - 1)...min(across - 1, x + 1) {
                        cells[(cellY * across + cellX) * words + word] |= bit
                    }
                }
            }
        }
    }

    /// A placement kept for the flow: its anchor (A's cylinder that proposed it), √(local ×
    /// share), cos and sin of its turn, the placement.
    struct Kept {
        var anchor: Int
        var combined: Float
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
