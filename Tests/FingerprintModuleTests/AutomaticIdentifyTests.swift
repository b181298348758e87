import FingerprintModule
import FingerprintProtocol
import ModuleSimulator
import Testing
import TestSupport

/// `identifyAutomatically`: the module's one-command identify (R50x AutoIdentify, AS608
/// AutoSearch) against the simulator, mapped to the same outcomes as the three-command cycle.
@Suite struct AutomaticIdentifyTests {
    static let profiles: [SimulatorProfile] = [.r503, .as608]

    @Test(arguments: profiles)
    func sameOutcomesAsTheThreeCommandCycle(profile: SimulatorProfile) throws {
        let sim = try SimulatorHarness(profile: profile)
        try sim.enroll("kim", slot: 2)
        #expect(try sim.module.readIndexTable().occupied == [2])
        sim.server.place("kim")
        guard case let .match(slot, score) = try sim.module.identifyAutomatically() else {
            Issue.record("kim was not found")
            return
        }
        #expect(slot == 2 && score >= Matcher.threshold(securityLevel: 3))
        guard case .match(2, _) = try sim.module.identify() else {
            Issue.record("the three-command cycle disagrees")
            return
        }
        sim.server.place("someone-else")
        #expect(try sim.module.identifyAutomatically() == .noMatch)
        #expect(try sim.module.identify() == .noMatch)
        sim.server.place("kim", quality: .poor)
        #expect(try sim.module.identifyAutomatically() == .poorImage(.featureFail))
        #expect(try sim.module.identify() == .poorImage(.featureFail))
        sim.server.lift()
        #expect(try sim.module.identifyAutomatically() == .noFinger)
        #expect(try sim.module.identify() == .noFinger)
    }

    @Test func searchesOnlyTheRangeAskedFor() throws {
        let sim = try SimulatorHarness(profile: .r503)
        try sim.enroll("kim", slot: 2)
        sim.server.place("kim")
        #expect(try sim.module.identifyAutomatically(range: 3..<200) == .noMatch)
        var timing = IdentifyTiming()
        guard case .match(2, _) = try sim.module.identifyAutomatically(range: 0..<3, timing: &timing) else {
            Issue.record("kim was not found in 0..<3")
            return
        }
        #expect(timing.captureStart > 0 && timing.searchEnd >= timing.captureStart)
    }

    @Test func refusesWhatItCannotSearch() throws {
        let r503 = try SimulatorHarness(profile: .r503)
        // One-byte start and count: a range past 255 is refused, not cut short.
        let wide = expectThrows(ModuleError.self) { try r503.module.identifyAutomatically(range: 0..<300) }
        #expect(wide?.description.contains("it was asked for slots 0 to 299") == true, "\(String(describing: wide))")
        let r307 = try SimulatorHarness(profile: .r307)
        let unsupported = expectThrows(ModuleError.self) { try r307.module.identifyAutomatically(range: 0..<10) }
        if case .unsupported? = unsupported {} else { Issue.record("expected .unsupported, got \(String(describing: unsupported))") }
        #expect(IdentifyMethod.preferred(for: .r50x) == .threeCommands)
        #expect(IdentifyMethod.automaticIsAvailable(on: .r50x) && IdentifyMethod.automaticIsAvailable(on: .as608))
        #expect(!IdentifyMethod.automaticIsAvailable(on: .r30x))
        // The default stays the three-command cycle where the manuals document other outcomes.
        #expect(!IdentifyMethod.knownDifferences(on: .r50x).isEmpty && !IdentifyMethod.knownDifferences(on: .as608).isEmpty)
        #expect(IdentifyMethod.preferred(for: .as608) == .threeCommands)
    }
}
