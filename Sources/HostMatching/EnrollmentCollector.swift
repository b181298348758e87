import MinutiaeExtraction

/// The touches of one enrollment on a small sensor, and which of them show one finger.
///
/// A 192 × 192 window sees part of a fingertip, and two touches of the same finger may not
/// overlap at all, so a touch that matches none of the earlier ones is no proof of another
/// finger: it is kept, and the evidence is weighed at the end. Touches "link" when they match
/// each other at a strict rate (1 in 1,000 per comparison: two different fingers link by chance
/// once in a thousand pairs). The template is the largest group of linked touches; a touch left
/// outside it is named and left out (a stranger's touch never enters a template unless it
/// matched the others). "Different fingers" is refused only on strong evidence: no group holds
/// half the touches, and two groups of at least two linked touches never link to each other.
public struct EnrollmentCollector: Sendable {
    /// The comparison rate at which two touches count as one finger.
    public static let linkFalseMatchRate = 1e-3
    /// Above this score two touches are the same image twice (a finger left still, or a replay):
    /// real touches of a finger differ in placement and pressure.
    public static let identicalScore = 990

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
            let score = matcher.score(probe, earlier)
            if score >= Self.identicalScore { return .sameAsEarlier(of: index + 1) }
            if score >= linkScore { linked.append(index) }
        }
        touches.append(probe)
        links.append(linked)
        return .kept(linked: !linked.isEmpty)
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
        /// Keep `kept` (indices from 0); `leftOut` did not link to them.
        case template(kept: [Int], leftOut: [Int])
        /// Two groups of linked touches that never matched each other (touch numbers from 1).
        case differentFingers(first: [Int], second: [Int])
        /// The largest group is smaller than `needed`: more touches could still join it.
        case tooFewLinked(largest: Int, needed: Int)
    }

    /// The decision once `wanted` touches are in: a template needs half of them (at least 2)
    /// linked in one group. Other touches are left out, not refused: the template is safe
    /// without them, and a small window's touches of one finger need not all overlap.
    public var outcome: Outcome {
        let groups = self.groups
        guard let largest = groups.first else { return .tooFewLinked(largest: 0, needed: neededLinked) }
        if largest.count >= neededLinked {
            return .template(kept: largest, leftOut: touches.indices.filter { !largest.contains($0) })
        }
        if groups.count > 1, groups[1].count >= 2 {
            return .differentFingers(first: largest.map { $0 + 1 }, second: groups[1].map { $0 + 1 })
        }
        return .tooFewLinked(largest: largest.count, needed: neededLinked)
    }

    var neededLinked: Int { max(2, (wanted + 1) / 2) }
}
