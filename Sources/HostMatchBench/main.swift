// The host matcher's speed and its score calibration, on real impressions (FVC2002 B, each
// image's 192 × 192 centre as an FPC1020 sees it): tools/bench-host-match.sh runs it, and
// tools/calibrate-host-matcher.sh turns `calibrate`'s output into ScoreCalibration+FVC2002.swift.
//
//   HostMatchBench speed [FVC-DIR]       extraction per image, comparisons/s on one core,
//                                        1:N identify at 20 (a door), 100, 1,000 and 10,000 templates
//   HostMatchBench compare [FVC-DIR] [ROUNDS]  only the one-core comparisons, ROUNDS times (default 5)
//                                        and their median: for A/B runs of two builds and for profilers
//   HostMatchBench calibrate [FVC-DIR]   every different-finger pair of sensor windows (each image's
//                                        centre and the windows 48 px off it) of each database, scored,
//                                        and the calibration fitted to them, as Swift
//   HostMatchBench pairs [FVC-DIR]       a quick look while tuning: per database, the FVC pairs'
//                                        equal error rate and misses at 1 in 1,000 (crops only;
//                                        the full tables, with NBIS beside, are `fpmod bench accuracy`)
//   HostMatchBench extractors [FVC-DIR] [full]  the cylinders on our minutiae and on NBIS mindtct's,
//                                        side by side (crops, or whole images): the extractor's share
//                                        of the error
//   HostMatchBench fusion [FVC-DIR]      how a probe's scores against a finger's five enrolled crops are
//                                        best combined (best, second, sums): each statistic's misses at
//                                        1 in 100,000 per template, fitted on its own impostor attempts
//   HostMatchBench shortlist [FVC-DIR]   the first stage of a large search (`GalleryShortlist`) on
//                                        real impressions: 40 templates (impressions 1–5 of each
//                                        finger of the four databases), impressions 6–8 as probes; for
//                                        each genuine template the full comparison admits (at the
//                                        thresholds of a door's 10, 1,000 and 10,000 templates), the
//                                        share of the 39 strangers' templates ranked at or above it
//   HostMatchBench coverage [FVC-DIR]    where the door's misses come from: each later touch (6–8)
//                                        whose window scores at most 1 in 1,000 against all five
//                                        enrolled windows (1–5) is set against the five enrolled
//                                        whole images; a window found there lies on the finger
//                                        outside every enrolled window (it shares little with any
//                                        of them), one found nowhere is the matcher's to win
//   HostMatchBench lowest [FVC-DIR] [full]  where a database's errors come from: each image the
//                                        matcher refuses, and why; then every genuine pair scoring at
//                                        or below the highest impostor score, lowest first, with both
//                                        images' minutiae and quality (crops, or whole images)
//   HostMatchBench dump [FVC-DIR]        every ordered pair's score, one line each: all usable crops
//                                        of the four databases against each other, then each
//                                        database's whole images against each other; two builds'
//                                        outputs must be identical when a change keeps the scores
//
// FVC-DIR holds DB1_B … DB4_B (default $FPMOD_FVC2002, else ../shared/data/fvc2002). Accuracy
// itself is `fpmod bench accuracy`.
import Dispatch
import Glibc
import HostMatching
import Imaging
import MinutiaeExtraction

