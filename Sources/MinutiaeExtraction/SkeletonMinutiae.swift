import Glibc

/// Minutiae on the thinned ridges: a pixel with one skeleton neighbour ends a ridge, one with
/// three splits it (the crossing number). Directions come from walking the skeleton a ridge
/// period or so away from the point; false minutiae are removed where they betray themselves:
/// too close to the print's border or the image's edge (a ridge cut by the window is no
/// ending), in pairs a few pixels apart (what is left of a spur or a bridge after the skeleton's
/// cleaning, BinaryCleanup), as two endings facing each other across a gap (a ridge broken by
/// a crease or a dry patch), or on a skeleton piece too short to be a ridge.
enum SkeletonMinutiae {
    struct Settings {
        /// How far the direction walk goes.
        var walk = 10
        /// Minutiae closer than this to each other are removed as a pair (at 6, with the
        /// skeleton cleaned first, it removed true ones too).
        var pairDistance: Float = 4
        /// Two endings closer than this that face each other across the gap, each pointing away
        /// from the other within `breakAngle`, are one ridge broken (a crease, a dry patch):
        /// removed as a pair.
        var breakDistance: Float = 20
        var breakAngle: Float = 0.5
        /// Kept this far from the image's edge, in pixels.
        var edgeMargin = 6
    }

