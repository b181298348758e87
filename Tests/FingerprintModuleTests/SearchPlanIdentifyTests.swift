import FingerprintModule
import FingerprintProtocol
import ModuleSimulator
import SerialPort
import Testing

/// `identify(plan:)` on the simulator: one capture and extraction, then the ranges in order, and
/// no Search after the first hit (counted from the driver's own exchange records).
@Suite struct SearchPlanIdentifyTests {
    func identify(_ sim: SimulatorHarness, _ finger: String, _ plan: SearchPlan) throws -> (IdentifyOutcome, [Instruction]) {
        try sim.waitForCapture(.noFinger)
        sim.server.touch(finger)
        var sent: [Instruction] = []
        sim.module.exchangeObserver = { sent.append($0.instruction) }
        defer { sim.module.exchangeObserver = nil }
        var outcome = IdentifyOutcome.noFinger
        var timing = IdentifyTiming()
        for _ in 0..<50 where outcome == .noFinger {
            sent.removeAll()
            outcome = try sim.module.identify(plan: plan, timing: &timing)
        }
        #expect(timing.searchEnd >= timing.extractEnd && timing.extractEnd > 0)
        return (outcome, sent)
    }

    @Test func theFirstHitEndsThePlanAndAMissSearchesTheRest() throws {
        let sim = try SimulatorHarness(profile: .r307)
        try sim.enroll("alice", slot: 0)
        try sim.enroll("bob", slot: 1)
        try sim.enroll("carol", slot: 7)
        let plan = SearchPlan(ranges: [0..<2, 2..<2, 2..<8])
        #expect(plan.searchedRanges == [0..<2, 2..<8])

        let (hot, hotSent) = try identify(sim, "bob", plan)
        #expect(hot.matchedSlot == 1)
        #expect(hotSent.filter { $0 == .search }.count == 1)
        #expect(hotSent.filter { $0 == .genImg }.count == 1 && hotSent.filter { $0 == .img2Tz }.count == 1)

        let (cold, coldSent) = try identify(sim, "carol", plan)
        #expect(cold.matchedSlot == 7)
        #expect(coldSent.filter { $0 == .search }.count == 2)
        #expect(coldSent.filter { $0 == .genImg }.count == 1)  // the same features for both Searches

        let (stranger, strangerSent) = try identify(sim, "mallory", plan)
        #expect(stranger == .noMatch)
        #expect(strangerSent.filter { $0 == .search }.count == 2)

        // A plan that leaves carol's slot out does not find her: the plan is the whole question.
        let (missed, _) = try identify(sim, "carol", SearchPlan(ranges: [0..<2]))
        #expect(missed == .noMatch)
        #expect(try identify(sim, "alice", .whole(0..<8)).0.matchedSlot == 0)
    }
}

extension IdentifyOutcome {
    var matchedSlot: Int? {
        if case .match(let slot, _) = self { return slot }
        return nil
    }
}
