import Imaging

/// Which blocks hold print: enough grey-level contrast, not saturated, and ridges that run one
/// way (orientation coherence), so smudges, background and noise are left out; then the mask
/// is cleaned: isolated blocks dropped, holes (a core, a scar) filled.
enum Segmentation {
    static func foreground(_ image: GreyImage, grid: BlockGrid, coherence: [Float], minimumContrast: Float,
                           minimumCoherence: Float) -> [Bool] {
        var mask = [Bool](repeating: false, count: grid.count)
        image.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<grid.down {
                for column in 0..<grid.across {
                    var sum: Float = 0, squares: Float = 0, count: Float = 0
                    for y in (row * grid.blockSize)..<min(image.height, (row + 1) * grid.blockSize) {
                        for x in (column * grid.blockSize)..<min(image.width, (column + 1) * grid.blockSize) {
                            let value = Float(pixels[y * image.width + x])
                            sum += value
                            squares += value * value
                            count += 1
                        }
                    }
                    let mean = sum / count
                    let deviation = max(0, squares / count - mean * mean).squareRoot()
                    let block = row * grid.across + column
                    mask[block] = deviation >= minimumContrast && mean > 10 && mean < 245 && coherence[block] >= minimumCoherence
                }
            }
        }
        // Majority of the 3 × 3 neighbourhood, twice: drops specks and fills single gaps.
        for _ in 0..<2 { mask = majority(mask, grid) }
        return filledHoles(mask, grid)
    }

    static func majority(_ mask: [Bool], _ grid: BlockGrid) -> [Bool] {
        var out = mask
        for row in 0..<grid.down {
            for column in 0..<grid.across {
                var on = 0, total = 0
                for dy in -1...1 {
                    for dx in -1...1 {
                        let r = row + dy, c = column + dx
                        guard r >= 0, c >= 0, r < grid.down, c < grid.across else { continue }
                        total += 1
                        if mask[r * grid.across + c] { on += 1 }
                    }
                }
                out[row * grid.across + column] = 2 * on > total
            }
        }
        return out
    }

    /// Background blocks not connected to the grid's edge through background become print.
    static func filledHoles(_ mask: [Bool], _ grid: BlockGrid) -> [Bool] {
        var outside = [Bool](repeating: false, count: grid.count)
        var stack: [Int] = []
        for block in 0..<grid.count where !mask[block] {
            let row = block / grid.across, column = block % grid.across
            if row == 0 || column == 0 || row == grid.down - 1 || column == grid.across - 1 {
                outside[block] = true
                stack.append(block)
            }
        }
        while let block = stack.popLast() {
            let row = block / grid.across, column = block % grid.across
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let r = row + dr, c = column + dc
                guard r >= 0, c >= 0, r < grid.down, c < grid.across else { continue }
                let next = r * grid.across + c
                if !mask[next], !outside[next] {
                    outside[next] = true
                    stack.append(next)
                }
            }
        }
        return (0..<grid.count).map { mask[$0] || !outside[$0] }
    }
}
