// Accuracy and speed of the host matcher (NBISMatcher) on impressions made from fingerprint
// images: tools/bench-host-match.sh runs it. Usage: HostMatchBench [IMAGE-DIR] [PROBES-PER-FINGER]
// [--matcher swift|libfprint|both] (default both: libfprint's bozorth3, then MinutiaeMatcher)
import Glibc
import HostMatching
import Imaging

let arguments = CommandLine.arguments
let directory = arguments.count > 1 ? arguments[1] : NISTPrints.standardDirectory
let probesPerFinger = arguments.count > 2 ? Int(arguments[2]) ?? 8 : 8

func fail(_ message: String) -> Never {
    let line = Array("HostMatchBench: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

/// `value` with `digits` decimals (no Foundation here).
func fixed(_ value: Double, _ digits: Int = 0) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    guard digits > 0 else { return String(scaled) }
    let whole = scaled / Int(scale), fraction = abs(scaled % Int(scale))
    let padded = String(repeating: "0", count: digits - String(fraction).count) + String(fraction)
    return "\(scaled < 0 && whole == 0 ? "-" : "")\(whole).\(padded)"
}

func percent(_ count: Int, of total: Int) -> String {
    "\(count)/\(total) = \(fixed(100 * Double(count) / Double(max(total, 1)), 1))%"
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let masters: [(name: String, image: GreyImage)]
if directory == "--synthetic" {
    masters = (1...8).map { ("synthetic-\($0)", SyntheticFinger(seed: UInt64($0)).image()) }
    if CommandLine.arguments.contains("--dump") {
        for (index, master) in masters.enumerated() {
            try? PNGFile.write(master.image, to: "/tmp/hm-gen/\(master.name).png")
            try? PNGFile.write(ImpressionMaker().impression(of: master.image, index: 0, seed: UInt64(index)), to: "/tmp/hm-gen/\(master.name)-0.png")
        }
    }
} else {
    do { masters = try NISTPrints.load(from: directory) } catch { fail("\(error)") }
}
guard masters.count >= 2 else { fail("need at least two fingers in \(directory)") }

let matcher = NBISMatcher()
/// The value after `--name` on the command line, if any.
func option(_ name: String) -> Double? {
    guard let at = arguments.firstIndex(of: "--\(name)"), at + 1 < arguments.count else { return nil }
    return Double(arguments[at + 1])
}
var maker = ImpressionMaker()
if let noise = option("noise") { maker.noiseSigma = noise }
if let rotation = option("rotation") { maker.maximumRotation = rotation }
if let shift = option("shift") { maker.maximumShift = Int(shift) }
if let side = option("sensor") { maker.sensorWidth = Int(side); maker.sensorHeight = Int(side) }
let clock = ContinuousClock()
do {
    let stages = try matcher.enrollStages()
    var templates: [HostTemplate] = []
    var probes: [[GreyImage]] = []
    var enrollTime = Duration.zero
    for (finger, master) in masters.enumerated() {
        let all = maker.impressions(of: master.image, count: stages + 3 + probesPerFinger, seed: UInt64(finger + 1))
        // Enroll from the first images (spares in case one has too few minutiae), probe with the rest.
        let start = clock.now
        templates.append(try matcher.enroll(images: Array(all.prefix(stages + 3))))
        enrollTime += clock.now - start
        probes.append(Array(all.suffix(probesPerFinger)))
    }
    let which = arguments.firstIndex(of: "--matcher").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } ?? "both"
    guard ["swift", "libfprint", "both"].contains(which) else { fail("--matcher takes swift, libfprint or both") }
    if which == "swift" {
        print("Images: \(masters.map(\.name).joined(separator: ", ")) from \(directory)")
        print("Impressions: ±\(Int(maker.maximumRotation))° turn, ±\(maker.maximumShift) px shift, \(maker.sensorWidth)×\(maker.sensorHeight) crop, noise σ \(Int(maker.noiseSigma)); \(stages) enrolled (of \(stages + 3) offered) and \(probesPerFinger) probes per finger")
        try benchSwiftMatcher(templates: templates, probes: probes, clock: clock)
        exit(0)
    }

    // Each pair's outcome at libfprint's 40: matched, and the score it stopped on (or its best).
    var genuinePairs40: [(matched: Bool, score: Int)] = [], impostorPairs40: [(matched: Bool, score: Int)] = []
    var genuine: [Int] = [], impostor: [Int] = []
    var falseNonMatches = 0, falseMatches = 0, unusable = 0
    var verifyTime = Duration.zero, verifies = 0
    for (probeFinger, fingerProbes) in probes.enumerated() {
        for probe in fingerProbes {
            for (templateFinger, template) in templates.enumerated() {
                let start = clock.now
                let result: (matched: Bool, score: Int?)
                do { result = try matcher.verify(image: probe, template: template) } catch HostMatchingError.unusableImage {
                    unusable += 1
                    if probeFinger == templateFinger { falseNonMatches += 1 }
                    continue
                }
                verifyTime += clock.now - start
                verifies += 1
                if probeFinger == templateFinger {
                    genuinePairs40.append((result.matched, result.score ?? 0))
                    genuine.append(result.score ?? 0)
                    if !result.matched { falseNonMatches += 1 }
                } else {
                    impostorPairs40.append((result.matched, result.score ?? 0))
                    impostor.append(result.score ?? 0)
                    if result.matched { falseMatches += 1 }
                }
            }
        }
    }
    let genuinePairs = probes.reduce(0) { $0 + $1.count }
    let impostorPairs = genuinePairs * (templates.count - 1)
    print("Host matcher: libfprint NBIS (mindtct + bozorth3) via virtual_image, threshold \(matcher.threshold)")
    print("Images: \(masters.map(\.name).joined(separator: ", ")) from \(directory)")
    let turn = Int(maker.maximumRotation), noise = Int(maker.noiseSigma)
    let size = "\(maker.sensorWidth)×\(maker.sensorHeight)"
    print("Impressions: ±\(turn)° turn, ±\(maker.maximumShift) px shift, \(size) crop, noise σ \(noise); \(stages) enrolled (of \(stages + 3) offered) and \(probesPerFinger) probes per finger")
    print("")
    print("| measure | value |")
    print("|---|---|")
    print("| genuine pairs (probe vs own template) | \(genuinePairs) |")
    print("| impostor pairs (probe vs other fingers) | \(impostorPairs) |")
    print("| false non-match rate | \(percent(falseNonMatches, of: genuinePairs)) |")
    print("| false match rate | \(percent(falseMatches, of: impostorPairs)) |")
    print("| probes rejected as unusable | \(unusable / templates.count) |")
    let sortedGenuine = genuine.sorted()
    let median = sortedGenuine.isEmpty ? 0 : sortedGenuine[sortedGenuine.count / 2]
    print("| genuine scores min / median / max | \(sortedGenuine.first ?? 0) / \(median) / \(sortedGenuine.last ?? 0) |")
    print("| impostor scores max (best seen per pair) | \(impostor.max() ?? 0) |")
    let sizes = templates.map(\.bytes.count)
    print("| template size | \(sizes.min() ?? 0)–\(sizes.max() ?? 0) bytes |")
    print("| enroll time per finger | \(fixed(1000 * seconds(enrollTime) / Double(templates.count))) ms |")
    print("| verify time (extract + 1 compare) | \(fixed(1000 * seconds(verifyTime) / Double(max(verifies, 1)))) ms |")

    // A stricter threshold (NBISMatcher(threshold:)) accepts a pair when libfprint matched and
    // the score it stopped on reaches it: exact for that rule, from the same comparisons.
    print("")
    print("| threshold | false non-match rate | false match rate |")
    print("|---|---|---|")
    for threshold in [40, 45, 50, 60] {
        let accepted = { (pair: (matched: Bool, score: Int)) in pair.matched && pair.score >= threshold }
        let missed = genuinePairs40.filter { !accepted($0) }.count + (genuinePairs - genuinePairs40.count)
        let falselyAccepted = impostorPairs40.filter(accepted).count
        print("| \(threshold) | \(percent(missed, of: genuinePairs)) | \(percent(falselyAccepted, of: impostorPairs)) |")
    }

    if CommandLine.arguments.contains("--accuracy-only") {
        if which == "both" { try benchSwiftMatcher(templates: templates, probes: probes, clock: clock) }
        exit(0)
    }

    // 1:N: a probe of finger 0 against galleries of other fingers' templates (repeated to size),
    // so every search scans the whole gallery, the slowest case.
    let others = Array(templates.dropFirst())
    let probe = probes[0][0]
    var perSearch: [(Int, Double)] = []
    for size in [10, 100, 1000] {
        let gallery = (0..<size).map { others[$0 % others.count] }
        // One run for the large galleries: libfprint's overheating guard stops a device after
        // about 3 minutes of activity.
        let runs = size >= 100 ? 1 : 3
        var total = Duration.zero
        for _ in 0..<runs {
            let start = clock.now
            let found = try matcher.identify(image: probe, gallery: gallery)
            total += clock.now - start
            if found != nil { fail("an impostor gallery matched; the speed numbers would be wrong") }
        }
        perSearch.append((size, seconds(total) / Double(runs)))
        if CommandLine.arguments.contains("--progress") { print("searched \(size): \(fixed(1000 * seconds(total) / Double(runs), 1)) ms") }
    }
    print("")
    print("| 1:N search, templates | time per search | templates compared per second (beyond the 10-template search) |")
    print("|---|---|---|")
    let base = perSearch[0]
    for (size, time) in perSearch {
        let rate = size > base.0 ? fixed(Double(size - base.0) / (time - base.1)) : "–"
        print("| \(size) | \(fixed(1000 * time, 1)) ms | \(rate) |")
    }
    if which == "both" { try benchSwiftMatcher(templates: templates, probes: probes, clock: clock) }
} catch {
    fail("\(error)")
}
