import MatcherAccuracy
import Testing

/// The bootstrap over fingers: fingers drawn with replacement, their pairs kept together, two
/// draws of one finger never an impostor pair, the same interval from the same seed.
@Suite struct FingerResamplingTests {
    /// `fingers` × `impressions` images: genuine pairs score `genuine(finger)`, impostors 1.
    func scores(fingers: Int, impressions: Int, genuine: (Int) -> Double) -> PairScores {
        var scores = PairScores()
        scores.images = fingers * impressions
        scores.impressions = impressions
        scores.matrix = Array(repeating: Array(repeating: nil, count: scores.images), count: scores.images)
        for a in 0..<scores.images {
            for b in (a + 1)..<scores.images {
                let score = a / impressions == b / impressions ? genuine(a / impressions) : 1
                scores.matrix[a][b] = score
                if a / impressions == b / impressions { scores.genuine.append(score) } else { scores.allImpostor.append(score) }
            }
        }
        return scores
    }

    @Test func separatedFingersHaveNoErrorInAnyDraw() throws {
        let intervals = try #require(FingerResampling.intervals(scores(fingers: 10, impressions: 4) { _ in 10 }, draws: 200))
        #expect(intervals.equalErrorRate == 0...0)
        #expect(intervals.fmr1000 == 0...0)
        #expect(intervals.equalErrorRates.count == 200)
    }

    /// One finger that never matches itself: draws without it have no error, draws with it twice
    /// or more have more than the set itself. The interval spans both.
    @Test func oneBadFingerWidensTheIntervalAroundTheSetsOwnRate() throws {
        let set = scores(fingers: 10, impressions: 4) { $0 == 0 ? 0 : 10 }
        let own = ErrorRates(genuine: set.genuine, impostor: set.allImpostor)
        #expect(own.fmr1000 > 0.09 && own.fmr1000 < 0.11)
        let intervals = try #require(FingerResampling.intervals(set, draws: 400))
        #expect(intervals.fmr1000.lowerBound == 0)
        #expect(intervals.fmr1000.upperBound > own.fmr1000)
        #expect(intervals.equalErrorRate.lowerBound == 0)
        #expect(intervals.equalErrorRate.upperBound > own.equalErrorRate)
    }

    @Test func theSameSeedGivesTheSameDrawsAndAnotherSeedOthers() throws {
        let set = scores(fingers: 6, impressions: 3) { Double($0 % 3) }
        let first = try #require(FingerResampling.intervals(set, draws: 50, seed: 7))
        let again = try #require(FingerResampling.intervals(set, draws: 50, seed: 7))
        let other = try #require(FingerResampling.intervals(set, draws: 50, seed: 8))
        #expect(first == again)
        #expect(first.equalErrorRates != other.equalErrorRates)
    }

    @Test func oneFingerOrAnUnknownLayoutHasNoInterval() {
        #expect(FingerResampling.intervals(scores(fingers: 1, impressions: 4) { _ in 10 }) == nil)
        var unknown = scores(fingers: 3, impressions: 2) { _ in 10 }
        unknown.impressions = 0
        #expect(FingerResampling.intervals(unknown) == nil)
    }

    @Test func aDoorsMissedShareIsDrawnFingerByFingerWithinEachDatabase() throws {
        let clean = Array(repeating: (count: 0, of: 3), count: 10)
        #expect(FingerResampling.shareInterval([clean]) == 0...0)
        var oneBad = clean
        oneBad[0] = (count: 3, of: 3)
        let interval = try #require(FingerResampling.shareInterval([oneBad], draws: 400))
        #expect(interval.lowerBound == 0 && interval.upperBound > 0.1)
        // Every finger of one database missed, none of the other's: drawn within each database,
        // every draw has half its touches missed; drawn from both pooled, most would not.
        let missedAll = Array(repeating: (count: 3, of: 3), count: 10)
        #expect(FingerResampling.shareInterval([missedAll, clean]) == 0.5...0.5)
        #expect(FingerResampling.shareInterval([]) == nil)
    }

    /// Two runs compared over the same fingers drawn again for both: a run against itself moves
    /// nothing in any draw; mending the one bad finger is a gain the interval shows.
    @Test func aChangeIsMeasuredOverTheSameFingersForBothRuns() throws {
        let bad = scores(fingers: 10, impressions: 4) { $0 == 0 ? 0 : 10 }
        let mended = scores(fingers: 10, impressions: 4) { _ in 10 }
        let none = try #require(FingerResampling.change(from: bad, to: bad, draws: 300))
        #expect(none.equalErrorRate == 0 && none.equalErrorRateInterval == 0...0 && none.fmr1000Interval == 0...0)
        let gain = try #require(FingerResampling.change(from: bad, to: mended, draws: 300))
        #expect(gain.equalErrorRate < 0 && gain.fmr1000 < 0)
        // Draws without finger 0 change nothing (about a third of them); the rest gain.
        #expect(gain.fmr1000Interval.upperBound == 0 && gain.fmr1000Interval.lowerBound < -0.1)
        #expect(gain.equalErrorRateDraws.allSatisfy { $0 <= 0 })
        #expect(FingerResampling.change(from: bad, to: scores(fingers: 5, impressions: 4) { _ in 10 }) == nil)
    }

    @Test func scoresAreRebuiltFromTheirMatrixWithTheRefusedImage() throws {
        var measured = scores(fingers: 3, impressions: 3) { Double($0) + 5 }
        // Image 4 refused: no score with any other, its pairs the lowest score, as the protocol has it.
        for a in 0..<measured.images {
            for b in (a + 1)..<measured.images where a == 4 || b == 4 { measured.matrix[a][b] = nil }
        }
        let rebuilt = try #require(PairScores(matrix: measured.matrix, impressions: 3))
        #expect(rebuilt.refused == 1 && rebuilt.images == 9 && rebuilt.impressions == 3)
        #expect(rebuilt.genuine.count == 9 && rebuilt.allImpostor.count == 27 && rebuilt.fvcImpostor.count == 3)
        #expect(rebuilt.genuine.filter { $0 == -.greatestFiniteMagnitude }.count == 2)
        #expect(PairScores(matrix: measured.matrix, impressions: 4) == nil)
        #expect(PairScores(matrix: [[nil, 1], [nil, nil]], impressions: 2) == nil)
    }

    @Test func theCentralIntervalCutsEqualTails() {
        let values = (0...100).map(Double.init)
        #expect(FingerResampling.central(values, level: 0.9) == 5...95)
        #expect(FingerResampling.central([3], level: 0.95) == 3...3)
    }
}
