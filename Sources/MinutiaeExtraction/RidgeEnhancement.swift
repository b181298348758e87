import Glibc

/// Contextual enhancement: each pixel filtered by an even Gabor kernel turned to its block's
/// ridge direction and tuned to its block's ridge period, which joins broken ridges and
/// separates ridges run together while leaving the print's own structure. Kernels are made for
/// 16 directions and whole-pixel periods, once per image for the combinations it uses.
enum RidgeEnhancement {
    static let directions = 16
    static let radius = 6
    /// The envelope's width across the ridges, in ridge periods: narrow where the ridges are
    /// clear (0.45 smoothed neighbouring ridges together and broke them into false minutiae),
    /// wider (0.45) where they are not, below `unclearCoherence`, so noisy regions are smoothed
    /// more. One width for all suited neither the optical sets (which wanted 0.3) nor the
    /// synthetic DB4 (which wanted more smoothing); chosen on real impressions, docs/accuracy.md
    /// "The extractor's share".
    static let sigmaAcross: Float = 0.3
    static let unclearSigmaAcross: Float = 0.45
    static let unclearCoherence: Float = 0.4

    /// The enhanced plane: ridges negative, valleys positive, 0 off the print.
    static func enhance(_ plane: FloatPlane, field: OrientationField, periods: [Float], foreground: [Bool]) -> FloatPlane {
        let grid = field.grid
        let width = plane.width, height = plane.height
        let side = 2 * radius + 1
        var kernels: [Int: [Float]] = [:]
        var out = FloatPlane(width: width, height: height)
        plane.values.withUnsafeBufferPointer { input in
            for row in 0..<grid.down {
                for column in 0..<grid.across {
                    let block = row * grid.across + column
                    guard foreground[block] else { continue }
                    let direction = Int((field.angles[block] / .pi * Float(directions)).rounded()) % directions
                    let period = Int(min(RidgePeriod.plausible.upperBound, max(RidgePeriod.plausible.lowerBound, periods[block])).rounded())
                    // Unclear ridges (low coherence: noise, scars, dry skin) get the wider envelope.
                    let unclear = field.coherence[block] < unclearCoherence
                    let key = direction * 100 + period + (unclear ? 10_000 : 0)
                    if kernels[key] == nil {
                        kernels[key] = kernel(direction: direction, period: period, across: unclear ? unclearSigmaAcross : sigmaAcross)
                    }
                    let taps = kernels[key]!
                    let x0 = column * grid.blockSize, y0 = row * grid.blockSize
                    for y in y0..<min(height, y0 + grid.blockSize) {
                        for x in x0..<min(width, x0 + grid.blockSize) {
                            var total: Float = 0
                            if x >= radius, y >= radius, x < width - radius, y < height - radius {
                                for ky in 0..<side {
                                    let base = (y + ky - radius) * width + x - radius
                                    for kx in 0..<side { total += taps[ky * side + kx] * input[base + kx] }
                                }
                            } else {
                                for ky in 0..<side {
                                    let yy = y + ky - radius
                                    guard yy >= 0, yy < height else { continue }
                                    for kx in 0..<side {
                                        let xx = x + kx - radius
                                        guard xx >= 0, xx < width else { continue }
                                        total += taps[ky * side + kx] * input[yy * width + xx]
                                    }
                                }
                            }
                            out.values[y * width + x] = total
                        }
                    }
                }
            }
        }
        return out
    }

    /// An even Gabor kernel: a cosine across the ridges (period `period`) under a Gaussian,
    /// longer along the ridges than across, with its mean removed so flat grey gives 0.
    static func kernel(direction: Int, period: Int, across: Float = sigmaAcross) -> [Float] {
        let angle = Float(direction) * .pi / Float(directions)
        let along = (cos(angle), sin(angle))
        let side = 2 * radius + 1
        let sigmaAcross = Float(period) * across, sigmaAlong = Float(period) * 0.6
        var taps = [Float](repeating: 0, count: side * side)
        for ky in 0..<side {
            for kx in 0..<side {
                let x = Float(kx - radius), y = Float(ky - radius)
                let u = x * along.0 + y * along.1, v = -x * along.1 + y * along.0
                taps[ky * side + kx] = exp(-(v * v) / (2 * sigmaAcross * sigmaAcross) - (u * u) / (2 * sigmaAlong * sigmaAlong))
                    * cos(2 * .pi * v / Float(period))
            }
        }
        let mean = taps.reduce(0, +) / Float(taps.count)
        return taps.map { $0 - mean }
    }
}
