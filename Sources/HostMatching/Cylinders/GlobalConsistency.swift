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

    /// 0 … 1: the best proposal's paired share, m² / ((nA + k)(nB + k)). Each proposal is a
    /// local pair (i, j) of cylinders.
    static func score(_ a: CylinderTemplate, _ b: CylinderTemplate, proposals: UnsafeBufferPointer<CylinderComparison.Candidate>) -> Float {
        let areaA = Area(a.area), areaB = Area(b.area)
        let countA = a.allXs.count, countB = b.allXs.count
        return withUnsafeTemporaryAllocation(of: Bool.self, capacity: countB) { usedB in
            a.allXs.withUnsafeBufferPointer { xsA in
                a.allYs.withUnsafeBufferPointer { ysA in
                    a.allAngles.withUnsafeBufferPointer { anglesA in
                        b.allXs.withUnsafeBufferPointer { xsB in
                            b.allYs.withUnsafeBufferPointer { ysB in
                                b.allAngles.withUnsafeBufferPointer { anglesB in
                                    a.area.foreground.withUnsafeBufferPointer { foregroundA in
                                        b.area.foreground.withUnsafeBufferPointer { foregroundB in
                                            var best: Float = 0
                                            for proposal in proposals {
                                                let (i, j) = (Int(proposal.i), Int(proposal.j))
                                                let turn = b.angles[j] - a.angles[i]
                                                let c = cos(turn), s = sin(turn)
                                                let shiftX = b.xs[j] - (c * a.xs[i] - s * a.ys[i])
                                                let shiftY = b.ys[j] - (s * a.xs[i] + c * a.ys[i])
                                                for k in 0..<countB { usedB[k] = false }
                                                var paired = 0, inOverlapA = 0
                                                for index in 0..<countA {
                                                    let minutiaX = xsA[index], minutiaY = ysA[index], minutiaAngle = anglesA[index]
                                                    let x = c * minutiaX - s * minutiaY + shiftX, y = s * minutiaX + c * minutiaY + shiftY
                                                    guard areaB.contains(foregroundB, x, y) else { continue }
                                                    inOverlapA += 1
                                                    // B's minutiae in order, nearest so far kept. A minutia farther than the
                                                    // tolerance can never be taken, so only those within it are looked at:
                                                    // found eight at a time, the squared distance computed as below.
                                                    var nearest = -1, nearestDistance = distanceTolerance * distanceTolerance
                                                    @inline(__always) func consider(_ k: Int, _ squared: Float) {
                                                        guard !usedB[k], squared < nearestDistance,
                                                              abs(CylinderTemplate.difference(minutiaAngle + turn, anglesB[k])) <= angleTolerance else { return }
                                                        nearest = k
                                                        nearestDistance = squared
                                                    }
                                                    let tolerance = SIMD8<Float>(repeating: distanceTolerance * distanceTolerance)
                                                    let x8 = SIMD8<Float>(repeating: x), y8 = SIMD8<Float>(repeating: y)
                                                    var k = 0
                                                    while k + 8 <= countB {
                                                        let dx = UnsafeRawPointer(xsB.baseAddress! + k).loadUnaligned(as: SIMD8<Float>.self) - x8
                                                        let dy = UnsafeRawPointer(ysB.baseAddress! + k).loadUnaligned(as: SIMD8<Float>.self) - y8
                                                        let squared = dx * dx + dy * dy
                                                        let near = squared .< tolerance
                                                        if any(near) {
                                                            for lane in 0..<8 where near[lane] { consider(k + lane, squared[lane]) }
                                                        }
                                                        k += 8
                                                    }
                                                    while k < countB {
                                                        let dx = xsB[k] - x, dy = ysB[k] - y
                                                        consider(k, dx * dx + dy * dy)
                                                        k += 1
                                                    }
                                                    if nearest >= 0 {
                                                        usedB[nearest] = true
                                                        paired += 1
                                                    }
                                                }
                                                // Nothing paired, or too few to beat the best proposal however few
                                                // of B's minutiae fall on A's print (this share is at most
                                                // m² / ((nA + k) k), and Float's rounding keeps that order): the count
                                                // below cannot change the result.
                                                let m = Float(paired)
                                                guard paired > 0, m * m / ((Float(inOverlapA) + overlapPrior) * overlapPrior) > best else { continue }
                                                // B's minutiae that fall on A's print, under the inverse proposal.
                                                var inOverlapB = 0
                                                for k in 0..<countB {
                                                    let dx = xsB[k] - shiftX, dy = ysB[k] - shiftY
                                                    let x = c * dx + s * dy, y = -s * dx + c * dy
                                                    if areaA.contains(foregroundA, x, y) { inOverlapB += 1 }
                                                }
                                                best = max(best, m * m / ((Float(inOverlapA) + overlapPrior) * (Float(inOverlapB) + overlapPrior)))
                                            }
                                            return min(1, best)
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
            guard x >= 0, y >= 0, x < width, y < height else { return false }
            let column = blockShift >= 0 ? Int(x) &>> blockShift : Int(x) / blockSize
            let row = blockShift >= 0 ? Int(y) &>> blockShift : Int(y) / blockSize
            return foreground[row * blocksAcross + column]
        }
    }
}
