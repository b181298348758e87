import Foundation
import HostMatching
import Imaging
import JSONValue
import MatcherAccuracy

/// `--door`: what a door sees. Each finger of the database is enrolled from its first five
/// impressions through the enrollment a sensor uses (quality checks, linked touches), then its
/// later impressions identify 1:N against all of them, and every impression of the other
/// databases' fingers comes as a stranger. Decided by the product's own search
/// (`MinutiaeMatcher.identify`) under two sets of criteria: the product's (the configured
/// false-match rate, 1 in 10,000 per attempt, for this gallery), and 1 in 1,000 per comparison
/// from this database's own impostors (half of it for the best impression alone, half for two
/// impressions both, as the product splits its rate). NBIS, beside it, is scored from its pair
/// scores (best of the five enrolled impressions), without strangers.
public enum DoorRun {
    public struct Result {
        public var text: String
        public var json: JSONValue
        /// At the product's thresholds: later touches missed (of `genuineTouches`), strangers let in.
        public var missedAtProduct = 0
        public var genuineTouches = 0
        /// Per enrolled finger: later touches missed at the product's thresholds, of how many.
        public var missedPerFinger: [(count: Int, of: Int)] = []
        public var strangersAtProduct = 0
    }

    public static let enrolled = 0..<5

    public static func run(folder: FVCFolder, window: Window, matcher: MinutiaeMatcher, ours: PairScores, theirs: PairScores?,
                    strangers: [FVCFolder]) throws -> Result {
        let impressions = folder.impressions.count
        var templates: [HostTemplate] = [], owners: [Int] = [], notEnrolled = 0
        var probes: [[Probe?]] = []
        for finger in folder.fingers {
            var row: [Probe?] = []
            for impression in folder.impressions {
                let image = window.apply(try PNGFile.read(folder.file(finger: finger, impression: impression)))
                row.append(try? matcher.probe(image))
            }
            probes.append(row)
        }
        for (f, row) in probes.enumerated() {
            var collector = EnrollmentCollector(wanted: enrolled.count, matcher: matcher)
            for probe in row[enrolled].compactMap({ $0 }) { _ = collector.add(probe) }
            guard case .template(let kept, _) = collector.finalOutcome else { notEnrolled += 1; continue }
            templates.append(matcher.template(of: kept.map { collector.touches[$0] }))
            owners.append(f)
        }
        let gallery = try MinutiaeGallery(templates)
        let perComparison = databaseCriteria(probes: probes, matcher: matcher, ours: ours)
        let product = matcher.criteria(for: gallery)
        // A later touch the extractor refused is a miss as FVC counts it, but not one the matcher
        // made: at a door the user is asked to place the finger again. Counted apart as well.
        var genuine = 0, missedAtPairs = 0, missedAtProduct = 0, wrong = 0, refused = 0
        var missedPerFinger: [(count: Int, of: Int)] = []
        for (f, row) in probes.enumerated() where owners.contains(f) {
            let before = missedAtProduct
            for k in enrolled.upperBound..<impressions {
                genuine += 1
                guard let probe = row[k] else { missedAtPairs += 1; missedAtProduct += 1; refused += 1; continue }
                let atPairs = matcher.identify(probe: probe, gallery: gallery, criteria: perComparison)
                if let atPairs, owners[atPairs.index] != f { wrong += 1 }
                if atPairs.map({ owners[$0.index] }) != f { missedAtPairs += 1 }
                if matcher.identify(probe: probe, gallery: gallery).map({ owners[$0.index] }) != f { missedAtProduct += 1 }
            }
            missedPerFinger.append((missedAtProduct - before, impressions - enrolled.upperBound))
        }
        var strangerTouches = 0, strangerMatchedAtPairs = 0, strangerMatchedAtProduct = 0
        for other in strangers {
            for finger in other.fingers {
                for impression in other.impressions {
                    let image = window.apply(try PNGFile.read(other.file(finger: finger, impression: impression)))
                    guard let probe = try? matcher.probe(image) else { continue }
                    strangerTouches += 1
                    if matcher.identify(probe: probe, gallery: gallery, criteria: perComparison) != nil { strangerMatchedAtPairs += 1 }
                    if matcher.identify(probe: probe, gallery: gallery) != nil { strangerMatchedAtProduct += 1 }
                }
            }
        }
        var text = "door (enroll impressions 1–5, identify 6–\(impressions) 1:N among \(templates.count); strangers: \(strangerTouches) touches of other databases' fingers)\n"
        text += "  fpmod: not enrolled \(notEnrolled)/\(folder.fingers.count); at 1 in 1,000 per comparison (scores \(perComparison.single) alone, \(perComparison.pair) two): missed \(missedAtPairs)/\(genuine), "
            + "taken for another \(wrong), strangers matched \(strangerMatchedAtPairs)/\(strangerTouches)\n"
        let missedInterval = FingerResampling.shareInterval([missedPerFinger])
        text += "         at the product's threshold (1 in 10,000 per attempt, scores \(product.single) alone, \(product.pair) two): missed \(missedAtProduct)/\(genuine)"
            + (missedInterval.map { " (95 % interval over fingers \(AccuracyReport.range($0)))" } ?? "")
            + ", strangers matched \(strangerMatchedAtProduct)/\(strangerTouches)\n"
        text += "         (both miss counts include \(refused) later touch\(refused == 1 ? "" : "es") the extractor refused as unusable; a door asks for such a touch again)\n"
        var json: [String: JSONValue] = [
            "notEnrolled": .int(Int64(notEnrolled)), "genuineTouches": .int(Int64(genuine)),
            "missedAtFMR1000": .int(Int64(missedAtPairs)), "missedAtProductThreshold": .int(Int64(missedAtProduct)),
            "takenForAnother": .int(Int64(wrong)), "refusedAsUnusable": .int(Int64(refused)), "strangerTouches": .int(Int64(strangerTouches)),
            "strangersMatchedAtFMR1000": .int(Int64(strangerMatchedAtPairs)), "strangersMatchedAtProductThreshold": .int(Int64(strangerMatchedAtProduct)),
        ]
        if let missedInterval { json["missedAtProductThresholdInterval"] = AccuracyReport.json(missedInterval) }
        if let theirs {
            let threshold = ErrorRates.threshold(impostor: theirs.allImpostor, atMostFMR: 0.001)
            func score(_ a: Int, _ b: Int) -> Double { theirs.matrix[min(a, b)][max(a, b)] ?? -1 }
            var missed = 0, missed40 = 0, count = 0
            for f in 0..<folder.fingers.count {
                for k in enrolled.upperBound..<impressions {
                    count += 1
                    let probe = PairScores.index(finger: f, impression: k, impressions: impressions)
                    let perFinger = (0..<folder.fingers.count).map { t in
                        enrolled.map { score(probe, PairScores.index(finger: t, impression: $0, impressions: impressions)) }.max() ?? -1
                    }
                    let best = perFinger.indices.max { perFinger[$0] < perFinger[$1] }!
                    if perFinger[best] < threshold || best != f { missed += 1 }
                    if perFinger[best] < 40 || best != f { missed40 += 1 }
                }
            }
            text += "  NBIS: best of five, at 1 in 1,000 per comparison (score \(Int(threshold))): missed \(missed)/\(count); at libfprint's 40: missed \(missed40)/\(count)\n"
            json["nbisMissedAtFMR1000"] = .int(Int64(missed))
            json["nbisMissedAt40"] = .int(Int64(missed40))
        }
        return Result(text: text, json: .object(json), missedAtProduct: missedAtProduct, genuineTouches: genuine,
                      missedPerFinger: missedPerFinger, strangersAtProduct: strangerMatchedAtProduct)
    }

    /// 1 in 1,000 per comparison measured on this database alone: its all-pairs impostor scores
    /// for the best impression, and for two impressions every usable probe against every two
    /// impressions of another finger (the lower score), each criterion at half the rate.
    static func databaseCriteria(probes: [[Probe?]], matcher: MinutiaeMatcher, ours: PairScores) -> MatchCriteria {
        // A refused image's pairs stay in the count as the lowest score, as FVC counts them.
        let singles = ours.allImpostor.map { Int(max(-1, $0)) }
        var pairs: [Int] = []
        for (a, row) in probes.enumerated() {
            for (b, other) in probes.enumerated() where b != a {
                let impressions = other.compactMap { $0 }
                for case let probe? in row {
                    let scores = impressions.map { matcher.score(probe, $0) }
                    for i in scores.indices { for j in (i + 1)..<scores.count { pairs.append(min(scores[i], scores[j])) } }
                }
            }
        }
        return MatchCriteria(singleCalibration: .fitted(impostorScores: singles), singleRate: 0.0005,
                             pairCalibration: .fitted(impostorScores: pairs), pairRate: 0.0005)
    }
}
