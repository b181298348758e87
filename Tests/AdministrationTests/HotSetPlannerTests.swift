import Administration
import FingerprintModule
import Testing

/// The hot set's size comes from the cost model and the observed frequencies, not from a rule.
@Suite struct HotSetPlannerTests {
    let r307 = SearchCost(fixedMilliseconds: 10, perTemplateMilliseconds: 0.9)

    /// 80 % of touches from 20 of 1000 fingers, the rest spread evenly (4 touches each here).
    func regulars(templates: Int = 1000, regulars: Int = 20, perRegular: Int = 40, perOther: Int = 0) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for slot in 0..<templates { counts[slot] = slot % (templates / regulars) == 7 ? perRegular : perOther }
        return counts
    }

    @Test func regularsBecomeTheHotSetHottestFirst() throws {
        var counts = regulars()
        counts[507] = 60  // one regular more frequent than the others
        let occupied = Array(0..<1000)
        let hot = try #require(HotSetPlanner(cost: r307).plan(matchCounts: counts, occupied: occupied, strangers: 10))
        #expect(hot.slots.count == 20)
        #expect(hot.slots.first == 507)
        #expect(Set(hot.slots) == Set(counts.filter { $0.value > 0 }.keys))
        #expect(hot.wholeSearchMilliseconds == r307.milliseconds(templates: 1000))
        // The regulars answer all but the 10 strangers: S(20) + (10/830)·S(980).
        let share = 820.0 / 830.0
        #expect(abs(hot.hotShare - share) < 1e-9)
        #expect(abs(hot.expectedSearchMilliseconds - (r307.milliseconds(templates: 20) + (1 - share) * r307.milliseconds(templates: 980))) < 1e-9)
        #expect(hot.missPenaltyMilliseconds == 10)
        #expect(hot.historyTouches == 830)
    }

    @Test func aShortHistoryGivesNoPlan() {
        let planner = HotSetPlanner(cost: r307, minimumHistory: 50)
        #expect(planner.plan(matchCounts: [1: 30, 2: 19], occupied: [1, 2, 3]) == nil)
        #expect(planner.plan(matchCounts: [1: 30, 2: 19], occupied: [1, 2, 3], strangers: 1) != nil)
        // Counts of slots no longer occupied do not count.
        #expect(planner.plan(matchCounts: [1: 30, 9: 40], occupied: [1, 2, 3]) == nil)
    }

    /// A finger seen once or twice is chance, not a regular.
    @Test func rareFingersStayOutOfTheHotSet() throws {
        var counts = regulars(perRegular: 40)
        for slot in 100..<300 where counts[slot] == 0 { counts[slot] = 2 }
        let hot = try #require(HotSetPlanner(cost: r307, minimumMatches: 3).plan(matchCounts: counts, occupied: Array(0..<1000)))
        #expect(hot.slots.allSatisfy { counts[$0] == 40 })
        let loose = try #require(HotSetPlanner(cost: r307, minimumMatches: 1).plan(matchCounts: counts, occupied: Array(0..<1000)))
        #expect(loose.slots.count > hot.slots.count)
    }

    /// With a fixed cost large against the per-template cost, splitting a small library loses.
    @Test func aSmallLibraryKeepsOneSearch() throws {
        let costly = SearchCost(fixedMilliseconds: 50, perTemplateMilliseconds: 0.5)
        let counts = [0: 30, 1: 30, 2: 20, 3: 20]
        // Hot first would save 3 templates (1.5 ms) per regular, and cost every stranger 50 ms more.
        let hot = try #require(HotSetPlanner(cost: costly).plan(matchCounts: counts, occupied: Array(0..<10), strangers: 10))
        #expect(hot.slots.isEmpty)
        #expect(hot.expectedSearchMilliseconds == hot.wholeSearchMilliseconds)
        #expect(hot.missPenaltyMilliseconds == 0)
    }

    /// The chosen size is the best of all sizes under the same formula.
    @Test func theChosenSizeMinimisesTheExpectedTime() throws {
        var counts: [Int: Int] = [:]
        for slot in 0..<200 { counts[slot] = max(0, 60 - slot / 2) }  // a falling, Zipf-like profile
        let occupied = Array(0..<400)
        let hot = try #require(HotSetPlanner(cost: r307, minimumMatches: 1).plan(matchCounts: counts, occupied: occupied))
        let ranked = counts.filter { $0.value > 0 }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let total = Double(counts.values.reduce(0, +))
        var answered = 0
        var bestOther = Double.infinity
        for (index, entry) in ranked.enumerated() {
            answered += entry.value
            let h = index + 1
            let expected = r307.milliseconds(templates: h) + (1 - Double(answered) / total) * r307.milliseconds(templates: 400 - h)
            if h != hot.slots.count { bestOther = min(bestOther, expected) }
        }
        #expect(hot.expectedSearchMilliseconds <= bestOther)
        #expect(hot.expectedSearchMilliseconds < hot.wholeSearchMilliseconds)
    }

    @Test func datasheetCostsIncludeTheWire() {
        let r307 = SearchCost.datasheet(for: .r30x, baudRate: 57_600)
        #expect(abs(r307.fixedMilliseconds - (10 + 330_000 / 57_600.0)) < 1e-9)
        #expect(r307.perTemplateMilliseconds == 0.9)
        #expect(SearchCost.datasheet(for: .r50x, baudRate: 0).fixedMilliseconds == 5)
        #expect(SearchCost.datasheet(for: .as608).perTemplateMilliseconds == 1.8)
    }
}
