import Imaging

/// How far a database's error rates could move on other fingers like its own: the bootstrap
/// over fingers (Bolle, Ratha, Pankanti, "Error analysis of pattern recognition systems — the
/// subsets bootstrap", 2004). Fingers, not pairs, are drawn with replacement, because the pairs
/// of one finger stand or fall together: a wet finger misses in most of its 28 genuine pairs. On
/// ten fingers the interval is wide, and a change between two settings that stays inside it is
/// not evidence that one is better.
public struct RateIntervals: Sendable, Equatable {
    public let equalErrorRate: ClosedRange<Double>
    public let fmr1000: ClosedRange<Double>
    /// Each draw's equal error rate and FMR1000, in draw order: several databases' draws
    /// averaged draw by draw give the interval of their mean, and two runs' draws with one seed
    /// draw the same fingers, so their differences give the interval of a change.
    public let equalErrorRates: [Double]
    public let fmr1000Rates: [Double]
}

/// How a change moved a database's rates (after − before), with the central interval of the
/// change over the same fingers drawn again for both: a change whose interval holds 0 has not
/// been shown better or worse.
public struct RateChange: Sendable, Equatable {
    public let equalErrorRate: Double
    public let equalErrorRateInterval: ClosedRange<Double>
    public let fmr1000: Double
    public let fmr1000Interval: ClosedRange<Double>
    /// Each draw's EER change, for the change of a mean over databases.
    public let equalErrorRateDraws: [Double]
}

public enum FingerResampling {
    /// The central `level` of `draws` resamplings of `scores`' fingers; nil when fewer than two
    /// fingers (no impostor pair to draw). `seed` makes a run repeatable.
    public static func intervals(_ scores: PairScores, draws: Int = 1000, level: Double = 0.95, seed: UInt64 = 2002) -> RateIntervals? {
        let impressions = scores.impressions
        guard impressions > 0, scores.images % impressions == 0, scores.matrix.count == scores.images else { return nil }
        let fingers = scores.images / impressions
        guard fingers >= 2, draws > 0 else { return nil }
        // A refused image takes part as the lowest score, as in the protocol itself.
        func score(_ a: Int, _ b: Int) -> Double { scores.matrix[a][b] ?? -.greatestFiniteMagnitude }
        let genuine = (0..<fingers).map { f in
            let first = f * impressions
            return (first..<(first + impressions)).flatMap { a in ((a + 1)..<(first + impressions)).map { score(a, $0) } }
        }
        var impostor = [[[Double]]](repeating: Array(repeating: [], count: fingers), count: fingers)
        for f in 0..<fingers {
            for g in (f + 1)..<fingers {
                impostor[f][g] = (f * impressions..<(f + 1) * impressions).flatMap { a in
                    (g * impressions..<(g + 1) * impressions).map { score(a, $0) }
                }
            }
        }
        var random = SeededGenerator(seed: seed)
        var eers: [Double] = [], fmr1000s: [Double] = []
        eers.reserveCapacity(draws)
        while eers.count < draws {
            var times = [Int](repeating: 0, count: fingers)
            for _ in 0..<fingers { times[Int.random(in: 0..<fingers, using: &random)] += 1 }
            // Two draws of one finger are the same finger: never an impostor pair.
            let drawn = times.indices.filter { times[$0] > 0 }
            guard drawn.count >= 2 else { continue }
            var g: [Double] = [], i: [Double] = []
            for f in drawn {
                for _ in 0..<times[f] { g += genuine[f] }
            }
            for (n, f) in drawn.enumerated() {
                for h in drawn[(n + 1)...] {
                    for _ in 0..<(times[f] * times[h]) { i += impostor[f][h] }
                }
            }
            let rates = ErrorRates(genuine: g, impostor: i)
            eers.append(rates.equalErrorRate)
            fmr1000s.append(rates.fmr1000)
        }
        return RateIntervals(equalErrorRate: central(eers, level: level), fmr1000: central(fmr1000s, level: level), equalErrorRates: eers,
                             fmr1000Rates: fmr1000s)
    }

    /// The paired bootstrap of two runs on one set: each draw's fingers are the same for both
    /// (one seed), so what differs is the matcher alone. nil when the runs are not of the same
    /// fingers and impressions.
    public static func change(from before: PairScores, to after: PairScores, draws: Int = 1000, level: Double = 0.95,
                              seed: UInt64 = 2002) -> RateChange? {
        guard before.images == after.images, before.impressions == after.impressions,
              let old = intervals(before, draws: draws, level: level, seed: seed),
              let new = intervals(after, draws: draws, level: level, seed: seed) else { return nil }
        let rates = (ErrorRates(genuine: before.genuine, impostor: before.allImpostor), ErrorRates(genuine: after.genuine, impostor: after.allImpostor))
        let eer = zip(new.equalErrorRates, old.equalErrorRates).map { $0 - $1 }
        let fmr1000 = zip(new.fmr1000Rates, old.fmr1000Rates).map { $0 - $1 }
        return RateChange(equalErrorRate: rates.1.equalErrorRate - rates.0.equalErrorRate, equalErrorRateInterval: central(eer, level: level),
                          fmr1000: rates.1.fmr1000 - rates.0.fmr1000, fmr1000Interval: central(fmr1000, level: level), equalErrorRateDraws: eer)
    }

    /// A share of touches (a door's later touches missed) counted per finger, `strata` of them
    /// (databases) each drawn again within itself: the central `level` of the drawn shares of
    /// all strata together; nil when there are no touches.
    public static func shareInterval(_ strata: [[(count: Int, of: Int)]], draws: Int = 1000, level: Double = 0.95,
                                     seed: UInt64 = 2002) -> ClosedRange<Double>? {
        guard strata.contains(where: { $0.contains { $0.of > 0 } }), draws > 0 else { return nil }
        var random = SeededGenerator(seed: seed)
        let shares = (0..<draws).map { _ -> Double in
            var count = 0, of = 0
            for fingers in strata where !fingers.isEmpty {
                for _ in fingers.indices {
                    let finger = fingers[Int.random(in: 0..<fingers.count, using: &random)]
                    count += finger.count
                    of += finger.of
                }
            }
            return of == 0 ? 0 : Double(count) / Double(of)
        }
        return central(shares, level: level)
    }

    /// The central `level` of `values` (percentile interval).
    public static func central(_ values: [Double], level: Double = 0.95) -> ClosedRange<Double> {
        precondition(!values.isEmpty, "an interval needs values")
        let sorted = values.sorted()
        let tail = (1 - level) / 2
        func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, max(0, Int((q * Double(sorted.count - 1)).rounded())))] }
        return at(tail)...at(1 - tail)
    }
}