    static let ring: [(dx: Int, dy: Int)] = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]

    static func find(skeleton: [UInt8], width: Int, height: Int, grid: BlockGrid, interior: [Bool], coherence: [Float],
                     settings: Settings) -> [RidgeMinutia] {
        var found: [RidgeMinutia] = []
        let margin = max(1, settings.edgeMargin)
        guard width > 2 * margin, height > 2 * margin else { return [] }
        for y in margin..<(height - margin) {
            for x in margin..<(width - margin) {
                let i = y * width + x
                guard skeleton[i] != 0, interior[grid.index(ofPixelX: x, y: y)] else { continue }
                var values = [UInt8](repeating: 0, count: 8)
                for (k, step) in ring.enumerated() { values[k] = skeleton[(y + step.dy) * width + x + step.dx] }
                var crossings = 0
                for k in 0..<8 where values[k] != values[(k + 1) % 8] { crossings += 1 }
                crossings /= 2
                let quality = coherence[grid.index(ofPixelX: x, y: y)]
                if crossings == 1 {
                    guard let end = walk(skeleton, width, height, from: (x, y), avoiding: [], steps: settings.walk),
                          end.steps >= settings.walk / 2 else { continue }
                    let angle = atan2(Float(end.y - y), Float(end.x - x))
                    found.append(RidgeMinutia(x: Float(x), y: Float(y), angle: normalised(angle), kind: .ending, quality: quality))
                } else if crossings == 3 {
                    // The three branches start at the skeleton neighbours that begin a run around the ring.
                    var starts: [(Int, Int)] = []
                    for k in 0..<8 where values[k] != 0 && values[(k + 7) % 8] == 0 {
                        starts.append((x + ring[k].dx, y + ring[k].dy))
                    }
                    guard starts.count == 3 else { continue }
                    var directions: [Float] = []
                    for start in starts {
                        guard let end = walk(skeleton, width, height, from: start, avoiding: [(x, y)] + starts, steps: settings.walk - 1),
                              end.steps >= settings.walk / 3 else { break }
                        directions.append(atan2(Float(end.y - y), Float(end.x - x)))
                    }
                    guard directions.count == 3 else { continue }
                    // The stem is the branch farthest in direction from the other two; the minutia
                    // points away from it, between the fork's branches.
                    var stem = 0, widest: Float = -1
                    for k in 0..<3 {
                        let a = abs(difference(directions[k], directions[(k + 1) % 3]))
                        let b = abs(difference(directions[k], directions[(k + 2) % 3]))
                        if min(a, b) > widest { widest = min(a, b); stem = k }
                    }
                    found.append(RidgeMinutia(x: Float(x), y: Float(y), angle: normalised(directions[stem] + .pi), kind: .bifurcation,
                                              quality: quality))
                }
            }
        }
        return removingBrokenRidges(removingClosePairs(found, distance: settings.pairDistance),
                                    distance: settings.breakDistance, angle: settings.breakAngle)
    }

    /// Follows the skeleton from `start` for up to `steps` pixels, never back onto a pixel it
    /// passed or one in `avoiding`; stops at an end or a junction. Where it got, and how far.
    static func walk(_ skeleton: [UInt8], _ width: Int, _ height: Int, from start: (Int, Int), avoiding: [(Int, Int)],
                     steps: Int) -> (x: Int, y: Int, steps: Int)? {
        var visited = Set(avoiding.map { $0.1 * width + $0.0 })
        var (x, y) = start
        visited.insert(y * width + x)
        var taken = 0
        while taken < steps {
            var next: (Int, Int)?
            var options = 0
            for step in ring {
                let nx = x + step.dx, ny = y + step.dy
                guard nx >= 0, ny >= 0, nx < width, ny < height, skeleton[ny * width + nx] != 0, !visited.contains(ny * width + nx) else { continue }
                options += 1
                // Prefer the 4-connected step: an 8-connected skeleton offers both around a corner.
                if next == nil || (step.dx == 0 || step.dy == 0) { next = (nx, ny) }
            }
            guard let chosen = next, options <= 2 else { break }
            (x, y) = chosen
            visited.insert(y * width + x)
            taken += 1
        }
        return (x, y, taken)
    }

    /// Drops both minutiae of every pair closer than `distance`.
    static func removingClosePairs(_ minutiae: [RidgeMinutia], distance: Float) -> [RidgeMinutia] {
        var drop = [Bool](repeating: false, count: minutiae.count)
        for a in minutiae.indices {
            for b in (a + 1)..<max(a + 1, minutiae.count) {
                let dx = minutiae[a].x - minutiae[b].x, dy = minutiae[a].y - minutiae[b].y
                if dx * dx + dy * dy < distance * distance {
                    drop[a] = true
                    drop[b] = true
                }
            }
        }
        return minutiae.indices.filter { !drop[$0] }.map { minutiae[$0] }
    }

    /// Drops both endings of every pair within `distance` that face each other: their directions
    /// opposite, and the line from one to the other continuing its ridge (an ending's angle
    /// points into its own ridge, so the gap lies behind it), both within `angle`.
    static func removingBrokenRidges(_ minutiae: [RidgeMinutia], distance: Float, angle: Float) -> [RidgeMinutia] {
        var drop = [Bool](repeating: false, count: minutiae.count)
        for a in minutiae.indices where minutiae[a].kind == .ending {
            for b in (a + 1)..<max(a + 1, minutiae.count) where minutiae[b].kind == .ending {
                let dx = minutiae[b].x - minutiae[a].x, dy = minutiae[b].y - minutiae[a].y
                guard dx * dx + dy * dy < distance * distance else { continue }
                let facing = abs(difference(minutiae[a].angle, minutiae[b].angle + .pi)) < angle
                let behind = abs(difference(atan2(dy, dx), minutiae[a].angle + .pi)) < angle
                if facing && behind {
                    drop[a] = true
                    drop[b] = true
                }
            }
        }
        return minutiae.indices.filter { !drop[$0] }.map { minutiae[$0] }
    }

    static func difference(_ a: Float, _ b: Float) -> Float {
        var d = a - b
        while d < -.pi { d += 2 * .pi }
        while d >= .pi { d -= 2 * .pi }
        return d
    }

    static func normalised(_ angle: Float) -> Float {
        var a = angle
        while a < 0 { a += 2 * .pi }
        while a >= 2 * .pi { a -= 2 * .pi }
        return a
    }
}
