import Glibc

/// Which way the ridges run in each block, and how clearly (coherence 0 … 1), from the image's
/// gradients: the structure tensor summed over a window of blocks, then smoothed as doubled-angle
/// vectors so that directions θ and θ + π, the same ridge direction, reinforce each other.
struct OrientationField: Sendable {
    let grid: BlockGrid
    /// Ridge direction per block, 0 ..< π, from +x towards +y.
    var angles: [Float]
    var coherence: [Float]

    init(_ plane: FloatPlane, grid: BlockGrid) {
        self.grid = grid
        let width = plane.width, height = plane.height
        var xx = [Float](repeating: 0, count: grid.count)
        var yy = xx, xy = xx
        plane.values.withUnsafeBufferPointer { v in
            for y in 1..<(height - 1) {
                for x in 1..<(width - 1) {
                    // Sobel.
                    let i = y * width + x
                    let gx = (v[i - width + 1] + 2 * v[i + 1] + v[i + width + 1]) - (v[i - width - 1] + 2 * v[i - 1] + v[i + width - 1])
                    let gy = (v[i + width - 1] + 2 * v[i + width] + v[i + width + 1]) - (v[i - width - 1] + 2 * v[i - width] + v[i - width + 1])
                    let block = grid.index(ofPixelX: x, y: y)
                    xx[block] += gx * gx
                    yy[block] += gy * gy
                    xy[block] += gx * gy
                }
            }
        }
        // The tensor over 3 × 3 blocks (24 px at 8 px blocks: about two and a half ridges).
        func boxed(_ field: [Float]) -> [Float] {
            var out = field
            for row in 0..<grid.down {
                for column in 0..<grid.across {
                    var total: Float = 0
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let r = row + dy, c = column + dx
                            guard r >= 0, c >= 0, r < grid.down, c < grid.across else { continue }
                            total += field[r * grid.across + c]
                        }
                    }
                    out[row * grid.across + column] = total
                }
            }
            return out
        }
        xx = boxed(xx)
        yy = boxed(yy)
        xy = boxed(xy)
        var cos2 = [Float](repeating: 0, count: grid.count), sin2 = cos2
        coherence = [Float](repeating: 0, count: grid.count)
        for block in 0..<grid.count {
            let difference = xx[block] - yy[block], sum = xx[block] + yy[block]
            let strength = (difference * difference + 4 * xy[block] * xy[block]).squareRoot()
            coherence[block] = sum > 0 ? strength / sum : 0
            // The gradients' doubled angle; ridges run across the gradients (added π in the end).
            cos2[block] = difference
            sin2[block] = 2 * xy[block]
        }
        // Smooth the doubled-angle vectors over 5 × 5 blocks, a Gaussian of 1 block.
        var smoothCos = cos2, smoothSin = sin2
        let weights: [Float] = (-2...2).map { exp(-Float($0 * $0) / 2) }
        for row in 0..<grid.down {
            for column in 0..<grid.across {
                var c: Float = 0, s: Float = 0
                for dy in -2...2 {
                    for dx in -2...2 {
                        let r = row + dy, k = column + dx
                        guard r >= 0, k >= 0, r < grid.down, k < grid.across else { continue }
                        let w = weights[dy + 2] * weights[dx + 2]
                        c += w * cos2[r * grid.across + k]
                        s += w * sin2[r * grid.across + k]
                    }
                }
                smoothCos[row * grid.across + column] = c
                smoothSin[row * grid.across + column] = s
            }
        }
        angles = (0..<grid.count).map { block in
            var angle = 0.5 * atan2(smoothSin[block], smoothCos[block]) + .pi / 2
            if angle >= .pi { angle -= .pi }
            if angle < 0 { angle += .pi }
            return angle
        }
    }

    /// The ridge direction at a pixel (its block's).
    func angle(atX x: Int, y: Int) -> Float { angles[grid.index(ofPixelX: x, y: y)] }
}
