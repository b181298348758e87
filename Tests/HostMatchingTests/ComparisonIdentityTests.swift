@testable import HostMatching
import Glibc
import Imaging
import MinutiaeExtraction
import TestSupport
import Testing

/// The fast comparison (`CylinderComparison`) must decide exactly as the straightforward one did
/// (`ReferenceCylinderComparison`, kept unchanged in this target): the same Float, bit for bit,
/// for every pair, so every Int score, threshold and decision stays where it was. Checked on
/// real impressions and on the pieces where the fast form takes a different route (the choice
/// of the best pairs, the sigmoid cut-offs, the angle difference, the print's area), and for
/// 1:N, that skipping what cannot reach the threshold never changes the decision.
@Suite struct ComparisonIdentityTests {
    let matcher = MinutiaeMatcher()

    /// Pairs whose fast and reference Floats differ (described), or whose score exceeds the bound
    /// a 1:N search skips by, and the reference's scores.
    func differences(_ pairs: [(name: String, a: CylinderTemplate, b: CylinderTemplate)]) -> (mismatches: [String], scores: [Int]) {
        var mismatches: [String] = [], scores: [Int] = []
        for pair in pairs {
            let fast = CylinderComparison.score(pair.a, pair.b), reference = ReferenceCylinderComparison.score(pair.a, pair.b)
            if fast.bitPattern != reference.bitPattern { mismatches.append("\(pair.name): fast \(fast), reference \(reference)") }
            var bound: Float = .infinity
            let unskipped = CylinderComparison.score(pair.a, pair.b, skippingWhen: { bound = $0; return false })
            if unskipped?.bitPattern != fast.bitPattern || fast > bound {
                mismatches.append("\(pair.name): \(fast), \(String(describing: unskipped)) with a bound of \(bound)")
            }
            scores.append(MinutiaeMatcher.scaled(reference))
        }
        return (mismatches, scores)
    }

    @Test(.disabled(if: FVC2002.skipped, FVC2002.skipReason)) func realCropsScoreExactlyAsTheReferenceDoes() throws {
        // Three impressions of every finger of every database, each against every other of its
        // database and itself (genuine and impostor pairs, high scores and low), both ways.
        var pairs: [(name: String, a: CylinderTemplate, b: CylinderTemplate)] = []
        for database in FVC2002.databases {
            var probes: [(name: String, probe: Probe)] = []
            for finger in 101...110 {
                for impression in 1...3 {
                    guard let probe = try? matcher.probe(try FVC2002.crop(database, finger: finger, impression: impression)) else { continue }
                    probes.append(("\(database)/\(finger)_\(impression)", probe))
                }
            }
            for a in probes {
                for b in probes { pairs.append(("\(a.name) × \(b.name)", a.probe.cylinders, b.probe.cylinders)) }
            }
        }
        let (mismatches, scores) = differences(pairs)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(pairs.count) pairs differ: \(mismatches.prefix(5))")
        // The sample reaches every part of a comparison: strangers and genuine pairs alike.
        #expect(pairs.count > 2_500)
        // (Scores fell with the ridges' factor, 2026-12-07: ~170 pairs at 150 or more, ~450 in 10 ..< 40.)
        #expect(scores.count { $0 >= 100 } > 150 && scores.count { (10..<40).contains($0) } > 300)
    }

    @Test(.disabled(if: FVC2002.skipped, FVC2002.skipReason)) func wholeImagesGallerySidesAndOtherCylinderSizesToo() throws {
        // Whole images hold two or three times the minutiae of a crop: longer lists to choose from.
        var prints: [ExtractedPrint] = []
        for finger in [101, 104] {
            for impression in 1...3 {
                let image = try FVC2002.image("DB3_B", finger: finger, impression: impression)
                prints.append(try matcher.probe(image).print)
            }
        }
        var pairs: [(name: String, a: CylinderTemplate, b: CylinderTemplate)] = []
        let probes = prints.map { CylinderTemplate($0, withShapes: true) }, gallery = prints.map { CylinderTemplate($0) }
        for a in prints.indices {
            for b in prints.indices {
                pairs.append(("whole \(a) × \(b)", probes[a], gallery[b]))
                pairs.append(("whole \(a) × \(b), no shapes", gallery[a], probes[b]))
            }
        }
        // Cylinders of other sizes than six words take the word-at-a-time path.
        for (cells, sections) in [(6, 6), (8, 5), (9, 6)] {
            var parameters = CylinderParameters()
            parameters.cellsPerSide = cells
            parameters.angularSections = sections
            let templates = prints.prefix(4).map { CylinderTemplate($0, parameters: parameters, withShapes: true) }
            for a in templates.indices {
                for b in templates.indices { pairs.append(("\(cells)×\(cells)×\(sections) \(a) × \(b)", templates[a], templates[b])) }
            }
        }
        let (mismatches, scores) = differences(pairs)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(pairs.count) pairs differ: \(mismatches.prefix(5))")
        #expect(scores.count { $0 >= 150 } >= 10 && scores.count { (1..<150).contains($0) } >= 30)
    }

