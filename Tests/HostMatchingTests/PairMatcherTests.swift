import Glibc
import Testing
@testable import HostMatching

/// The pair-table matcher on made-up minutiae, where the true correspondence is known.
@Suite struct PairMatcherTests {
    /// `count` minutiae spread over a `side`×`side` area, the same for the same seed.
    static func minutiae(seed: UInt64, count: Int, side: Int32 = 180) -> [Minutia] {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        func next(_ bound: Int32) -> Int32 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int32(truncatingIfNeeded: (state >> 33) % UInt64(bound))
        }
        return (0..<count).map { _ in Minutia(x: next(side) + 10, y: next(side) + 10, theta: next(360) - 180) }
    }

    /// A quarter turn and a shift: exact in integers, so every pair keeps its length and angles.
    static func quarterTurned(_ minutiae: [Minutia], dx: Int32, dy: Int32) -> [Minutia] {
        minutiae.map { Minutia(x: 300 - $0.y + dx, y: $0.x + dy, theta: Int32(Angle.normalized(Int($0.theta) + 90))) }
    }

    static func score(_ probe: [Minutia], _ gallery: [Minutia]) -> Int {
        var matcher = PairMatcher()
        return matcher.score(probe: PairTable(probe, bothWays: false), gallery: PairTable(gallery, bothWays: true))
    }

    @Test func aTurnedAndShiftedCopyMatchesEveryPair() {
        let original = Self.minutiae(seed: 1, count: 30)
        let pairs = PairTable(original, bothWays: false).entries.count
        #expect(pairs > 300)
        #expect(Self.score(original, original) == pairs)
        #expect(Self.score(original, Self.quarterTurned(original, dx: 17, dy: -9)) == pairs)
        #expect(Self.score(Self.quarterTurned(original, dx: -40, dy: 25), original) == pairs)
    }

    @Test func aCopyTurnedBy25DegreesStillMatchesMostPairs() {
        let original = Self.minutiae(seed: 2, count: 30)
        let angle = 25.0 * Double.pi / 180
        let turned = original.map { m in
            Minutia(x: Int32((cos(angle) * Double(m.x) - sin(angle) * Double(m.y)).rounded()) + 200,
                    y: Int32((sin(angle) * Double(m.x) + cos(angle) * Double(m.y)).rounded()) + 5,
                    theta: Int32(Angle.normalized(Int(m.theta) + 25)))
        }
        let pairs = PairTable(original, bothWays: false).entries.count
        let score = Self.score(original, turned)
        #expect(score >= pairs * 9 / 10, "\(score) of \(pairs)")
        #expect(score <= pairs)
    }

    @Test func aDifferentSetScoresFarBelowAGenuineOne() {
        let gallery = Self.minutiae(seed: 3, count: 30)
        for seed: UInt64 in 4...8 {
            let score = Self.score(Self.minutiae(seed: seed, count: 30), gallery)
            #expect(score < 25, "seed \(seed) scored \(score)")
        }
    }

    @Test func aPartialOverlapScoresThePairsItShares() {
        let whole = Self.minutiae(seed: 9, count: 40)
        let part = whole.filter { $0.x < 100 }
        #expect(part.count >= 12 && part.count < 35)
        let shared = PairTable(part, bothWays: false).entries.count
        // The part, moved, against the whole: every pair of the part is in the whole.
        #expect(Self.score(Self.quarterTurned(part, dx: 5, dy: 5), whole) == shared)
        // Extra minutiae of the probe's own, which the gallery lacks, change nothing found.
        let noisy = part + Self.minutiae(seed: 10, count: 8, side: 60)
        #expect(Self.score(noisy, whole) >= shared)
    }

    @Test func tooFewMinutiaeScoreZero() {
        let one = [Minutia(x: 10, y: 10, theta: 0)]
        #expect(Self.score(one, Self.minutiae(seed: 11, count: 20)) == 0)
        #expect(Self.score([], []) == 0)
    }

    @Test func theMatcherReusedAcrossComparisonsGivesTheSameScores() {
        let gallery = (12...15).map { PairTable(Self.minutiae(seed: UInt64($0), count: 25 + $0), bothWays: true) }
        let probe = PairTable(Self.minutiae(seed: 13, count: 38), bothWays: false)
        var reused = PairMatcher()
        let once = gallery.map { var fresh = PairMatcher(); return fresh.score(probe: probe, gallery: $0) }
        let twice = (gallery + gallery.reversed()).map { reused.score(probe: probe, gallery: $0) }
        #expect(twice == once + once.reversed())
        #expect(once[1] == probe.entries.count)
    }

    @Test func angleArithmeticWrapsAround() {
        #expect(Angle.normalized(180) == -180)
        #expect(Angle.normalized(-181) == 179)
        #expect(Angle.normalized(725) == 5)
        #expect(Angle.difference(170, -170) == 20)
        #expect(Angle.difference(-90, 90) == 180)
    }
}

@Suite struct GallerySearchTests {
    @Test func theBestTemplateAboveThresholdWins() {
        #expect(GallerySearch.decide(scores: [10, 55, 41, 60, 3], threshold: 40) == HostMatch(index: 3, score: 60))
        #expect(GallerySearch.decide(scores: [10, 39], threshold: 40) == nil)
        #expect(GallerySearch.decide(scores: [], threshold: 40) == nil)
    }

    @Test func aTieAtTheTopIsRefused() {
        #expect(GallerySearch.decide(scores: [60, 12, 60], threshold: 40) == nil)
        // A tie below the best does not matter.
        #expect(GallerySearch.decide(scores: [45, 45, 70], threshold: 40) == HostMatch(index: 2, score: 70))
    }
}
