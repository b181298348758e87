import Glibc
import MinutiaeExtraction

/// One impression as Minutia Cylinder-Codes: for each minutia, a cylinder whose base is a grid
/// of cells around it, turned to its direction, and whose height is the direction difference to
/// its neighbours; a cell's bit says whether a neighbour with that relative direction lies near
/// it. Each cylinder is invariant to where the finger lay and how it was turned, so two
/// impressions are compared cylinder by cylinder without aligning them first.
///
/// Bit-based form (the paper's MCC16b idea): the values and a validity mask per cylinder packed
/// into 64-bit words, so a local similarity is a few AND/XOR and popcounts. A cell is valid when
/// it lies within the radius and on the print (the extractor's foreground: on a small window the
/// image's edge cuts most cylinders, and cells off the print must not count as "no neighbour
/// here"). A cylinder with too few valid cells or neighbours is dropped: it says too little.
public struct CylinderTemplate: Sendable {
    let parameters: CylinderParameters
    /// The kept cylinders' minutiae, for consolidation.
    let xs: [Float]
    let ys: [Float]
    let angles: [Float]
    /// Cylinder c's value bits are values[c * words ..< (c + 1) * words]; validity likewise.
    let values: [UInt64]
    let validity: [UInt64]
    /// Bits of a disc's cells (cells within the radius × sections): the scale of "enough overlap".
    let discBits: Int
    /// Valid bits of each cylinder (set bits of its validity words): two cylinders whose counts
    /// add up far enough beyond the disc's bits certainly overlap enough to be compared.
    let validCounts: [UInt16]
    /// Every minutia (with or without a cylinder) and the print's area, for the final
    /// consistency step, which counts agreeing minutiae against those the overlap should show.
    /// The minutiae one field after the other, each field `minutiaStride` long (the count
    /// rounded up to eight, the rest far away at (10⁹, 10⁹), where nothing is ever near):
    /// x at [0, stride), y at [stride, 2 stride), angle at [2 stride, 3 stride).
    let minutiae: [Float]
    let minutiaCount: Int
    let area: ExtractedPrint
    /// The ridge direction of each block of `area` in steps of 1/256 of a half turn
    /// (`OrientationAgreement`); empty when the print came without directions.
    let directions: [UInt8]

    var minutiaStride: Int { (minutiaCount + 7) / 8 * 8 }

    /// Far away from every print: the padding of `minutiae`.
    static let nowhere: Float = 1e9
    /// A probe's geometry between every two of its cylinders' minutiae (`PairShape`, row t,
    /// column k at t * cylinderCount + k), which consolidation reads instead of computing: a
    /// probe is compared with every impression of a gallery. Empty for a gallery's impressions
    /// (it would cost 12 bytes × cylinders² each); consolidation then computes it as it goes.
    let shapes: [PairShape]

    public var cylinderCount: Int { xs.count }

    /// This template's memory in bytes: the struct and every array it holds (header and elements).
    var byteCount: Int {
        func bytes<Element>(_ array: [Element]) -> Int { array.capacity == 0 ? 0 : 32 + array.capacity * MemoryLayout<Element>.stride }
        return MemoryLayout<CylinderTemplate>.stride + bytes(xs) + bytes(ys) + bytes(angles) + bytes(values) + bytes(validity)
            + bytes(validCounts) + bytes(minutiae) + bytes(area.foreground) + bytes(area.minutiae) + bytes(directions) + bytes(area.ridges.tiles) + bytes(shapes)
    }

    /// The line from minutia t to minutia k of one impression, as consolidation compares it with
    /// the other impression's: its length, the turn from t's direction to k's, and the angle
    /// of the line relative to t's direction. Computed exactly as `CylinderComparison` would.
    struct PairShape: Sendable {
        var distance: Float
        var turn: Float
        var radial: Float

        @inline(__always)
        init(_ xs: UnsafeBufferPointer<Float>, _ ys: UnsafeBufferPointer<Float>, _ angles: UnsafeBufferPointer<Float>, _ t: Int, _ k: Int) {
            let dx = xs[k] - xs[t], dy = ys[k] - ys[t]
            distance = (dx * dx + dy * dy).squareRoot()
            turn = CylinderTemplate.difference(angles[t], angles[k])
            radial = CylinderTemplate.difference(angles[t], atan2(dy, dx))
        }
    }

