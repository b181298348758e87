import HostMatching
import Imaging

/// The Swift matcher (MinutiaeMatcher) on the same templates and probes as libfprint's run:
/// scores of every probe-template pair, error rates over a range of thresholds, and the speed
/// of a 1:N search with the gallery prepared once.
func benchSwiftMatcher(templates: [HostTemplate], probes: [[GreyImage]], clock: ContinuousClock) throws(HostMatchingError) {
    let matcher = MinutiaeMatcher()
    let gallery = try MinutiaeGallery(templates)
    var genuine: [Int] = [], impostor: [Int] = []
    var unusable = 0, extractTime = Duration.zero, extractions = 0
    var compareTime = Duration.zero
    var probeTables: [PairTable] = []
    for (finger, fingerProbes) in probes.enumerated() {
        for image in fingerProbes {
            let start = clock.now
            guard let probe = try usableProbe(image, matcher) else {
                unusable += 1
                genuine.append(-1)  // a genuine pair that cannot match
                continue
            }
            extractTime += clock.now - start
            extractions += 1
            probeTables.append(probe)
            let compareStart = clock.now
            let scores = matcher.scores(probe: probe, gallery: gallery)
            compareTime += clock.now - compareStart
            for (templateFinger, score) in scores.enumerated() {
                if templateFinger == finger { genuine.append(score) } else { impostor.append(score) }
            }
        }
    }
    let impostorPairs = genuine.count * (templates.count - 1)
    print("")
    print("Swift matcher (MinutiaeMatcher: NBIS minutiae from libfprint, pair tables matched in Swift), threshold \(matcher.threshold)")
    print("")
    print("| measure | value |")
    print("|---|---|")
    print("| genuine pairs / impostor pairs | \(genuine.count) / \(impostorPairs) |")
    print("| probes rejected as unusable | \(unusable) |")
    let sortedGenuine = genuine.filter { $0 >= 0 }.sorted(), sortedImpostor = impostor.sorted()
    let median = sortedGenuine.isEmpty ? 0 : sortedGenuine[sortedGenuine.count / 2]
    print("| genuine scores min / median / max | \(sortedGenuine.first ?? 0) / \(median) / \(sortedGenuine.last ?? 0) |")
    let impostorMedian = sortedImpostor.isEmpty ? 0 : sortedImpostor[sortedImpostor.count / 2]
    print("| impostor scores median / max | \(impostorMedian) / \(sortedImpostor.last ?? 0) |")
    print("| probe minutiae extraction (libfprint, per image) | \(fixed(1000 * seconds(extractTime) / Double(max(extractions, 1)), 1)) ms |")
    print("| one probe vs all \(templates.count) templates | \(fixed(1e6 * seconds(compareTime) / Double(max(extractions, 1)))) µs |")
    print("")
    print("| threshold | false non-match rate | false match rate |")
    print("|---|---|---|")
    for threshold in [20, 25, 30, 35, 40, 45, 50, 60] {
        let missed = genuine.filter { $0 < threshold }.count
        let accepted = impostor.filter { $0 >= threshold }.count
        print("| \(threshold)\(threshold == matcher.threshold ? " (default)" : "") | \(percent(missed, of: genuine.count)) | \(percent(accepted, of: impostorPairs)) |")
    }

    // 1:N: the first probe of finger 0 against galleries of the other fingers' templates,
    // repeated to size (every template scored: the Swift search always scans the whole gallery).
    let sizes = probeTables.map(\.minutiaCount).sorted()
    print("")
    print("Probe minutiae min / median / max: \(sizes.first ?? 0) / \(sizes.isEmpty ? 0 : sizes[sizes.count / 2]) / \(sizes.last ?? 0)")
    guard !CommandLine.arguments.contains("--accuracy-only"), let firstProbe = probes.first?.first else { return }
    let others = Array(templates.dropFirst())
    print("")
    print("| 1:N search, templates | gallery preparation (once) | time per search (extract + compare) | compare only | templates compared per second |")
    print("|---|---|---|---|---|")
    for size in [10, 100, 1000] {
        let templates = (0..<size).map { others[$0 % others.count] }
        let prepareStart = clock.now
        let gallery = try MinutiaeGallery(templates)
        let prepareTime = clock.now - prepareStart
        let runs = 5
        var total = Duration.zero, compare = Duration.zero
        for _ in 0..<runs {
            let start = clock.now
            let probe = try matcher.probe(firstProbe)
            let compareStart = clock.now
            let found = matcher.identify(probe: probe, gallery: gallery)
            let end = clock.now
            total += end - start
            compare += end - compareStart
            if found != nil { fail("an impostor gallery matched; the speed numbers would be wrong") }
        }
        let perCompare = seconds(compare) / Double(runs)
        print("| \(size) | \(fixed(1000 * seconds(prepareTime), 1)) ms | \(fixed(1000 * seconds(total) / Double(runs), 1)) ms | \(fixed(1000 * perCompare, 2)) ms | \(fixed(Double(size) / perCompare)) |")
    }
}

/// The probe's table, or nil when its image is unusable (too few minutiae, no finger).
private func usableProbe(_ image: GreyImage, _ matcher: MinutiaeMatcher) throws(HostMatchingError) -> PairTable? {
    do throws(HostMatchingError) { return try matcher.probe(image) } catch {
        if case .unusableImage = error { return nil }
        throw error
    }
}
