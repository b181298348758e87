import Glibc

/// Scores how well a probe's minutiae fit a gallery print's, in the bozorth3 family: pairs of
/// minutiae that agree in length and in both relative angles are candidate correspondences;
/// the candidates that agree on one rotation vote for minutia-to-minutia assignments; the
/// assignments, kept one-to-one and on one translation, are the cluster; the score is the
/// number of candidate pairs fully inside it (a count of agreeing pairs, as bozorth3's is).
///
/// Rotation and translation invariant by construction (the tables hold only distances and
/// relative angles). One matcher holds its scratch space and reuses it, so a comparison
/// allocates nothing once the buffers have grown to the largest print; not thread-safe, each
/// thread makes its own.
public struct PairMatcher {
    /// How much a pair's length may differ: `distanceSlack` px plus 1/`distanceRatio` of it
    /// (skin stretches, more over longer spans).
    static let distanceSlack = 2
    static let distanceRatio = 16
    /// How much each minutia's angle to the joining line may differ (NBIS directions are in
    /// steps of 11.25°, and the ridge flow is estimated per block).
    static let angleTolerance = PairTable.angleBinWidth
    /// Width of one rotation vote bin; the winning rotation takes its bin and both neighbours.
    static let rotationBin = 4
    /// How far an assigned minutia may sit from the cluster's common translation.
    static let translationTolerance = 10

    private struct Candidate {
        var probeI: UInt8, probeJ: UInt8, galleryI: UInt8, galleryJ: UInt8
        var rotation: Int16
    }

    private var candidates: [Candidate] = []
    private var rotationVotes = [Int32](repeating: 0, count: 360 / PairMatcher.rotationBin)
    private var support: [UInt16] = []
    private var assigned: [Int16] = []
    private var assignedSupport: [UInt16] = []
    private var galleryOwner: [Int16] = []
    private var shiftX: [Int32] = []
    private var shiftY: [Int32] = []

    public init() {}

    /// The number of minutia pairs that fit one rotation, translation and one-to-one
    /// assignment; 0 when nothing fits. Symmetric in spirit, not exactly: pass the probe first
    /// (stored one way) and the gallery print second (stored both ways).
    public mutating func score(probe: PairTable, gallery: PairTable) -> Int {
        let probeCount = probe.minutiaCount, galleryCount = gallery.minutiaCount
        guard probeCount >= 2, galleryCount >= 2 else { return 0 }
        collectCandidates(probe, gallery)
        guard !candidates.isEmpty else { return 0 }
        let (rotationLow, rotationHigh) = winningRotation()

        // Votes: each candidate in the winning rotation supports its two assignments.
        let cells = probeCount * galleryCount
        if support.count < cells { support = [UInt16](repeating: 0, count: cells) }
        for index in 0..<cells { support[index] = 0 }
        var rotationSum = 0, inWindow = 0
        for candidate in candidates where Self.inWindow(Int(candidate.rotation), rotationLow, rotationHigh) {
            support[Int(candidate.probeI) * galleryCount + Int(candidate.galleryI)] &+= 1
            support[Int(candidate.probeJ) * galleryCount + Int(candidate.galleryJ)] &+= 1
            rotationSum += Angle.normalized(Int(candidate.rotation) - rotationLow)
            inWindow += 1
        }
        let rotation = Double(rotationLow) + Double(rotationSum) / Double(max(inWindow, 1))
        assignOneToOne(probeCount, galleryCount)
        keepCommonTranslation(probe, gallery, rotationDegrees: rotation)

        var score = 0
        for candidate in candidates where Self.inWindow(Int(candidate.rotation), rotationLow, rotationHigh) {
            if assigned[Int(candidate.probeI)] == Int16(candidate.galleryI), assigned[Int(candidate.probeJ)] == Int16(candidate.galleryJ) {
                score += 1
            }
        }
        return score
    }

    private mutating func collectCandidates(_ probe: PairTable, _ gallery: PairTable) {
        candidates.removeAll(keepingCapacity: true)
        for bin in rotationVotes.indices { rotationVotes[bin] = 0 }
        let galleryEntries = gallery.entries
        for entry in probe.entries {
            let distance = Int(entry.distance)
            let slack = Self.distanceSlack + distance / Self.distanceRatio
            let low = max(distance - slack, 0), high = min(distance + slack, PairTable.maximumDistance)
            let firstBin = PairTable.bin(Angle.normalized(Int(entry.angleI) - Self.angleTolerance))
            for step in 0..<3 {
                let bin = firstBin + step < PairTable.angleBins ? firstBin + step : firstBin + step - PairTable.angleBins
                var index = Int(gallery.firstEntry[PairTable.key(distance: low, bin: bin)])
                let end = Int(gallery.firstEntry[PairTable.key(distance: high, bin: bin) + 1])
                while index < end {
                    let other = galleryEntries[index]
                    index += 1
                    guard abs(Int(other.distance) - distance) <= slack,
                          Angle.difference(Int(entry.angleI), Int(other.angleI)) <= Self.angleTolerance,
                          Angle.difference(Int(entry.angleJ), Int(other.angleJ)) <= Self.angleTolerance else { continue }
                    let rotation = Angle.normalized(Int(other.direction) - Int(entry.direction))
                    candidates.append(Candidate(probeI: entry.i, probeJ: entry.j, galleryI: other.i, galleryJ: other.j, rotation: Int16(rotation)))
                    rotationVotes[(rotation + 180) / Self.rotationBin] += 1
                }
            }
        }
    }