    /// `withShapes`: also the pair geometry of a probe (`shapes`), for one side of many comparisons.
    public init(_ print: ExtractedPrint, parameters: CylinderParameters = .standard, withShapes: Bool = false) {
        self.parameters = parameters
        var area = print
        area.minutiae = []
        // Kept as a byte per block (`directions`), not the print's Floats: a gallery holds many.
        area.orientations = []
        self.area = area
        directions = Self.fitted(print.orientations.map(OrientationAgreement.step))
        minutiaCount = print.minutiae.count
        let padding = [Float](repeating: Self.nowhere, count: (minutiaCount + 7) / 8 * 8 - minutiaCount)
        minutiae = Self.fitted(print.minutiae.map(\.x) + padding + print.minutiae.map(\.y) + padding
            + print.minutiae.map(\.angle) + padding.map { _ in 0 })
        let p = parameters
        let side = p.cellsPerSide, sections = p.angularSections, words = p.wordCount
        let minutiae = print.minutiae
        let reach = 3 * p.spatialSigma
        let gaussianScale = 1 / (p.spatialSigma * (2 * Float.pi).squareRoot())
        // Cell offsets from the minutia in its own frame, and which lie within the radius.
        var offsets: [(u: Float, v: Float)] = []
        var inDisc: [Bool] = []
        for j in 0..<side {
            for i in 0..<side {
                let u = (Float(i) - Float(side - 1) / 2) * p.cellSide
                let v = (Float(j) - Float(side - 1) / 2) * p.cellSide
                offsets.append((u, v))
                inDisc.append(u * u + v * v <= p.radius * p.radius)
            }
        }
        let discCells = inDisc.count { $0 }
        discBits = discCells * sections
        let sectionCentres = (0..<sections).map { -Float.pi + (Float($0) + 0.5) * p.sectionWidth }

        var xs: [Float] = [], ys: [Float] = [], angles: [Float] = []
        var values: [UInt64] = [], validity: [UInt64] = []
        var cylinderValues = [UInt64](repeating: 0, count: words)
        var cylinderValidity = [UInt64](repeating: 0, count: words)
        for (index, minutia) in minutiae.enumerated() {
            let neighbours = minutiae.indices.filter { other in
                guard other != index else { return false }
                let dx = minutiae[other].x - minutia.x, dy = minutiae[other].y - minutia.y
                return dx * dx + dy * dy <= (p.radius + reach) * (p.radius + reach)
            }
            guard neighbours.count >= p.minimumNeighbours else { continue }
            let c = cos(minutia.angle), s = sin(minutia.angle)
            for w in 0..<words {
                cylinderValues[w] = 0
                cylinderValidity[w] = 0
            }
            var validCells = 0
            for (cell, offset) in offsets.enumerated() where inDisc[cell] {
                let px = minutia.x + c * offset.u - s * offset.v
                let py = minutia.y + s * offset.u + c * offset.v
                guard print.isForeground(x: px, y: py) else { continue }
                validCells += 1
                var contribution = [Float](repeating: 0, count: sections)
                for other in neighbours {
                    let neighbour = minutiae[other]
                    let dx = neighbour.x - px, dy = neighbour.y - py
                    let squared = dx * dx + dy * dy
                    guard squared <= reach * reach else { continue }
                    let spatial = gaussianScale * exp(-squared / (2 * p.spatialSigma * p.spatialSigma))
                    let turn = Self.difference(minutia.angle, neighbour.angle)
                    for k in 0..<sections {
                        contribution[k] += spatial * Self.directional(Self.difference(sectionCentres[k], turn), p)
                    }
                }
                for k in 0..<sections {
                    let bit = cell * sections + k
                    cylinderValidity[bit / 64] |= 1 << UInt64(bit % 64)
                    if contribution[k] > p.contributionThreshold { cylinderValues[bit / 64] |= 1 << UInt64(bit % 64) }
                }
            }
            guard Float(validCells) >= p.minimumValidShare * Float(discCells) else { continue }
            xs.append(minutia.x)
            ys.append(minutia.y)
            angles.append(minutia.angle)
            values += cylinderValues
            validity += cylinderValidity
        }
        // Kept at their length (appending grows an array's capacity up to twice that): a
        // gallery holds one template per enrolled impression.
        self.xs = Self.fitted(xs)
        self.ys = Self.fitted(ys)
        self.angles = Self.fitted(angles)
        self.values = Self.fitted(values)
        self.validity = Self.fitted(validity)
        let count = xs.count
        validCounts = (0..<count).map { c in UInt16(validity[(c * words)..<((c + 1) * words)].reduce(0) { $0 + $1.nonzeroBitCount }) }
        self.shapes = withShapes ? xs.withUnsafeBufferPointer { x in
            ys.withUnsafeBufferPointer { y in
                angles.withUnsafeBufferPointer { angle in
                    (0..<(count * count)).map { PairShape(x, y, angle, $0 / count, $0 % count) }
                }
            }
        } : []
    }

    /// A copy with no spare capacity.
    static func fitted<Element>(_ array: [Element]) -> [Element] {
        guard array.capacity > array.count else { return array }
        return Array(unsafeUninitializedCapacity: array.count) { buffer, count in
            _ = buffer.initialize(from: array)
            count = array.count
        }
    }

    /// The difference of two angles, in -π ..< π: a - b, with 2π added while below -π, then
    /// taken away while at or above π. Two angles in -π ... π need one step at most, made here
    /// without a branch; the loops only continue it, so every input gets the same steps.
    @inline(__always)
    static func difference(_ a: Float, _ b: Float) -> Float {
        var d = a - b
        d = d < -.pi ? d + 2 * .pi : d
        if _slowPath(d < -.pi) { while d < -.pi { d += 2 * .pi } }
        d = d >= .pi ? d - 2 * .pi : d
        if _slowPath(d >= .pi) { while d >= .pi { d -= 2 * .pi } }
        return d
    }

    /// The share of a direction Gaussian (σD) that falls in the section `offset` away from its
    /// centre: how much a neighbour of that relative direction adds to the section.
    static func directional(_ offset: Float, _ p: CylinderParameters) -> Float {
        let scale = p.directionalSigma * Float(2).squareRoot()
        return 0.5 * (erf((offset + p.sectionWidth / 2) / scale) - erf((offset - p.sectionWidth / 2) / scale))
    }
}
