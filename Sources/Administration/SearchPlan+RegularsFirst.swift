import FingerprintModule

extension SearchPlan {
    /// The range spanning the hot slots first, then the occupied slots above it, then those
    /// below it — each range trimmed to its first and last occupied slot, so no Search covers
    /// empty slots at its ends. No hot slots: one Search over the occupied range. A slot is in
    /// exactly one range, so a stranger is compared with every template once.
    public static func regularsFirst(hot: [Int], occupied: [Int]) -> SearchPlan {
        let slots = Set(occupied)
        let sorted = slots.sorted()
        let hot = hot.filter { slots.contains($0) }
        guard let low = hot.min(), let high = hot.max(), let first = sorted.first, let last = sorted.last else {
            return SearchPlan(ranges: sorted.isEmpty ? [] : [sorted.first!..<(sorted.last! + 1)])
        }
        func trimmed(_ range: Range<Int>) -> Range<Int>? {
            let inside = sorted.filter { range.contains($0) }
            guard let lower = inside.first, let upper = inside.last else { return nil }
            return lower..<(upper + 1)
        }
        return SearchPlan(ranges: [trimmed(low..<(high + 1)), trimmed((high + 1)..<(last + 1)), trimmed(first..<low)].compactMap { $0 })
    }

    /// The mean module search time of one identify under this plan, when touches answer as in
    /// `matchCounts` (matches per slot) and `strangers` match nobody: a touch pays every Search
    /// up to and including the range holding its slot; a stranger pays them all. Slots outside
    /// every range count as strangers (the plan would miss them).
    public func expectedMilliseconds(matchCounts: [Int: Int], strangers: Int = 0, occupied: [Int], cost: SearchCost) -> Double {
        let slots = Set(occupied)
        let ranges = searchedRanges
        var cumulative: [Double] = []
        var total = 0.0
        for range in ranges {
            total += cost.milliseconds(templates: slots.filter { range.contains($0) }.count)
            cumulative.append(total)
        }
        var sum = Double(max(0, strangers)) * total
        var touches = max(0, strangers)
        for (slot, count) in matchCounts where count > 0 {
            touches += count
            if let index = ranges.firstIndex(where: { $0.contains(slot) }) {
                sum += Double(count) * cumulative[index]
            } else {
                sum += Double(count) * total
            }
        }
        return touches > 0 ? sum / Double(touches) : total
    }
}
