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
    /// cos 2Δ in. The blocks are weighed without a branch each (a block that is not compared
    /// lists its value where the next one will overwrite it), then the listed values summed in
    /// order, as `total` sums them.
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
        let width = lookupB.width, height = lookupB.height, shift = lookupB.blockShift, acrossB = lookupB.blocksAcross
        let acrossA = areaA.blocksAcross
        var listed = 0
        cosines.withUnsafeBufferPointer { cosines in
            a.directions.withUnsafeBufferPointer { directionsA in
                b.directions.withUnsafeBufferPointer { directionsB in
                    areaA.foreground.withUnsafeBytes { foregroundA in
                        areaB.foreground.withUnsafeBytes { foregroundB in
                            let cosines = cosines.baseAddress!, directionsA = directionsA.baseAddress!, directionsB = directionsB.baseAddress!
                            let foregroundA = foregroundA.baseAddress!.assumingMemoryBound(to: UInt8.self)
                            let foregroundB = foregroundB.baseAddress!.assumingMemoryBound(to: UInt8.self)
                            let stepU = 2 * c * side, stepV = 2 * s * side
                            // The extractor's blocks of 8 pixels: the shift a constant.
                            listed = shift == 3
                                ? list(scratch, cosines, directionsA, directionsB, foregroundA, foregroundB, blocksDown: areaA.blocksDown,
                                       acrossA: acrossA, acrossB: acrossB, shift: 3, side: side, half: half, c: c, s: s,
                                       shiftX: placement.shiftX, shiftY: placement.shiftY, stepU: stepU, stepV: stepV,
                                       width: width, height: height, turnSteps: turnSteps)
                                : list(scratch, cosines, directionsA, directionsB, foregroundA, foregroundB, blocksDown: areaA.blocksDown,
                                       acrossA: acrossA, acrossB: acrossB, shift: shift, side: side, half: half, c: c, s: s,
                                       shiftX: placement.shiftX, shiftY: placement.shiftY, stepU: stepU, stepV: stepV,
                                       width: width, height: height, turnSteps: turnSteps)
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

    /// The blocks' cos 2Δ, in `total`'s order, of the blocks `total` counts; their count. A
    /// block's centre moves along a row by (stepU, stepV), added to (u, v) together as `total`
    /// adds them one after the other; one off B's print (NaN included) looks up block 0, and is
    /// not counted.
    @inline(__always)
    static func list(_ scratch: UnsafeMutablePointer<Float>, _ cosines: UnsafePointer<Float>, _ directionsA: UnsafePointer<UInt8>,
                     _ directionsB: UnsafePointer<UInt8>, _ foregroundA: UnsafePointer<UInt8>, _ foregroundB: UnsafePointer<UInt8>,
                     blocksDown: Int, acrossA: Int, acrossB: Int, shift: Int, side: Float, half: Float, c: Float, s: Float,
                     shiftX: Float, shiftY: Float, stepU: Float, stepV: Float, width: Float, height: Float, turnSteps: Int) -> Int {
        var listed = 0
        let step = SIMD2<Float>(stepU, stepV), limits = SIMD2<Float>(width, height)
        var row = 0
        while row < blocksDown {
            let y = Float(row) * side + half
            var point = SIMD2<Float>(c * half - s * y + shiftX, s * half + c * y + shiftY)
            var block = row &* acrossA
            let end = block &+ acrossA
            while block < end {
                let inside = all((point .>= SIMD2<Float>()) .& (point .< limits))
                let at = inside ? point : SIMD2<Float>()
                let other = (Int(Int32(at.y)) &>> shift) &* acrossB &+ (Int(Int32(at.x)) &>> shift)
                let counted = Int(foregroundA[block] & foregroundB[other]) & (inside ? 1 : 0)
                scratch[listed] = cosines[(Int(directionsA[block]) &+ turnSteps &- Int(directionsB[other])) & 0xFF]
                listed &+= counted
                point += step
                block &+= 2
            }
            row &+= 2
        }
        return listed
    }

    /// The Floats `factor(_:_:_:c:s:scratch:)` lists at most: one per block of A it weighs, and one more.
    static func scratchCount(_ a: CylinderTemplate) -> Int {
        (max(0, a.area.blocksDown) + 1) / 2 * ((max(0, a.area.blocksAcross) + 1) / 2) + 1
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
