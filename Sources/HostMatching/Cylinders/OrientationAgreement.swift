import Glibc
import MinutiaeExtraction

/// How well two impressions' ridge directions agree where both saw the print, with one laid on
/// the other by the consistency step's best placement: the mean of cos 2Δ over the blocks of A
/// whose centre falls on B's print (1: the same flow everywhere, 0: unrelated, below 0 crossed).
///
/// Minutiae are few in a small window, and a stranger's can line up by chance with a touch's;
/// the flow of every ridge around them rarely does as well. Measured on FVC2002's crops
/// (`HostMatchBench fusion`, docs/accuracy.md): genuine pairs agree at a median 0.97, strangers'
/// at 0.61, and the strangers that scored highest on minutiae alone mostly below 0.9.
///
/// Directions are kept in steps of 1/256 of a half turn (`step`, as the template stores them),
/// so a block's cos 2Δ is one lookup in a table, never a call to cos: the score is computed for
/// every comparison that reaches the last step.
enum OrientationAgreement {
    /// A placement: A's point (x, y) lies at (c x − s y + shiftX, s x + c y + shiftY) on B, turned by `turn`.
    struct Placement {
        var turn: Float
        var shiftX: Float
        var shiftY: Float
    }

    /// A direction in 0 ..< π as a step of 1/256 of a half turn (any angle: taken modulo π).
    static func step(_ direction: Float) -> UInt8 {
        let half = Double(direction) / Double.pi
        return UInt8(Int(((half - half.rounded(.down)) * 256).rounded(.down)) & 0xFF)
    }

    /// cos 2Δ for a difference of k steps (2Δ = 2πk / 256).
    static let cosines: [Float] = (0..<256).map { Float(cos(2 * Double.pi * Double($0) / 256)) }

    /// Compared blocks' worth of a prior agreement of `priorAgreement` added to the blocks
    /// compared: a placement that overlaps by a few blocks proves little either way, so its
    /// factor stays near `priorAgreement`² instead of swinging with a handful of blocks (a
    /// genuine pair that overlaps little lost what it had; a stranger's small overlap could agree
    /// by chance). The blocks are every other one each way, so 16 stand for about 64 of the
    /// print (a third of the crop's width squared); a whole image compares hundreds.
    static let priorBlocks: Float = 16
    static let priorAgreement: Float = 0.6

    /// The factor the score is multiplied by: the agreement (shrunk towards `priorAgreement` by
    /// `priorBlocks`) squared (a small disagreement costs little, a stranger's flow much);
    /// `priorAgreement`² when no block of the print overlaps, 1 when either impression's
    /// directions are unknown.
    static func factor(_ a: CylinderTemplate, _ b: CylinderTemplate, _ placement: Placement) -> Float {
        guard !a.directions.isEmpty, !b.directions.isEmpty else { return 1 }
        let (sum, count) = total(a, b, placement)
        let agreement = max(0, (sum + priorBlocks * priorAgreement) / (Float(count) + priorBlocks))
        return agreement * agreement
    }

