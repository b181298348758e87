import Glibc
import MinutiaeExtraction

/// The comparison's last factor: the ridges themselves laid on each other around the winning
/// placement's anchor. Minutiae and the ridges' flow say where two impressions might coincide;
/// on a small window a stranger's few minutiae and smooth flow can line up with a touch's as
/// well as the finger's own. Whether pixel for pixel ridge lies on ridge and valley on valley
/// is what a stranger's print almost never manages over a disc of several ridges.
///
/// Agreement = (agreeing + prior/2) / (compared + prior) over A's pixels within `radius` of
/// the anchor (A's minutia whose cylinder proposed the placement), every `sampleStep`-th pixel
/// each way, on both prints; B's pixel is the nearest to where the placement puts A's. The
/// placement from one minutia pair is off by a pixel or two and a few hundredths of a radian,
/// so the agreement is taken at the best of small moves: first a shift of up to `shifts` pixels
/// either way along the ridges' normal at the anchor (across the ridges: along them a move
/// changes little), then at that shift a turn of up to `turns` steps of `turnStep` either way.
/// The move is chosen on the samples `coarseStep` apart (a quarter of them), and the agreement
/// of the chosen move taken on all. The factor is the agreement squared.
///
/// Measured on FVC2002 (docs/accuracy.md "The ridges laid on each other"): the sensor window's
/// mean EER 19.0 → 17.3 %; the door's misses at the product's thresholds 25 → 15 of 120, no
/// stranger let in. A comparison that reaches it takes ~16 µs more.
enum RidgeAgreement {
    static let radius = 40
    static let sampleStep = 2
    /// Pixels' worth of a prior agreement of one half (a chance agreement of ridge and valley).
    static let prior: Float = 20
    /// Moves along the normal of 1 px: −shifts … shifts.
    static let shifts = 4
    /// Turns about the anchor: −turns … turns times `turnStep` (radians) added to the placement's.
    static let turns = 2
    static let turnStep: Float = 0.04
    /// The moves are chosen on the samples this many pixels apart each way, then the best one's
    /// agreement taken on all. `radius` is a multiple of it and of `sampleStep`, so the grid
    /// of samples is symmetric about the anchor and holds the coarse one.
    static let coarseStep = 4

    /// A's pixels compared, at most: the disc's grid points.
    static let maximumSamples: Int = {
        var count = 0
        for dy in stride(from: -radius, through: radius, by: sampleStep) {
            for dx in stride(from: -radius, through: radius, by: sampleStep) where dx * dx + dy * dy <= radius * radius { count += 1 }
        }
        return count
    }()

