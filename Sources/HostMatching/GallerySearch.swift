/// The 1:N decision over scores, apart from how they are computed.
///
/// Best over the whole gallery, not the first above threshold: the first depends on gallery
/// order, and with hundreds of templates the chance that some impostor passes before the true
/// finger grows with the gallery. A tie at the top between two templates is refused (no
/// match): the matcher cannot tell which finger it saw, and a door that guesses between two
/// people is not fail-closed. (Two templates of one user tying is possible, e.g. the same finger
/// enrolled twice; the user then gets "no match" until one is removed — safe, and rare.)
enum GallerySearch {
    static func decide(scores: [Int], threshold: Int) -> HostMatch? {
        var best = -1, bestScore = Int.min, tied = false
        for (index, score) in scores.enumerated() {
            if score > bestScore { best = index; bestScore = score; tied = false } else if score == bestScore { tied = true }
        }
        guard best >= 0, bestScore >= threshold, !tied else { return nil }
        return HostMatch(index: best, score: bestScore)
    }
}