func fail(_ message: String) -> Never {
    let line = Array("HostMatchBench: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    guard digits > 0 else { return String(scaled) }
    let fraction = String(abs(scaled) % Int(scale))
    return (scaled < 0 ? "-" : "") + String(abs(scaled) / Int(scale)) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, ["speed", "compare", "calibrate", "pairs", "dump", "extractors", "fusion", "shortlist", "coverage", "lowest"].contains(arguments[1]) else {
    fail("usage: HostMatchBench speed|compare|calibrate|pairs|dump|extractors|fusion|shortlist|coverage|lowest [FVC-DIR] [ROUNDS|full]")
}
let mode = arguments[1]
let root = arguments.count > 2 ? arguments[2] : getenv("FPMOD_FVC2002").map { String(cString: $0) } ?? "../shared/data/fvc2002"
let databases = ["DB1_B", "DB2_B", "DB3_B", "DB4_B"]
let matcher = MinutiaeMatcher()

/// One database's images, finger (0…9) × impression (0…7): each image's 192 × 192 centre, or
/// (`whole`) the whole image.
func images(_ database: String, whole: Bool) -> [[GreyImage]] {
    (101...110).map { finger in
        (1...8).map { impression in
            let path = "\(root)/\(database)/\(finger)_\(impression).png"
            do {
                let image = try PNGFile.read(path)
                return whole ? image : image.centreCropped(width: 192, height: 192)
            } catch {
                fail("cannot read \(path) (\(error)); give the folder that holds DB1_B … DB4_B")
            }
        }
    }
}

/// One database's crops: finger (0…9) × impression (0…7).
func crops(_ database: String) -> [[GreyImage]] { images(database, whole: false) }

/// How far off an image's centre the calibration's other sensor windows lie (a quarter of the window).
let calibrationWindowStep = 48

/// The 192 × 192 windows of `image` a finger placed at its centre or `calibrationWindowStep`
/// pixels off it, in any of the eight directions, would give (those that fit the image).
func sensorWindows(_ image: GreyImage) -> [GreyImage] {
    var windows: [GreyImage] = []
    for dy in [0, -calibrationWindowStep, calibrationWindowStep] {
        for dx in [0, -calibrationWindowStep, calibrationWindowStep] {
            let x = (image.width - 192) / 2 + dx, y = (image.height - 192) / 2 + dy
            guard x >= 0, y >= 0, x + 192 <= image.width, y + 192 <= image.height else { continue }
            windows.append(image.cropped(x: x, y: y, width: 192, height: 192))
        }
    }
    return windows
}

func probes(_ images: [[GreyImage]]) -> [[Probe?]] {
    images.map { $0.map { try? matcher.probe($0) } }
}

/// FVC's pairs of one database (10 fingers × 8 impressions): every two impressions of a finger
/// (a refused image scores 0, a miss) and every impression against every impression of a later
/// finger (refused images left out).
func fvcScores(_ probes: [[Probe?]]) -> (genuine: [Int], impostor: [Int]) {
    var genuine: [Int] = [], impostor: [Int] = []
    for a in 0..<10 {
        for i in 0..<8 {
            for j in (i + 1)..<8 {
                guard let p = probes[a][i], let q = probes[a][j] else { genuine.append(0); continue }
                genuine.append(matcher.score(p, q))
            }
            for b in (a + 1)..<10 {
                for j in 0..<8 {
                    guard let p = probes[a][i], let q = probes[b][j] else { continue }
                    impostor.append(matcher.score(p, q))
                }
            }
        }
    }
    return (genuine, impostor)
}

/// Equal error rate: where misses and false matches cross.
func equalErrorRate(_ genuine: [Int], _ impostor: [Int]) -> Double {
    var eer = 1.0
    for threshold in 0...1001 {
        let fnmr = Double(genuine.count { $0 < threshold }) / Double(genuine.count)
        let fmr = Double(impostor.count { $0 >= threshold }) / Double(impostor.count)
        eer = min(eer, max(fnmr, fmr))
    }
    return eer
}

if mode == "calibrate" {
    // Each impression seen through nine sensor windows: its centre and the windows a finger
    // placed up to `calibrationWindowStep` pixels off it would give (those that fit the image).
    // A window of one finger against a window of another is an impostor comparison like any
    // other, and nine windows an impression give ~70 times the pairs of the centres alone, so
    // the rates a door asks for (1 in 10⁶ per comparison at 1 in 10,000 attempts over 50
    // impressions) rest on far less extrapolation.
    var singles: [Int: Int] = [:], pairs: [Int: Int] = [:]
    for database in databases {
        let windows: [[[Probe?]]] = (101...110).map { finger in
            (1...8).map { impression in
                let path = "\(root)/\(database)/\(finger)_\(impression).png"
                guard let image = try? PNGFile.read(path) else { fail("cannot read \(path); give the folder that holds DB1_B … DB4_B") }
                return sensorWindows(image).map { try? matcher.probe($0) }
            }
        }
        var count = 0, highest: [Int] = []
        for a in 0..<10 {
            for case let p? in windows[a].joined() {
                for b in 0..<10 where b != a {
                    // Every window of finger b: its impression and its score against p.
                    var scored: [(impression: Int, score: Int)] = []
                    for (j, row) in windows[b].enumerated() {
                        for case let q? in row { scored.append((j, matcher.score(p, q))) }
                    }
                    // One comparison per unordered pair of windows (p of the lower finger).
                    if a < b {
                        for (_, score) in scored { singles[score, default: 0] += 1 }
                        count += scored.count
                        highest += scored.map(\.score)
                    }
                    // p against two touches of finger b (windows of two different impressions):
                    // the lower of its two scores, what the two-impression criterion asks of both
                    // (`MatchCriteria`).
                    for x in scored.indices {
                        for y in (x + 1)..<scored.count where scored[x].impression != scored[y].impression {
                            pairs[min(scored[x].score, scored[y].score), default: 0] += 1
                        }
                    }
                }
            }
        }
        let top = highest.sorted(by: >)
        print("// \(database): \(windows.joined().joined().count { $0 != nil }) usable windows of 80 impressions, \(count) impostor pairs, highest \(top.prefix(5).map(String.init).joined(separator: ", "))")
    }
    let calibration = ScoreCalibration.fitted(histogram: singles)
    let pairCalibration = ScoreCalibration.fitted(histogram: pairs)
    func counts(_ c: ScoreCalibration) -> String {
        c.counts.keys.sorted(by: >).map { "\($0): \(c.counts[$0]!)" }.joined(separator: ", ")
    }
    print("""
    // \(calibration.impostorCount) impostor pairs of FVC2002 DB1_B…DB4_B sensor windows (192 × 192: each
    // image's centre and up to eight windows \(calibrationWindowStep) px off it; every window of a finger against
    // every window of another finger of the same database); for the pairs, \(pairCalibration.impostorCount)
    // windows against two windows of two impressions of another finger of the same database, the
    // lower of the two scores. Counts are how many impostors scored each score, down to 2 % of them.
    // Generated by tools/calibrate-host-matcher.sh; do not edit by hand.
    extension ScoreCalibration {
        public static let fvc2002Crops = ScoreCalibration(
            impostorCount: \(calibration.impostorCount),
            decay: \(fixed(calibration.decay, 3)),
            fitCount: \(calibration.fitCount),
            counts: [\(counts(calibration))])

        public static let fvc2002CropPairs = ScoreCalibration(
            impostorCount: \(pairCalibration.impostorCount),
            decay: \(fixed(pairCalibration.decay, 3)),
            fitCount: \(pairCalibration.fitCount),
            counts: [\(counts(pairCalibration))])
    }
    """)
    exit(0)
}

if mode == "extractors" {
    // The same comparison (the cylinders) on the minutiae of two extractors, ours and NBIS's
    // mindtct (through libfprint), each on our print area: which part of an error is the
    // extractor's. FVC all-pairs protocol, on each image's 192 × 192 centre or (`full`) whole.
    let whole = arguments.count > 3 && arguments[3] == "full"
    let nbis = NBISMatcher()
    for database in databases {
        var ours: [[Probe?]] = [], theirs: [[Probe?]] = []
        var found = (ours: 0, theirs: 0)
        for row in images(database, whole: whole) {
            var rowOurs: [Probe?] = [], rowTheirs: [Probe?] = []
            for image in row {
                let print = matcher.extractor.extract(image)
                found.ours += print.minutiae.count
                rowOurs.append(try? matcher.probe(image))
                var other = print
                other.minutiae = (try? nbis.minutiae(in: image)) ?? []
                found.theirs += other.minutiae.count
                rowTheirs.append(other.minutiae.count >= matcher.minimumMinutiae ? matcher.probe(print: other) : nil)
            }
            ours.append(rowOurs)
            theirs.append(rowTheirs)
        }
        for (name, probes) in [("fpmod's extractor", ours), ("NBIS mindtct", theirs)] {
            let (genuine, impostor) = fvcScores(probes)
            guard !impostor.isEmpty else { print("\(database) \(name): every image refused"); continue }
            let eer = equalErrorRate(genuine, impostor)
            let fmr1000 = impostor.sorted(by: >)[max(0, impostor.count / 1000 - 1)] + 1
            print("\(database) \(whole ? "whole" : "192 × 192") \(name): EER \(fixed(100 * eer, 1)) %, "
                + "\(genuine.count { $0 < fmr1000 })/\(genuine.count) genuine missed at 1 in 1,000, \(probes.joined().count { $0 == nil }) refused")
        }
        print("  minutiae per image: fpmod \(found.ours / 80), mindtct \(found.theirs / 80)")
    }
    exit(0)
}

if mode == "lowest" {
    // Found this way on 2026-12-07: DB3_B 108_1, a small finger on a large image, refused as "no
    // finger" (its seven genuine pairs all misses), and DB2_B 109 / DB4_B 110 carrying most of
    // the rest (docs/accuracy.md).
    let whole = arguments.count > 3 && arguments[3] == "full"
    for database in databases {
        let probes: [[Probe?]] = images(database, whole: whole).enumerated().map { finger, row in
            row.enumerated().map { impression, image in
                do { return try matcher.probe(image) } catch {
                    print("\(database) \(101 + finger)_\(impression + 1) refused: \(error)")
                    return nil
                }
            }
        }
        let (genuine, impostor) = fvcScores(probes)
        let highest = impostor.max() ?? 0
        print("\(database) \(whole ? "whole" : "192 × 192"): EER \(fixed(100 * equalErrorRate(genuine, impostor), 1)) %, "
            + "impostor scores highest \(impostor.sorted(by: >).prefix(5).map(String.init).joined(separator: ", "))")
        var low: [(score: Int, line: String)] = []
        for finger in 0..<10 {
            for i in 0..<8 {
                for j in (i + 1)..<8 {
                    guard let p = probes[finger][i], let q = probes[finger][j] else { continue }
                    let score = matcher.score(p, q)
                    guard score <= highest else { continue }
                    low.append((score, "\(101 + finger)_\(i + 1) and _\(j + 1): minutiae \(p.print.minutiae.count) / "
                        + "\(q.print.minutiae.count), quality \(p.print.quality.score) / \(q.print.quality.score)"))
                }
            }
        }
        for pair in low.sorted(by: { $0.score < $1.score }) { print("  \(pair.score)  \(pair.line)") }
    }
    exit(0)
}

if mode == "pairs" {
    for database in databases {
        let probes = probes(crops(database))
        let (genuine, impostor) = fvcScores(probes)
        let eer = equalErrorRate(genuine, impostor)
        let sorted = impostor.sorted(by: >)
        let fmr1000 = sorted[max(0, impostor.count / 1000 - 1)] + 1
        let missed = genuine.count { $0 < fmr1000 }
        let failed = probes.joined().count { $0 == nil }
        // The door by the best impression alone (the product adds two impressions together:
        // `fpmod bench accuracy --door`): impressions 1–5 enrolled, 6–8 identify; impostor attempts
        // are every impression of every other finger against the template.
        var doorGenuine: [Int] = [], doorImpostor: [Int] = []
        for a in 0..<10 {
            let enrolled = probes[a][0..<5].compactMap { $0 }
            func best(_ probe: Probe?) -> Int {
                guard let probe else { return 0 }
                return enrolled.map { matcher.score(probe, $0) }.max() ?? 0
            }
            for k in 5..<8 { doorGenuine.append(best(probes[a][k])) }
            for b in 0..<10 where b != a { for k in 0..<8 { doorImpostor.append(best(probes[b][k])) } }
        }
        let doorSorted = doorImpostor.sorted(by: >)
        let doorThreshold = doorSorted[max(0, doorImpostor.count / 1000 - 1)] + 1
        let doorMissed = doorGenuine.count { $0 < doorThreshold }
        print("\(database): EER \(fixed(100 * eer, 1)) %, at FMR 1/1000 (score \(fmr1000)) \(missed)/\(genuine.count) genuine missed; \(failed) crops refused; door: \(doorMissed)/30 missed at \(doorThreshold) (highest impostor \(doorSorted[0]))")
    }
    exit(0)
}

if mode == "fusion" {
    // How the scores of a probe against a finger's five enrolled impressions are best combined:
    // each statistic's threshold at 1 in 100,000 per template from its own impostor attempts
    // (every usable crop of every other finger of all four databases), fitted as the product fits.
    typealias Statistic = (name: String, value: ([Int]) -> Int)
    let statistics: [Statistic] = [
        ("best", { $0[0] }), ("second", { $0.count > 1 ? $0[1] : 0 }), ("top two summed", { $0.prefix(2).reduce(0, +) }),
        ("top three summed", { $0.prefix(3).reduce(0, +) }), ("all summed", { $0.reduce(0, +) }),
        ("best + second/2", { $0[0] + ($0.count > 1 ? $0[1] / 2 : 0) }),
    ]
    var all: [[Probe?]] = []
    for database in databases { all += probes(crops(database)) }
    var genuine = [[Int]](repeating: [], count: statistics.count), impostor = genuine
    for a in all.indices {
        let enrolled = all[a][0..<5].compactMap { $0 }
        func sorted(_ probe: Probe) -> [Int] { enrolled.map { matcher.score(probe, $0) }.sorted(by: >) }
        for k in 5..<8 {
            guard let probe = all[a][k] else { for s in statistics.indices { genuine[s].append(-1) }; continue }
            let scores = sorted(probe)
            for (s, statistic) in statistics.enumerated() { genuine[s].append(statistic.value(scores)) }
        }
        for b in all.indices where b != a {
            for case let probe? in all[b] {
                let scores = sorted(probe)
                for (s, statistic) in statistics.enumerated() { impostor[s].append(statistic.value(scores)) }
            }
        }
    }
    for (s, statistic) in statistics.enumerated() {
        let calibration = ScoreCalibration.fitted(impostorScores: impostor[s])
        let threshold = calibration.threshold(perComparison: 1e-5)
        let sorted = impostor[s].sorted(by: >)
        print("\(statistic.name): at 1e-5 threshold \(threshold): missed \(genuine[s].count { $0 < threshold })/\(genuine[s].count); "
            + "impostor max \(sorted[0]), at 1/1000 \(sorted[sorted.count / 1000]) missed \(genuine[s].count { $0 <= sorted[sorted.count / 1000] }); "
            + "EER \(fixed(100 * equalErrorRate(genuine[s], impostor[s]), 1)) %")
    }
    exit(0)
}

if mode == "coverage" {
    // Each database's own thresholds of 1 in 1,000 per comparison: windows of one finger against
    // the enrolled windows (1–5) of the others, and against their whole images.
    for database in databases {
        var windows: [[Probe?]] = [], wholes: [[Probe?]] = [], refusals: [String: String] = [:]
        for finger in 101...110 {
            var windowRow: [Probe?] = [], wholeRow: [Probe?] = []
            for impression in 1...8 {
                let path = "\(root)/\(database)/\(finger)_\(impression).png"
                guard let image = try? PNGFile.read(path) else { fail("cannot read \(path)") }
                do { windowRow.append(try matcher.probe(image.centreCropped(width: 192, height: 192))) } catch {
                    windowRow.append(nil)
                    refusals["\(finger)_\(impression)"] = "\(error)"
                }
                wholeRow.append(impression <= 5 ? try? matcher.probe(image) : nil)
            }
            windows.append(windowRow)
            wholes.append(wholeRow)
        }
        func best(_ probe: Probe, _ enrolled: [Probe?]) -> Int { enrolled[0..<5].compactMap { $0.map { matcher.score(probe, $0) } }.max() ?? 0 }
        func thousandth(_ scores: [Int]) -> Int { scores.sorted(by: >)[scores.count / 1000] }
        var windowImpostors: [Int] = [], wholeImpostors: [Int] = []
        for a in 0..<10 {
            for b in 0..<10 where b != a {
                for case let probe? in windows[a] {
                    for j in 0..<5 {
                        if let other = windows[b][j] { windowImpostors.append(matcher.score(probe, other)) }
                        if let other = wholes[b][j] { wholeImpostors.append(matcher.score(probe, other)) }
                    }
                }
            }
        }
        let windowThreshold = thousandth(windowImpostors), wholeThreshold = thousandth(wholeImpostors)
        var lines: [String] = [], outside = 0, nowhere = 0, refused = 0
        for a in 0..<10 {
            for k in 5..<8 {
                let name = "\(101 + a)_\(k + 1)"
                guard let probe = windows[a][k] else {
                    refused += 1
                    lines.append("  \(name): refused (\(refusals[name] ?? "?"))")
                    continue
                }
                let window = best(probe, windows[a]), whole = best(probe, wholes[a])
                guard window <= windowThreshold else { continue }
                if whole > wholeThreshold { outside += 1 } else { nowhere += 1 }
                lines.append("  \(name): best enrolled window \(window), best enrolled whole image \(whole) ("
                             + (whole > wholeThreshold ? "outside every enrolled window" : "found nowhere") + ")")
            }
        }
        print("\(database): 1 in 1,000 per comparison is above \(windowThreshold) against a window, \(wholeThreshold) against a whole image; "
              + "of 30 later touches, \(outside + nowhere + refused) missed by best of five: \(outside) outside every enrolled window, "
              + "\(nowhere) found nowhere, \(refused) refused")
        if !lines.isEmpty { print(lines.joined(separator: "\n")) }
    }
    exit(0)
}

if mode == "dump" {
    // Crops: every usable crop of every database against every other, both ways and itself.
    var named: [(name: String, probe: Probe)] = []
    for database in databases {
        for (f, row) in crops(database).enumerated() {
            for (i, image) in row.enumerated() {
                if let probe = try? matcher.probe(image) { named.append(("\(database)/\(101 + f)_\(i + 1)", probe)) }
            }
        }
    }
    var lines = 0, total = 0
    func emit(_ kind: String, _ set: [(name: String, probe: Probe)]) {
        for a in set {
            var line = ""
            for b in set {
                let score = matcher.score(a.probe, b.probe)
                line += "\(kind) \(a.name) \(b.name) \(score)\n"
                lines += 1
                total &+= score
            }
            print(line, terminator: "")
        }
    }
    emit("crop", named)
    // Whole images, within each database (more minutiae: the long loops of a comparison).
    for database in databases {
        var whole: [(name: String, probe: Probe)] = []
        for finger in 101...110 {
            for impression in 1...8 {
                let path = "\(root)/\(database)/\(finger)_\(impression).png"
                guard let image = try? PNGFile.read(path) else { fail("cannot read \(path)") }
                if let probe = try? matcher.probe(image) { whole.append(("\(database)/\(finger)_\(impression)", probe)) }
            }
        }
        emit("full", whole)
    }
    print("pairs \(lines) sum \(total)")
    exit(0)
}

if mode == "shortlist" {
    var searches: [(finger: Int, probe: Probe)] = [], templates: [[ExtractedPrint]] = []
    for (d, database) in databases.enumerated() {
        for (f, row) in probes(crops(database)).enumerated() {
            for case let probe? in row[5...] { searches.append((d * 10 + f, probe)) }
            templates.append(row[0..<5].compactMap { $0?.print })
        }
    }
    let gallery = MinutiaeGallery(prints: templates)
    let ranks = searches.map { finger, probe in
        let cheap = matcher.shortlistScores(probe: probe, gallery: gallery)
        return (finger, matcher.evidence(probe: probe, gallery: gallery)[finger],
                cheap.indices.count { $0 != finger && cheap[$0] >= cheap[finger] })
    }
    print("\(searches.count) probes (impressions 6–8), \(gallery.count) templates of impressions 1–5; "
          + "a gallery of \(gallery.impressionCount) impressions, \(gallery.byteCount / gallery.impressionCount) bytes each")
    for size in [10, 100, 300, 1000, 10_000] {
        let criteria = matcher.criteria(impressions: size * 8, pairs: size * 28)
        let admitted = ranks.filter { criteria.admits($0.1) }.map(\.2).sorted()
        let share = { (rank: Int) in fixed(100 * Double(rank) / Double(gallery.count - 1), 1) + " %" }
        print("thresholds of 1:\(size) (\(criteria.single)/\(criteria.pair)): \(admitted.count) genuine templates admitted; "
              + "strangers' templates ranked at or above them: median \(share(admitted[admitted.count / 2])), "
              + "90 % \(share(admitted[admitted.count * 9 / 10])), highest \(share(admitted.last!)); "
              + "the worst: \(admitted.suffix(5).map(String.init).joined(separator: " ")) of \(gallery.count - 1)")
    }
    exit(0)
}

// speed
let clock = ContinuousClock()
var all: [Probe] = []
var extraction = Duration.zero, extracted = 0
for database in databases {
    for row in crops(database) {
        for image in row {
            let started = clock.now
            let probe = try? matcher.probe(image)
            extraction += clock.now - started
            extracted += 1
            if let probe { all.append(probe) }
        }
    }
}
print("extraction: \(fixed(seconds(extraction) * 1000 / Double(extracted), 1)) ms per 192×192 crop (\(extracted) crops, \(all.count) usable)")
print("minutiae per usable crop: \(fixed(Double(all.reduce(0) { $0 + $1.print.minutiae.count }) / Double(max(1, all.count)), 1))")

// One core: every probe against a fixed set of others, all in this thread.
func oneCoreRound(_ all: [Probe]) -> (rate: Double, comparisons: Int, checksum: Int) {
    var comparisons = 0, sink = 0
    let started = clock.now
    for (index, probe) in all.enumerated() {
        for other in all[(index + 1)...].prefix(100) {
            sink &+= matcher.score(probe, other)
            comparisons += 1
        }
    }
    return (Double(comparisons) / seconds(clock.now - started), comparisons, sink)
}
if mode == "compare" {
    // Only the one-core loop, `rounds` times (for A/B runs and profilers): each round's rate, then the median.
    let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
    var rates: [Double] = []
    for _ in 0..<max(1, rounds) {
        let round = oneCoreRound(all)
        rates.append(round.rate)
        print("comparisons on one core: \(Int(round.rate)) /s (\(round.comparisons) comparisons; checksum \(round.checksum))")
    }
    print("median: \(Int(rates.sorted()[rates.count / 2])) /s")
    exit(0)
}
let oneCore = oneCoreRound(all)
print("comparisons on one core: \(Int(oneCore.rate)) /s (\(oneCore.comparisons) comparisons; checksum \(oneCore.checksum))")

// A search's comparisons on one core: a gallery small enough (15 templates, 120 impressions)
// that identify compares in this thread, every usable crop identified against it. identify
// stops a comparison early where it cannot reach the threshold, so this is faster than above.
do {
    let templates = (0..<15).map { index in (0..<8).map { all[(index * 8 + $0 + 7) % all.count].print } }
    let gallery = MinutiaeGallery(prints: templates)
    var found = 0
    let begun = clock.now
    for probe in all where matcher.identify(probe: probe, gallery: gallery) != nil { found += 1 }
    let rate = Double(all.count * gallery.impressionCount) / seconds(clock.now - begun)
    print("identify's comparisons on one core: \(Int(rate)) /s (\(all.count) searches of \(gallery.impressionCount) impressions; \(found) matched)")
}

/// CPU time of this process (every thread), for searches on a machine others share too.
func processTime() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

// 1:N: templates of 8 impressions drawn from the crops (repeated to size: a search compares
// against every impression whatever it holds), read and searched once ("prepared": cylinders,
// and the triangle index the first search builds), the median of 40 searches: wall time on every
// core, and the CPU time they took (what a busy machine does not inflate as much). 20 templates is
// a door's library: compared whole, so no triangle index is built.
for size in [20, 100, 1000, 10_000] {
    let templates = (0..<size).map { index in (0..<8).map { all[(index * 8 + $0) % all.count].print } }
    let preparing = clock.now
    let gallery = MinutiaeGallery(prints: templates)
    // The first search builds the triangle index (`LazyTripletIndex`): part of reading the library.
    _ = matcher.identify(probe: all[all.count - 1], gallery: gallery)
    let prepared = seconds(clock.now - preparing)
    // An enrollment into this library: the gallery with one more template (in the triangle
    // index's recent list, which the searches below then read too).
    let enrolling = clock.now
    guard let grown = try? gallery.appending(matcher.template(of: Array(all.prefix(8)))) else { fail("cannot append a template") }
    let appended = seconds(clock.now - enrolling)
    var times: [Double] = [], cpu: [Double] = []
    for probe in all.prefix(40) {
        let begun = clock.now, cpuBegun = processTime()
        _ = matcher.identify(probe: probe, gallery: grown)
        times.append(seconds(clock.now - begun) * 1000)
        cpu.append((processTime() - cpuBegun) * 1000)
    }
    times.sort()
    cpu.sort()
    print("identify 1:\(size + 1) (\(grown.impressionCount) impressions, \(System.coreCount) cores): median \(fixed(times[times.count / 2], 1)) ms, "
          + "CPU \(fixed(cpu[cpu.count / 2], 1)) ms, thresholds \(matcher.criteria(for: grown).single)/\(matcher.criteria(for: grown).pair); "
          + "\(gallery.byteCount / gallery.impressionCount) bytes per impression, prepared in \(fixed(prepared, 2)) s, one more template added in \(fixed(appended * 1000, 0)) ms"
          + (gallery.hasTripletIndex ? "" : " (compared whole: no triangle index)"))
}

enum System {
    static var coreCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