    /// The factor for `placement` anchored at A's point (anchorX, anchorY): 1 when either
    /// impression came without ridges (nothing to weigh), else the best agreement squared.
    static func factor(_ a: CylinderTemplate, _ b: CylinderTemplate, anchorX: Float, anchorY: Float,
                       placement: OrientationAgreement.Placement) -> Float {
        let ridgesA = a.area.ridges, ridgesB = b.area.ridges
        guard !ridgesA.isEmpty, !ridgesB.isEmpty else { return 1 }
        let areaB = GlobalConsistency.Area(b.area)
        // Beyond 2²³ a pixel position is no longer a whole Float apart (`wholePart`).
        guard areaB.width < 8_388_608, areaB.height < 8_388_608, ridgesB.width < 8_388_608, ridgesB.height < 8_388_608 else { return 1 }
        // Room for both groups of samples, each padded with up to seven.
        let padded = (maximumSamples + 7) / 8 * 8 + 16
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * padded) { offsets in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: padded) { bits in
                let xs = offsets.baseAddress!, ys = xs + padded, ridgeA = bits.baseAddress!
                let (coarse, count) = samples(a, anchorX: anchorX, anchorY: anchorY, xs: xs, ys: ys, ridge: ridgeA)
                // Nothing to compare: the prior alone, ((0 + prior/2) / (0 + prior))².
                guard count > 0 else { return 0.25 }
                let c = cos(placement.turn), s = sin(placement.turn)
                let anchorBX = c * anchorX - s * anchorY + placement.shiftX, anchorBY = s * anchorX + c * anchorY + placement.shiftY
                let ridge = direction(a, anchorX: anchorX, anchorY: anchorY)
                return b.area.foreground.withUnsafeBytes { foregroundB in
                    ridgesB.tiles.withUnsafeBufferPointer { tilesB in
                        func agreement(chunks: Int, turn: Float, step: Int) -> Float {
                            let ct = cos(turn), st = sin(turn)
                            let normal = ridge + .pi / 2 + turn
                            let (agree, total) = counted(xs: xs, ys: ys, ridgeA: ridgeA, chunks: chunks, x0: anchorBX, y0: anchorBY,
                                                         c: ct, s: st, shiftX: Float(step) * cos(normal), shiftY: Float(step) * sin(normal),
                                                         areaB: areaB, foregroundB: foregroundB, ridgesB: ridgesB, tilesB: tilesB)
                            return (Float(agree) + 0.5 * prior) / (Float(total) + prior)
                        }
                        // The move on the coarse samples (the first found of the best), then its agreement on all.
                        var best: Float = -1, bestTurn: Float = placement.turn, bestStep = 0
                        for step in -shifts...shifts {
                            let value = agreement(chunks: coarse / 8, turn: placement.turn, step: step)
                            if value > best {
                                best = value
                                bestStep = step
                            }
                        }
                        for turnIndex in -turns...turns where turnIndex != 0 {
                            let turn = placement.turn + Float(turnIndex) * turnStep
                            let value = agreement(chunks: coarse / 8, turn: turn, step: bestStep)
                            if value > best {
                                best = value
                                bestTurn = turn
                            }
                        }
                        return pow2(agreement(chunks: count / 8, turn: bestTurn, step: bestStep))
                    }
                }
            }
        }
    }

    @inline(__always)
    static func pow2(_ value: Float) -> Float { value * value }

    /// The ridges' direction at A's anchor (its block's, 0 ..< π), 0 where unknown.
    static func direction(_ a: CylinderTemplate, anchorX: Float, anchorY: Float) -> Float {
        let area = a.area
        guard anchorX >= 0, anchorY >= 0, area.blockSize > 0 else { return 0 }
        let column = Int(anchorX) / area.blockSize, row = Int(anchorY) / area.blockSize
        guard column < area.blocksAcross, row < area.blocksDown else { return 0 }
        let block = row * area.blocksAcross + column
        return block < a.directions.count ? Float(a.directions[block]) / 256 * .pi : 0
    }

    /// A's pixels compared: each one's offset from the anchor and 1 where ridge, those on A's
    /// image and print. First those `coarseStep` apart each way, padded to eight, then the rest,
    /// padded to eight (padding is NaN, which lands nowhere on B); returns where the first group
    /// ends and where the second does (both multiples of 8; 0 when none).
    static func samples(_ a: CylinderTemplate, anchorX: Float, anchorY: Float, xs: UnsafeMutablePointer<Float>,
                        ys: UnsafeMutablePointer<Float>, ridge: UnsafeMutablePointer<Int32>) -> (coarse: Int, all: Int) {
        let area = a.area, ridges = area.ridges
        guard anchorX >= 0, anchorY >= 0, anchorX < Float(area.width), anchorY < Float(area.height), area.blockSize > 0,
              area.foreground.count == area.blocksAcross * area.blocksDown,
              area.blocksAcross * area.blockSize >= area.width, area.blocksDown * area.blockSize >= area.height else { return (0, 0) }
        let centreX = Int(anchorX), centreY = Int(anchorY), tilesAcross = ridges.tilesAcross
        var count = 0, coarseEnd = 0
        area.foreground.withUnsafeBufferPointer { foreground in
            ridges.tiles.withUnsafeBufferPointer { tiles in
                // Each row's samples: dx from -reach to reach in steps of `step`, skipping the coarse ones when `skip`.
                func list(_ dy: Int, step: Int, skippingCoarse skip: Bool) {
                    let y = centreY + dy
                    guard y >= 0, y < area.height else { return }
                    // The widest dx of the grid (a multiple of `step`, as -radius is) within the radius.
                    var reach = radius
                    while reach * reach + dy * dy > radius * radius { reach -= step }
                    let blocks = (y / area.blockSize) * area.blocksAcross, tileRow = (y >> 3) * tilesAcross, bitRow = (y & 7) << 3
                    let rowIsCoarse = dy % coarseStep == 0
                    var dx = -reach
                    while dx <= reach {
                        defer { dx += step }
                        let x = centreX + dx
                        guard x >= 0, x < area.width, foreground[blocks + x / area.blockSize] else { continue }
                        if skip && rowIsCoarse && dx % coarseStep == 0 { continue }
                        xs[count] = Float(x) - anchorX
                        ys[count] = Float(y) - anchorY
                        ridge[count] = Int32(truncatingIfNeeded: tiles[tileRow + (x >> 3)] >> UInt64(bitRow | (x & 7)) & 1)
                        count += 1
                    }
                }
                func pad() {
                    while count % 8 != 0 {
                        xs[count] = .nan
                        ys[count] = .nan
                        ridge[count] = 0
                        count += 1
                    }
                }
                for dy in stride(from: -radius, through: radius, by: coarseStep) { list(dy, step: coarseStep, skippingCoarse: false) }
                pad()
                coarseEnd = count
                for dy in stride(from: -radius, through: radius, by: sampleStep) { list(dy, step: sampleStep, skippingCoarse: true) }
                pad()
            }
        }
        return (coarseEnd, count)
    }

    /// For one move, A's samples that land on B's image and print (B's pixel nearest to
    /// (x0 + c x − s y + shiftX, y0 + s x + c y + shiftY), found as ⌊· + ½⌋), and how many of
    /// them agree on ridge or valley. Eight at a time, without a branch.
    @inline(__always)
    static func counted(xs: UnsafeMutablePointer<Float>, ys: UnsafeMutablePointer<Float>, ridgeA: UnsafeMutablePointer<Int32>,
                        chunks: Int, x0: Float, y0: Float, c: Float, s: Float, shiftX: Float, shiftY: Float,
                        areaB: GlobalConsistency.Area, foregroundB: UnsafeRawBufferPointer,
                        ridgesB: RidgeMap, tilesB: UnsafeBufferPointer<UInt64>) -> (agree: Int, total: Int) {
        // B's image, within its block grid (the same but for a hand-made template).
        let width = Float(min(areaB.blocksAcross * areaB.blockSize, ridgesB.width))
        let height = Float(min(areaB.blocksDown * areaB.blockSize, ridgesB.height))
        let foreground = foregroundB.baseAddress!.assumingMemoryBound(to: UInt8.self), tiles = tilesB.baseAddress!
        let blockShift = Int32(truncatingIfNeeded: areaB.blockShift), blocksAcross = Int32(truncatingIfNeeded: areaB.blocksAcross)
        let tilesAcross = Int32(truncatingIfNeeded: ridgesB.tilesAcross), blockSize = SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: max(1, areaB.blockSize)))
        var agree = 0, total = 0
        for chunk in 0..<chunks {
            let x = UnsafeRawPointer(xs + 8 * chunk).loadUnaligned(as: SIMD8<Float>.self)
            let y = UnsafeRawPointer(ys + 8 * chunk).loadUnaligned(as: SIMD8<Float>.self)
            let u = x0 + c * x - s * y + shiftX + 0.5, v = y0 + s * x + c * y + shiftY + 0.5
            let inside = (u .>= 0) .& (v .>= 0) .& (u .< width) .& (v .< height)
            let column = GlobalConsistency.Area.wholePart(SIMD8<Float>().replacing(with: u, where: inside))
            let row = GlobalConsistency.Area.wholePart(SIMD8<Float>().replacing(with: v, where: inside))
            let a = UnsafeRawPointer(ridgeA + 8 * chunk).loadUnaligned(as: SIMD8<Int32>.self)
            let block = blockShift >= 0 ? (row &>> blockShift) &* blocksAcross &+ (column &>> blockShift)
                : (row / blockSize) &* blocksAcross &+ column / blockSize
            let tile = (row &>> 3) &* tilesAcross &+ (column &>> 3)
            // Each lane's ridge bit of A moved to its bit of B's tile, so one XOR compares them.
            let bit = ((row & 7) &<< 3) | (column & 7)
            let onPrint = SIMD8<Int32>(repeating: 1).replacing(with: 0, where: .!inside)
            for lane in 0..<8 {
                let on = Int(foreground[Int(block[lane])]) & Int(onPrint[lane])
                let differs = Int(truncatingIfNeeded: (tiles[Int(tile[lane])] &>> UInt64(truncatingIfNeeded: bit[lane])) ^ UInt64(truncatingIfNeeded: a[lane])) & 1
                total &+= on
                agree &+= on & (differs ^ 1)
            }
        }
        return (agree, total)
    }
}