    /// `factor(a, b, placement)`, the same Float, for the comparison's final step: cos and sin
    /// of the turn already known, and `scratch` (`scratchCount(a)` Floats) to list the blocks'
    /// cos 2Δ in. The blocks are weighed without a branch each (`list`), then the listed values
    /// summed in order, as `total` sums them.
    @inline(never)
    static func factor(_ a: CylinderTemplate, _ b: CylinderTemplate, _ placement: Placement, c: Float, s: Float,
                       scratch: UnsafeMutablePointer<Float>) -> Float {
        guard !a.directions.isEmpty, !b.directions.isEmpty else { return 1 }
        let lookupB = GlobalConsistency.Area(b.area)
        let areaA = a.area, areaB = b.area
        let blocksA = areaA.blocksAcross * areaA.blocksDown, blocksB = areaB.blocksAcross * areaB.blocksDown
        guard lookupB.blockShift >= 0, blocksB > 0, areaA.blocksAcross >= 0, areaA.blocksDown >= 0,
              a.directions.count == blocksA, areaA.foreground.count == blocksA,
              b.directions.count == blocksB, areaB.foreground.count == blocksB else { return factor(a, b, placement) }
        let turnSteps = Int((Double(placement.turn) / Double.pi * 256).rounded()) & 0xFF
        let side = Float(areaA.blockSize), half = side / 2
        // Beyond 2²³ a pixel position is no longer a whole Float apart (`wholePart`).
        guard lookupB.width < 8_388_608, lookupB.height < 8_388_608 else { return factor(a, b, placement) }
        let weighed = Weighed(blocksDown: areaA.blocksDown, blocksAcross: areaA.blocksAcross)
        // Room for one group of four rows (`ListingSpace`): on the stack for any crop or sensor
        // image (up to 1 KiB each), where one allocation for all rows would come from the heap.
        let listed = withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, 8 * weighed.perRow)) { blocks in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, 4 * weighed.perRow)) { directions in
                cosines.withUnsafeBufferPointer { cosines in
                    a.directions.withUnsafeBufferPointer { directionsA in
                        b.directions.withUnsafeBufferPointer { directionsB in
                            areaA.foreground.withUnsafeBytes { foregroundA in
                                areaB.foreground.withUnsafeBytes { foregroundB in
                                    list(scratch, ListingSpace(blocks.baseAddress!, directions.baseAddress!, weighed), weighed, lookupB,
                                         cosines.baseAddress!, directionsA.baseAddress!, directionsB.baseAddress!,
                                         foregroundA.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                         foregroundB.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                         acrossA: areaA.blocksAcross, side: side, half: half, c: c, s: s,
                                         shiftX: placement.shiftX, shiftY: placement.shiftY, turnSteps: turnSteps)
                                }
                            }
                        }
                    }
                }
            }
        }
        var sum: Float = 0
        for index in 0..<listed { sum += scratch[index] }
        let agreement = max(0, (sum + priorBlocks * priorAgreement) / (Float(listed) + priorBlocks))
        return agreement * agreement
    }

    /// The blocks of A the flow weighs: every other row, every other block of each.
    struct Weighed {
        /// Rows weighed, blocks weighed in each, and all of them.
        let rows: Int
        let perRow: Int
        let count: Int

        init(blocksDown: Int, blocksAcross: Int) {
            rows = (max(0, blocksDown) + 1) / 2
            perRow = (max(0, blocksAcross) + 1) / 2
            count = rows * perRow
        }
    }

    /// `list`'s room for one group of four weighed rows: for each of their blocks, the block of
    /// B its centre falls in, or -1 off B's image (4 × `perRow`, the four rows side by side for
    /// each block); then the blocks that may count, in order: their block on B (4 × `perRow`)
    /// and their direction on A (4 × `perRow` bytes).
    struct ListingSpace {
        let blocksOnB: UnsafeMutablePointer<Int32>
        let keptOnB: UnsafeMutablePointer<Int32>
        let keptDirections: UnsafeMutablePointer<UInt8>

        /// `blocks`: 8 × `perRow` Int32s; `directions`: 4 × `perRow` bytes.
        init(_ blocks: UnsafeMutablePointer<Int32>, _ directions: UnsafeMutablePointer<UInt8>, _ weighed: Weighed) {
            blocksOnB = blocks
            keptOnB = blocks + 4 * weighed.perRow
            keptDirections = directions
        }
    }

    /// The blocks' cos 2Δ, in `total`'s order, of the blocks `total` counts; their count. A
    /// block's centre moves along a row by (2c side, 2s side), added to (u, v) together as
    /// `total` adds them one after the other.
    ///
    /// Four rows at a time, in three passes, so that no step waits long on the one before. First
    /// the block of B under each block's centre, the four rows side by side in vectors (a row's
    /// centres are a chain of additions, each waiting for the last; the rows are independent),
    /// without a branch or a checked conversion (`GlobalConsistency.Area.flags` finds columns
    /// and rows the same way). Then, row by row, the blocks on A's print whose centre is on B's
    /// image are kept (about half of them); then only these are looked up on B.
    @inline(__always)
    static func list(_ scratch: UnsafeMutablePointer<Float>, _ space: ListingSpace, _ weighed: Weighed, _ lookupB: GlobalConsistency.Area,
                     _ cosines: UnsafePointer<Float>, _ directionsA: UnsafePointer<UInt8>, _ directionsB: UnsafePointer<UInt8>,
                     _ foregroundA: UnsafePointer<UInt8>, _ foregroundB: UnsafePointer<UInt8>, acrossA: Int, side: Float, half: Float,
                     c: Float, s: Float, shiftX: Float, shiftY: Float, turnSteps: Int) -> Int {
        let perRow = weighed.perRow
        let stepU = 2 * c * side, stepV = 2 * s * side
        let width = SIMD4<Float>(repeating: lookupB.width), height = SIMD4<Float>(repeating: lookupB.height)
        let shift = Int32(truncatingIfNeeded: lookupB.blockShift), acrossB = Int32(truncatingIfNeeded: lookupB.blocksAcross)
        var listed = 0
        var firstRow = 0
        while firstRow < weighed.rows {
            // Lane l: weighed row firstRow + l (block row twice that); a lane past the last row
            // is computed too, and never read.
            var u = SIMD4<Float>(), v = SIMD4<Float>()
            for lane in 0..<4 {
                let y = Float(2 * (firstRow + lane)) * side + half
                u[lane] = c * half - s * y + shiftX
                v[lane] = s * half + c * y + shiftY
            }
            for block in 0..<perRow {
                let inside = (u .>= 0) .& (v .>= 0) .& (u .< width) .& (v .< height)
                // Columns and rows of the four centres in one vector: u's in its low half, v's in its high.
                let whole = GlobalConsistency.Area.wholePart(SIMD8(lowHalf: SIMD4<Float>().replacing(with: u, where: inside),
                                                                   highHalf: SIMD4<Float>().replacing(with: v, where: inside))) &>> shift
                let column = whole.lowHalf, row = whole.highHalf
                let onB = (row &* acrossB &+ column).replacing(with: -1, where: .!inside)
                UnsafeMutableRawPointer(space.blocksOnB + 4 &* block).storeBytes(of: onB, as: SIMD4<Int32>.self)
                u += stepU
                v += stepV
            }
            var kept = 0
            for lane in 0..<min(4, weighed.rows - firstRow) {
                let first = 2 * (firstRow + lane) * acrossA
                for k in 0..<perRow {
                    let block = first &+ 2 &* k, onB = space.blocksOnB[4 &* k &+ lane]
                    space.keptOnB[kept] = onB
                    space.keptDirections[kept] = directionsA[block]
                    // Kept where on A's print (a flag of 0 or 1) and on B's image (onB ≥ 0: ~onB's
                    // sign bit, spread to all ones by the shift); otherwise the next overwrites it.
                    kept &+= Int(foregroundA[block]) & Int(truncatingIfNeeded: ~onB &>> 31)
                }
            }
            for index in 0..<kept {
                // Listed where on B's print; otherwise the next overwrites it.
                let other = Int(space.keptOnB[index])
                scratch[listed] = cosines[(Int(space.keptDirections[index]) &+ turnSteps &- Int(directionsB[other])) & 0xFF]
                listed &+= Int(foregroundB[other])
            }
            firstRow += 4
        }
        return listed
    }

    /// The Floats `factor(_:_:_:c:s:scratch:)` lists at most: one per block of A it weighs, and one more.
    static func scratchCount(_ a: CylinderTemplate) -> Int {
        Weighed(blocksDown: a.area.blocksDown, blocksAcross: a.area.blocksAcross).count + 1
    }

    /// The plain mean of cos 2Δ over the blocks compared (0 when none is).
    static func mean(_ a: CylinderTemplate, _ b: CylinderTemplate, _ placement: Placement) -> Float {
        let (sum, count) = total(a, b, placement)
        return count > 0 ? sum / Float(count) : 0
    }

    /// The sum of cos 2Δ over the blocks compared, and their count.
    static func total(_ a: CylinderTemplate, _ b: CylinderTemplate, _ placement: Placement) -> (sum: Float, count: Int) {
        let areaA = a.area
        let lookupB = GlobalConsistency.Area(b.area)
        let c = cos(placement.turn), s = sin(placement.turn)
        // The turn in steps (of a half turn: a direction turned by π is the same direction).
        let turnSteps = Int((Double(placement.turn) / Double.pi * 256).rounded()) & 0xFF
        let side = Float(areaA.blockSize), half = side / 2
        var sum: Float = 0, count = 0
        cosines.withUnsafeBufferPointer { cosines in
            a.directions.withUnsafeBufferPointer { directionsA in
                b.directions.withUnsafeBufferPointer { directionsB in
                    areaA.foreground.withUnsafeBufferPointer { foregroundA in
                        b.area.foreground.withUnsafeBytes { foregroundB in
                            // Every other block each way: the flow changes slowly, and a quarter of
                            // the blocks gives the same mean at a quarter of the work.
                            for row in Swift.stride(from: 0, to: areaA.blocksDown, by: 2) {
                                let y = Float(row) * side + half
                                // Along a row, each block's centre moves by (c, s) × 2 sides on B.
                                var u = c * half - s * y + placement.shiftX, v = s * half + c * y + placement.shiftY
                                let stepU = 2 * c * side, stepV = 2 * s * side
                                let first = row * areaA.blocksAcross
                                for block in Swift.stride(from: first, to: first + areaA.blocksAcross, by: 2) {
                                    defer { u += stepU; v += stepV }
                                    guard foregroundA[block], lookupB.flag(foregroundB, u, v) == 1 else { continue }
                                    let other = directionsB[lookupB.block(u, v)]
                                    sum += cosines[(Int(directionsA[block]) + turnSteps - Int(other)) & 0xFF]
                                    count += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        return (sum, count)
    }
}