    @Test(.disabled(if: FVC2002.skipped, FVC2002.skipReason)) func identifySkipsOnlyWhatCannotChangeTheDecision() throws {
        var templates: [[ExtractedPrint]] = [], probes: [Probe] = []
        for database in ["DB1_B", "DB3_B"] {
            for finger in 101...110 {
                let usable = (1...8).compactMap { try? matcher.probe(try FVC2002.crop(database, finger: finger, impression: $0)) }
                guard usable.count >= 6 else { continue }
                if finger <= 107 { templates.append(usable.prefix(4).map(\.print)) }
                probes += usable.suffix(2)
            }
        }
        let gallery = MinutiaeGallery(prints: templates)
        var skipped = 0, exactAbove = 0, matched = 0
        for probe in probes {
            let full = matcher.evidence(probe: probe, gallery: gallery)
            // The gallery's own criteria, stricter ones where more comparisons are skipped, and lower
            // ones where many more scores are above.
            let product = matcher.criteria(for: gallery)
            let others = [(200, 150), (160, 130), (120, 90), (60, 45)].map { MatchCriteria(single: $0.0, pair: $0.1) }
            for criteria in [product] + others {
                let threshold = criteria.lowest
                let decisive = matcher.decisiveEvidence(probe: probe, gallery: gallery, threshold: threshold)
                for (exact, quick) in zip(full.flatMap { [$0.best, $0.second] }, decisive.flatMap { [$0.best, $0.second] }) {
                    if exact >= threshold {
                        #expect(quick == exact)
                        exactAbove += 1
                    } else {
                        #expect(quick < threshold)
                        if quick != exact { skipped += 1 }
                    }
                }
                let decision = GallerySearch.decide(evidence: decisive, criteria: criteria)
                #expect(decision == GallerySearch.decide(evidence: full, criteria: criteria))
                if decision != nil { matched += 1 }
            }
            #expect(matcher.identify(probe: probe, gallery: gallery) == GallerySearch.decide(evidence: full, criteria: product))
        }
        // Both sides were exercised: comparisons skipped, exact scores kept, matches made.
        #expect(skipped > 100 && exactAbove > 100 && matched > 10, "skipped \(skipped), exact above \(exactAbove), matched \(matched)")
    }

    /// A comparison is skipped exactly when its bound scales below the threshold: never at it.
    @Test func aBoundIsTooLowOnlyBelowTheThreshold() {
        for bound in stride(from: Float(0), through: 1.01, by: 0.000_37) {
            let score = MinutiaeMatcher.scaled(bound)
            #expect(!MinutiaeMatcher.cannotReach(bound, score) && MinutiaeMatcher.cannotReach(bound, score + 1))
            #expect(!MinutiaeMatcher.cannotReach(bound, 0))
        }
    }

