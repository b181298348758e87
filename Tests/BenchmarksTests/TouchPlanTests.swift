@testable import Benchmarks
import Testing

/// Who touches the reader in a bench: the workloads' touch sources and the sensor bench's plan.
@Suite struct TouchPlanTests {
    @Test func touchSourcesDrawTheirWorkloads() {
        var regulars = TouchSource(.regulars, fingers: 200, seed: "t")
        #expect(regulars.favourites.count == Workload.regularCount)
        let touches = regulars.next(2000)
        #expect(touches.allSatisfy { ($0 ?? -1) >= 0 && $0! < 200 })
        let household = Set(regulars.favourites)
        let fromHousehold = touches.filter { household.contains($0!) }.count
        // 80 % are drawn from the household, and a tenth of the uniform rest lands there too.
        #expect(fromHousehold > 1500 && fromHousehold < 1800, "\(fromHousehold) of 2000")

        var again = TouchSource(.regulars, fingers: 200, seed: "t")
        #expect(again.next(2000) == touches, "the same seed must give the same touches")
        #expect(TouchSource(.regulars, fingers: 200, seed: "t").withNewFavourites(seed: "u").favourites != regulars.favourites)

        var zipf = TouchSource(.zipf, fingers: 100, seed: "t")
        var counts: [Int: Int] = [:]
        for touch in zipf.next(5000) { counts[touch!, default: 0] += 1 }
        let first = zipf.favourites[0], tenth = zipf.favourites[9]
        #expect((counts[first] ?? 0) > 3 * (counts[tenth] ?? 0), "rank 1 should touch about ten times as often as rank 10")

        var strangers = TouchSource(.strangers, fingers: 100, seed: "t")
        #expect(strangers.next(50).allSatisfy { $0 == nil })
        var uniform = TouchSource(.uniform, fingers: 10, seed: "t")
        #expect(Set(uniform.next(500).compactMap { $0 }) == Set(0..<10))
    }


    @Test func touchPlanMixesStrangersIntoTheEnrolledFingers() {
        let genuine = [(finger: "f0", user: "u0"), (finger: "f1", user: "u1")]
        let plan = SensorIdentifyBench.plan(7, genuine: genuine, strangers: ["s0"])
        #expect(plan.map(\.finger) == ["f0", "f1", "s0", "f0", "f1", "s0", "f0"])
        #expect(plan.map(\.owner) == ["u0", "u1", nil, "u0", "u1", nil, "u0"])
        #expect(SensorIdentifyBench.plan(4, genuine: genuine, strangers: []).allSatisfy { $0.owner != nil })
        #expect(SensorIdentifyBench.plan(3, genuine: [], strangers: ["s0", "s1"]).map(\.finger) == ["s0", "s1", "s0"])
    }

}
