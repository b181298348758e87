import MinutiaeExtraction

/// The touches of one enrollment on a small sensor, and which of them show one finger.
///
/// A 192 × 192 window sees part of a fingertip, and two touches of the same finger may not
/// overlap at all, so a touch that matches none of the others is no proof of another finger.
/// Touches "link" when they match each other at 1 in 100 per comparison (measured on real
/// impressions: two touches of one finger on a small window often share too little for a
/// stricter rate). The template keeps every touch, those that linked to none too: they are the
/// parts of the finger the others did not show, which a later touch may land on alone (on
/// FVC2002's sensor windows, keeping them recognised 5 more of 117 later touches at a door than
/// leaving them out; docs/accuracy.md). The price: a touch of another finger given during an
/// enrollment is kept as well, so the enrollment names the touches that linked to none
/// (`unlinked`) and the audit records them. "Different fingers" is refused on strong evidence:
/// a second group of at least three linked touches that never links to the first. While too few
/// touches link, more are asked for (`outcome`); when no more will come, the touches are
/// enough as they are (`finalOutcome`).
public struct EnrollmentCollector: Sendable {
    /// The comparison rate at which two touches count as one finger.
    public static let linkFalseMatchRate = 1e-2
    /// A second group this large is another finger, not a part of the same one that did not overlap.
    public static let strongSecondGroup = 3
    /// Two touches are the same image twice (a finger left still, or a replay) when this share
    /// of their minutiae lie within `identicalDistance` pixels of each other where they are:
    /// real touches of a finger differ in placement and pressure by more.
    public static let identicalShare: Float = 0.9
    public static let identicalDistance: Float = 2

    public let wanted: Int
    let linkScore: Int
    let matcher: MinutiaeMatcher
    public private(set) var touches: [Probe] = []
    /// links[i] holds every j < i that touch i linked to.
    private var links: [[Int]] = []

    public init(wanted: Int, matcher: MinutiaeMatcher) {
        self.wanted = wanted
        self.matcher = matcher
        self.linkScore = matcher.calibration.threshold(perComparison: Self.linkFalseMatchRate)
    }

    public enum Verdict: Sendable, Equatable {
        /// Kept; `linked`: it matched an earlier touch.
        case kept(linked: Bool)
        /// Refused: the same image as touch `of` (numbered from 1): move the finger between touches.
        case sameAsEarlier(of: Int)
    }

    /// Adds a touch (already checked for quality by `MinutiaeMatcher.probe`).
    public mutating func add(_ probe: Probe) -> Verdict {
        var linked: [Int] = []
        for (index, earlier) in touches.enumerated() {
            if Self.nearlyIdentical(probe.print, earlier.print) { return .sameAsEarlier(of: index + 1) }
            if matcher.score(probe, earlier) >= linkScore { linked.append(index) }
        }
        touches.append(probe)
        links.append(linked)
        return .kept(linked: !linked.isEmpty)
    }

    /// Whether the two prints' minutiae lie where each other's do, without any alignment.
    static func nearlyIdentical(_ a: ExtractedPrint, _ b: ExtractedPrint) -> Bool {
        guard !a.minutiae.isEmpty, !b.minutiae.isEmpty else { return false }
        func shared(_ from: ExtractedPrint, _ to: ExtractedPrint) -> Float {
            let near = from.minutiae.count { m in
                to.minutiae.contains { n in
                    let dx = m.x - n.x, dy = m.y - n.y
                    return dx * dx + dy * dy <= identicalDistance * identicalDistance
                }
            }
            return Float(near) / Float(from.minutiae.count)
        }
        return shared(a, b) >= identicalShare && shared(b, a) >= identicalShare
    }

    /// Groups of linked touches (indices from 0), largest first, ties by the earliest touch.
    public var groups: [[Int]] {
        var parent = Array(touches.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index { index = parent[index] }
            return index
        }
        for (index, earlier) in links.enumerated() {
            for other in earlier { parent[root(index)] = root(other) }
        }
        var byRoot: [Int: [Int]] = [:]
        for index in touches.indices { byRoot[root(index), default: []].append(index) }
        return byRoot.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0[0] < $1[0] }
    }

    /// What the touches so far give.
    public enum Outcome: Sendable, Equatable {
        /// Keep `kept` (indices from 0: every touch); `unlinked` of them matched no other touch.
        case template(kept: [Int], unlinked: [Int])
        /// Two groups of linked touches that never matched each other (touch numbers from 1).
        case differentFingers(first: [Int], second: [Int])
        /// The largest group is smaller than `needed`: more touches could still join it.
        case tooFewLinked(largest: Int, needed: Int)
    }

    /// The decision once `wanted` touches are in, while more may be asked for: a template when a
    /// third of them (at least 2) link in one group — then every touch is kept, linked or not —
    /// and more touches while fewer do (they may link the others); refused only on a strong
    /// second group.
    public var outcome: Outcome {
        let groups = self.groups
        guard let largest = groups.first else { return .tooFewLinked(largest: 0, needed: neededLinked) }
        if groups.count > 1, groups[1].count >= Self.strongSecondGroup {
            return .differentFingers(first: largest.map { $0 + 1 }, second: groups[1].map { $0 + 1 })
        }
        if largest.count >= neededLinked { return .template(kept: Array(touches.indices), unlinked: unlinked) }
        return .tooFewLinked(largest: largest.count, needed: neededLinked)
    }

    /// The decision when no more touches will come: as `outcome`, but with at least `wanted`
    /// usable touches and no strong evidence of a second finger, too few links are no reason to
    /// refuse — touches that never overlap are what a small window gives a finger moved about
    /// on it (FVC2002 DB4_B finger 110: five usable touches that pair at 6 to 41, under the link
    /// score), and each of them is an impression a later touch is compared with at the
    /// calibrated rate like any other.
    public var finalOutcome: Outcome {
        guard case .tooFewLinked = outcome, touches.count >= wanted else { return outcome }
        return .template(kept: Array(touches.indices), unlinked: unlinked)
    }

    /// The touches that linked to no other (indices from 0).
    public var unlinked: [Int] {
        touches.indices.filter { index in links[index].isEmpty && !links.contains { $0.contains(index) } }
    }

    var neededLinked: Int { max(2, (wanted + 2) / 3) }
}