    /// The best pairs: a histogram and a replay on the few that can be chosen must give what a
    /// selection sort of every pair gives, in the same order, ties and all.
    @Test func theChoiceOfBestPairsIsTheSelectionSortsEvenWithTies() {
        var generator = SeededGenerator(seed: 22)
        for trial in 0..<3_000 {
            let count = 1 + Int(generator.next() % 300)
            let kept = 1 + Int(generator.next() % 40)
            // Few distinct values: ties everywhere, at the cut-off too; some so close that they
            // share a bucket of the histogram, some below its lowest bucket.
            let levels = 1 + Int(generator.next() % 12)
            let scale: Float = trial % 3 == 0 ? 0.01 : 1
            let values = (0..<count).map { _ in
                let level = Float(1 + Int(generator.next() % UInt64(levels))) / Float(levels + 1)
                return trial % 5 == 0 ? 0.5 + level / 1000 : level * scale
            }
            var reference = values.enumerated().map { (similarity: $0.element, i: Int32($0.offset), j: Int32(trial % 7)) }
            let expected = reference.withUnsafeMutableBufferPointer { buffer in
                ReferenceCylinderComparison.partialSortDescending(buffer, count: count, first: min(kept, count))
                return Array(buffer.prefix(min(kept, count)))
            }
            let chosen = withUnsafeTemporaryAllocation(of: CylinderComparison.Candidate.self, capacity: count + kept) { scratch in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: CylinderComparison.Selection.buckets) { histogram in
                    var selection = CylinderComparison.Selection(candidates: scratch.baseAddress!, histogram: histogram.baseAddress!, kept: kept)
                    for (index, value) in values.enumerated() { selection.offer(value, index, trial % 7) }
                    let selected = selection.best(into: scratch.baseAddress! + count)
                    return Array(UnsafeBufferPointer(start: scratch.baseAddress! + count, count: selected))
                }
            }
            #expect(chosen.count == expected.count)
            let same = zip(chosen, expected).allSatisfy { $0.similarity == $1.similarity && $0.i == $1.i && $0.j == $1.j }
            #expect(same, "trial \(trial): \(count) values, kept \(kept): \(chosen.map(\.i)) vs \(expected.map(\.i))")
            if !same { break }
        }
    }

    /// Beyond each cut-off the sigmoid is certainly below 0.001, where ρ is zero anyway.
    @Test func theSigmoidCutOffsLieBeyondTheirCrossings() {
        let p = CylinderParameters.standard
        let cutoffs = CylinderComparison.Cutoffs(p)
        for (cutoff, midpoint, slope) in [(cutoffs.distance, p.distanceMidpoint, p.distanceSlope),
                                          (cutoffs.direction, p.directionMidpoint, p.directionSlope)] {
            var value = cutoff, above: [Float] = []
            for _ in 0..<10_000 {
                if ReferenceCylinderComparison.sigmoid(value, midpoint, slope) > 0.001 { above.append(value) }
                value = value.nextUp
            }
            for step in 0..<1_000 where ReferenceCylinderComparison.sigmoid(cutoff + Float(step) * 0.05, midpoint, slope) > 0.001 {
                above.append(cutoff + Float(step) * 0.05)
            }
            #expect(above.isEmpty, "sigmoid(\(above.first ?? 0), \(midpoint), \(slope)) > 0.001 beyond the cut-off \(cutoff)")
            // …and close to the crossing, so the cut-off saves work.
            #expect(ReferenceCylinderComparison.sigmoid(cutoff * 0.95, midpoint, slope) > 0.0005)
        }
        #expect(CylinderComparison.Cutoffs.cutoff(1, 2) == .infinity)
    }

    @Test func theAngleDifferenceTakesTheLoopsSteps() {
        var generator = SeededGenerator(seed: 7)
        var values: [Float] = [0, .pi, -.pi, 2 * .pi, -2 * .pi, 3 * .pi, -3 * .pi, Float.pi.nextUp, (-Float.pi).nextDown]
        for _ in 0..<20_000 { values.append((Float(generator.next() % 1_000_000) / 1_000_000 - 0.5) * 8 * .pi) }
        for a in values.prefix(200) {
            for b in values {
                #expect(CylinderTemplate.difference(a, b).bitPattern == referenceDifference(a, b).bitPattern)
            }
        }
    }

    @Test func theInlinedAreaTestIsTheExtractorsOwn() {
        var generator = SeededGenerator(seed: 3)
        for blockSize in [8, 6, 16, 1] {
            let across = 192 / blockSize, down = 160 / blockSize
            let flags = (0..<(across * down)).map { _ in generator.next() % 3 != 0 }
            let print = ExtractedPrint(width: 192, height: 160, minutiae: [], blockSize: blockSize, blocksAcross: across, blocksDown: down,
                                       foreground: flags, quality: PrintQuality(score: 50, area: 0.5, clarity: 0.5))
            let area = GlobalConsistency.Area(print)
            flags.withUnsafeBufferPointer { foreground in
                for _ in 0..<20_000 {
                    let x = Float(Int(generator.next() % 500_000) - 100_000) / 1_000, y = Float(Int(generator.next() % 500_000) - 100_000) / 1_000
                    #expect(area.contains(foreground, x, y) == print.isForeground(x: x, y: y))
                }
                for (x, y) in [(Float(0), Float(0)), (-0.0, 5), (191.99, 159.99), (192, 10), (10, 160), (-0.001, 3), (Float(blockSize), 0)] {
                    #expect(area.contains(foreground, x, y) == print.isForeground(x: x, y: y))
                }
            }
        }
    }

    @Test func theCellsListEveryMinutiaWithinTheToleranceOfAPoint() {
        // 150 minutiae (three words a cell), some just off the image, and points all over it.
        var generator = SeededGenerator(seed: 11)
        let across = 37, down = 25, blockSize = 8
        let print = ExtractedPrint(width: across * blockSize, height: down * blockSize, minutiae: [], blockSize: blockSize, blocksAcross: across,
                                   blocksDown: down, foreground: [Bool](repeating: true, count: across * down),
                                   quality: PrintQuality(score: 50, area: 1, clarity: 0.5))
        let area = GlobalConsistency.Area(print)
        let count = 150
        let xs = (0..<count).map { _ in Float(Int(generator.next() % 320_000) - 12_000) / 1_000 }
        let ys = (0..<count).map { _ in Float(Int(generator.next() % 224_000) - 12_000) / 1_000 }
        let nearby = GlobalConsistency.Nearby(area, minutiae: count)
        #expect(nearby.words == 3)
        var cells = [UInt64](repeating: 1, count: nearby.count)
        var missed = 0, listed = 0, near = 0
        xs.withUnsafeBufferPointer { x in
            ys.withUnsafeBufferPointer { y in
                cells.withUnsafeMutableBufferPointer { nearby.list(x.baseAddress!, y.baseAddress!, into: $0.baseAddress!) }
            }
        }
        for _ in 0..<5_000 {
            var px = SIMD8<Float>(), py = SIMD8<Float>()
            for lane in 0..<8 {
                px[lane] = Float(generator.next() % 296_000) / 1_000
                py[lane] = Float(generator.next() % 200_000) / 1_000
            }
            let first = nearby.cells(px, py)
            for lane in 0..<8 {
                let start = Int(first[lane])
                for minutia in 0..<count {
                    let dx = xs[minutia] - px[lane], dy = ys[minutia] - py[lane]
                    let isListed = cells[start + minutia / 64] & (1 << UInt64(minutia % 64)) != 0
                    if isListed { listed += 1 }
                    guard dx * dx + dy * dy < GlobalConsistency.distanceTolerance * GlobalConsistency.distanceTolerance else { continue }
                    near += 1
                    if !isListed { missed += 1 }
                }
            }
        }
        #expect(missed == 0, "\(missed) of \(near) minutiae within the tolerance not listed")
        // The cells sort: a point's cell lists a small part of the print's minutiae.
        #expect(near > 1_000 && listed < 40_000 * count / 10)
    }

    @Test func manyMinutiaeScoreExactlyAsTheReferenceDoes() {
        // 90 minutiae an impression (two words of paired flags), the second a turned, shifted and
        // slightly moved copy of the first with some minutiae lost: a high score, and a stranger's.
        var generator = SeededGenerator(seed: 5)
        let across = 50, down = 50, blockSize = 8
        func print(_ minutiae: [RidgeMinutia]) -> ExtractedPrint {
            ExtractedPrint(width: across * blockSize, height: down * blockSize, minutiae: minutiae, blockSize: blockSize, blocksAcross: across,
                           blocksDown: down, foreground: [Bool](repeating: true, count: across * down),
                           quality: PrintQuality(score: 50, area: 1, clarity: 0.5))
        }
        func random(_ count: Int) -> [RidgeMinutia] {
            (0..<count).map { _ in
                RidgeMinutia(x: Float(generator.next() % 360_000) / 1_000 + 20, y: Float(generator.next() % 360_000) / 1_000 + 20,
                             angle: Float(generator.next() % 6_283) / 1_000 - .pi, kind: .ending, quality: 1)
            }
        }
        let original = random(90)
        let (c, s): (Float, Float) = (cos(0.2), sin(0.2))
        let moved = original.enumerated().compactMap { index, m -> RidgeMinutia? in
            guard index % 7 != 3 else { return nil }
            let jitter = Float(generator.next() % 4_000) / 1_000 - 2
            return RidgeMinutia(x: c * m.x - s * m.y + 30 + jitter, y: s * m.x + c * m.y - 10 - jitter,
                                angle: CylinderTemplate.difference(m.angle + 0.2, 0), kind: .ending, quality: 1)
        }
        let a = CylinderTemplate(print(original), withShapes: true), b = CylinderTemplate(print(moved)), stranger = CylinderTemplate(print(random(90)))
        #expect(a.minutiaCount > 64 && b.minutiaCount > 64)
        let (mismatches, scores) = differences([("copy", a, b), ("copy, other way", b, a), ("stranger", a, stranger), ("itself", a, a)])
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(scores.count { $0 >= 150 } >= 2)
    }
}
