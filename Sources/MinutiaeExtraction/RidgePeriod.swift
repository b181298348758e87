import Glibc

/// The distance between neighbouring ridges per block, in pixels: from a profile taken across
/// the ridges (along the normal of the block's orientation), the mean spacing of its minima.
/// Blocks where no clean profile is found take the median of the others: the period changes
/// slowly over a finger, and a wrong period tunes the enhancement to the wrong ridges.
enum RidgePeriod {
    static let plausible: ClosedRange<Float> = 5...15

    static func estimate(_ plane: FloatPlane, field: OrientationField, foreground: [Bool], fallback: Float) -> [Float] {
        let grid = field.grid
        var periods = [Float](repeating: .nan, count: grid.count)
        let length = 32, breadth = 7
        var profile = [Float](repeating: 0, count: length)
        for block in 0..<grid.count where foreground[block] {
            let cx = Float((block % grid.across) * grid.blockSize) + Float(grid.blockSize) / 2
            let cy = Float((block / grid.across) * grid.blockSize) + Float(grid.blockSize) / 2
            let angle = field.angles[block]
            let along = (cos(angle), sin(angle)), across = (-sin(angle), cos(angle))
            var complete = true
            for step in 0..<length {
                let t = Float(step - length / 2)
                var total: Float = 0
                for w in -(breadth / 2)...(breadth / 2) {
                    let x = Int((cx + t * across.0 + Float(w) * along.0).rounded())
                    let y = Int((cy + t * across.1 + Float(w) * along.1).rounded())
                    guard x >= 0, y >= 0, x < plane.width, y < plane.height else { complete = false; break }
                    total += plane[x, y]
                }
                guard complete else { break }
                profile[step] = total
            }
            guard complete else { continue }
            // Minima (ridges are dark: negative after normalisation) with real contrast.
            var minima: [Int] = []
            for step in 1..<(length - 1) where profile[step] < profile[step - 1] && profile[step] <= profile[step + 1] && profile[step] < 0 {
                minima.append(step)
            }
            guard minima.count >= 2 else { continue }
            let period = Float(minima[minima.count - 1] - minima[0]) / Float(minima.count - 1)
            if plausible.contains(period) { periods[block] = period }
        }
        let found = periods.filter { !$0.isNaN }.sorted()
        let median = found.isEmpty ? fallback : found[found.count / 2]
        // Fill the gaps and smooth over 3 × 3 blocks.
        var smoothed = periods
        for row in 0..<grid.down {
            for column in 0..<grid.across {
                var total: Float = 0, count: Float = 0
                for dy in -1...1 {
                    for dx in -1...1 {
                        let r = row + dy, c = column + dx
                        guard r >= 0, c >= 0, r < grid.down, c < grid.across else { continue }
                        let value = periods[r * grid.across + c]
                        if !value.isNaN { total += value; count += 1 }
                    }
                }
                smoothed[row * grid.across + column] = count > 0 ? total / count : median
            }
        }
        return smoothed
    }
}
