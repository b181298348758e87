/// Cleaning of the binarised ridges and of their skeleton before minutiae are read from it:
/// what enhancement leaves as noise (a speck of ridge, a pore, a hair on a ridge's side) would
/// otherwise thin into ridge ends and forks that no other touch of the finger shows.
enum BinaryCleanup {
    /// Turns every connected piece of `value` pixels smaller than `smallerThan` into the other
    /// value: ridge pieces (1) connected through any of their eight neighbours, as the skeleton
    /// connects them; valley pieces (0) through their four, so a valley that a ridge crosses
    /// diagonally is not joined across it.
    static func removeSmallComponents(_ mask: inout [UInt8], width: Int, height: Int, of value: UInt8, smallerThan: Int) {
        var seen = [Bool](repeating: false, count: mask.count)
        var stack: [Int] = [], members: [Int] = []
        let diagonal = value == 1
        for start in mask.indices where mask[start] == value && !seen[start] {
            seen[start] = true
            stack.append(start)
            members.removeAll(keepingCapacity: true)
            while let i = stack.popLast() {
                members.append(i)
                let x = i % width, y = i / width
                for dy in -1...1 {
                    for dx in -1...1 where (dx != 0 || dy != 0) && (diagonal || dx == 0 || dy == 0) {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
                        let next = ny * width + nx
                        if mask[next] == value && !seen[next] {
                            seen[next] = true
                            stack.append(next)
                        }
                    }
                }
            }
            if members.count < smallerThan {
                for i in members { mask[i] = 1 - value }
            }
        }
    }

    /// The crossing number at an inner pixel: 1 at a ridge's end, 3 or more at a fork.
    static func crossings(_ skeleton: [UInt8], _ width: Int, _ x: Int, _ y: Int) -> Int {
        var count = 0
        for k in 0..<8 {
            let a = SkeletonMinutiae.ring[k], b = SkeletonMinutiae.ring[(k + 1) % 8]
            if skeleton[(y + a.dy) * width + x + a.dx] != skeleton[(y + b.dy) * width + x + b.dx] { count += 1 }
        }
        return count / 2
    }

    /// Removes every skeleton branch that runs from an end to a fork, or to another end, in
    /// fewer than `shorterThan` pixels: too short to be a ridge of its own (a ridge period is
    /// 8–12 px). All branches are found on the skeleton as it was, then removed together.
    static func pruneSpurs(_ skeleton: inout [UInt8], width: Int, height: Int, shorterThan length: Int) {
        guard width > 2, height > 2 else { return }
        var ends: [Int] = []
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) where skeleton[y * width + x] != 0 && crossings(skeleton, width, x, y) == 1 {
                ends.append(y * width + x)
            }
        }
        var removed: [Int] = []
        for end in ends {
            var path = [end]
            var visited: Set<Int> = [end]
            var (x, y) = (end % width, end / width)
            var short = false
            while path.count <= length {
                var next: (Int, Int)?
                for step in SkeletonMinutiae.ring {
                    let nx = x + step.dx, ny = y + step.dy
                    guard nx > 0, ny > 0, nx < width - 1, ny < height - 1, skeleton[ny * width + nx] != 0,
                          !visited.contains(ny * width + nx) else { continue }
                    // Prefer the 4-connected step, as the direction walk does.
                    if next == nil || (step.dx == 0 || step.dy == 0) { next = (nx, ny) }
                }
                // Nowhere to go: the piece ended again, a short isolated piece.
                guard let chosen = next else { short = true; break }
                (x, y) = chosen
                // At the fork: the branch is a spur; the fork's pixel stays with its ridge.
                if crossings(skeleton, width, x, y) >= 3 { short = true; break }
                path.append(y * width + x)
                visited.insert(y * width + x)
            }
            if short { removed += path }
        }
        for i in removed { skeleton[i] = 0 }
    }
}
