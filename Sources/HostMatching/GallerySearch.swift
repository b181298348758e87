/// The 1:N decision over each template's evidence, apart from how it is computed.
///
/// Best over the whole gallery, not the first admitted: the first depends on gallery order, and
/// with hundreds of templates the chance that some impostor passes before the true finger grows
/// with the gallery. "Best" is the admitted template whose evidence a stranger reaches most
/// rarely (`MatchCriteria.rarity`). A tie at the top between two templates is refused (no
/// match): the matcher cannot tell which finger it saw, and a door that guesses between two
/// people is not fail-closed. (Two templates of one user tying is possible, e.g. the same finger
/// enrolled twice; the user then gets "no match" until one is removed — safe, and rare. A
/// search of one user's own templates, `refusingTies: false`, takes either.)
enum GallerySearch {
    static func decide(evidence: [TemplateEvidence], criteria: MatchCriteria, refusingTies: Bool = true) -> HostMatch? {
        var best = -1, bestRarity = Double.infinity, tied = false
        for (index, candidate) in evidence.enumerated() where criteria.admits(candidate) {
            let rarity = criteria.rarity(candidate)
            if best < 0 || rarity < bestRarity {
                (best, bestRarity, tied) = (index, rarity, false)
            } else if rarity == bestRarity {
                tied = true
            }
        }
        guard best >= 0, !(tied && refusingTies) else { return nil }
        return HostMatch(index: best, score: evidence[best].best)
    }
}
