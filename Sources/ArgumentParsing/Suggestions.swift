// "Did you mean …?" for typos in option and command names.

enum Suggestions {
    /// The candidate closest to `typed`, if it is close enough to be a plausible typo: an edit
    /// distance of at most a third of the word (at least 1, at most 3), or a unique candidate that
    /// `typed` is a prefix of (`--fin` → `--finger`).
    static func closest(to typed: String, among candidates: [String]) -> String? {
        guard !typed.isEmpty else { return nil }
        let limit = max(1, min(3, typed.count / 3))
        let scored = candidates.map { (candidate: $0, distance: editDistance(typed, $0)) }
        if let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= limit {
            return best.candidate
        }
        let extensions = candidates.filter { $0.hasPrefix(typed) }
        return extensions.count == 1 ? extensions[0] : nil
    }

    /// Levenshtein distance (insert, delete, substitute, each cost 1).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