    /// The rotation window (three bins) with the most candidates, as its first and last degree.
    private func winningRotation() -> (Int, Int) {
        let bins = rotationVotes.count
        var best = 0, bestVotes: Int32 = -1
        for bin in 0..<bins {
            let votes = rotationVotes[(bin + bins - 1) % bins] + rotationVotes[bin] + rotationVotes[(bin + 1) % bins]
            if votes > bestVotes { best = bin; bestVotes = votes }
        }
        let low = Angle.normalized((best - 1) * Self.rotationBin - 180)
        return (low, Angle.normalized(low + 3 * Self.rotationBin - 1))
    }

    private static func inWindow(_ rotation: Int, _ low: Int, _ high: Int) -> Bool {
        Angle.normalized(rotation - low) >= 0 && Angle.normalized(rotation - low) <= Angle.normalized(high - low)
    }

    /// Each probe minutia takes the gallery minutia it has the most votes for; a gallery
    /// minutia wanted by several goes to the best supported (ties: the first).
    private mutating func assignOneToOne(_ probeCount: Int, _ galleryCount: Int) {
        Self.resize(&assigned, probeCount, -1)
        Self.resize(&assignedSupport, probeCount, 0)
        Self.resize(&galleryOwner, galleryCount, -1)
        for p in 0..<probeCount {
            var best = -1, bestSupport: UInt16 = 0
            for g in 0..<galleryCount where support[p * galleryCount + g] > bestSupport {
                best = g; bestSupport = support[p * galleryCount + g]
            }
            assigned[p] = Int16(best)
            assignedSupport[p] = bestSupport
            guard best >= 0 else { continue }
            let owner = Int(galleryOwner[best])
            if owner < 0 {
                galleryOwner[best] = Int16(p)
            } else if assignedSupport[owner] < bestSupport {
                assigned[owner] = -1
                galleryOwner[best] = Int16(p)
            } else {
                assigned[p] = -1
            }
        }
    }

    /// Drops assignments that disagree with the translation most of them share (rotated probe
    /// minutia plus shift = gallery minutia): the assignment with most neighbours within the
    /// tolerance sets the shift.
    private mutating func keepCommonTranslation(_ probe: PairTable, _ gallery: PairTable, rotationDegrees: Double) {
        let radians = rotationDegrees * Double.pi / 180
        let cosine = cos(radians), sine = sin(radians)
        let count = probe.minutiaCount
        Self.resize(&shiftX, count, 0)
        Self.resize(&shiftY, count, 0)
        for p in 0..<count where assigned[p] >= 0 {
            let g = Int(assigned[p])
            let x = Double(probe.xs[p]), y = Double(probe.ys[p])
            shiftX[p] = gallery.xs[g] - Int32((cosine * x - sine * y).rounded())
            shiftY[p] = gallery.ys[g] - Int32((sine * x + cosine * y).rounded())
        }
        let tolerance = Int32(Self.translationTolerance)
        var reference = -1, referenceNeighbours = -1
        for p in 0..<count where assigned[p] >= 0 {
            var neighbours = 0
            for q in 0..<count where assigned[q] >= 0 && abs(shiftX[q] - shiftX[p]) <= tolerance && abs(shiftY[q] - shiftY[p]) <= tolerance {
                neighbours += 1
            }
            if neighbours > referenceNeighbours { reference = p; referenceNeighbours = neighbours }
        }
        guard reference >= 0 else { return }
        for p in 0..<count where assigned[p] >= 0 {
            if abs(shiftX[p] - shiftX[reference]) > tolerance || abs(shiftY[p] - shiftY[reference]) > tolerance { assigned[p] = -1 }
        }
    }

    private static func resize<T>(_ array: inout [T], _ count: Int, _ value: T) {
        if array.count < count { array = [T](repeating: value, count: count) }
        for index in 0..<count { array[index] = value }
    }
}
