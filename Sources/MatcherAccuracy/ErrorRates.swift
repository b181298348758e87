/// The FVC error rates of one matcher on one database, from its genuine and impostor scores
/// (higher = more alike; a failure to compare counts as the lowest score, a non-match, as FVC
/// counts it).
public struct ErrorRates: Sendable, Equatable {
    /// Equal error rate, FVC's estimate: the mean of the bounds where the false non-match and
    /// false match rates cross.
    public let equalErrorRate: Double
    /// The lowest false non-match rate with at most 1 % false matches, 0.1 %, and none.
    public let fmr100: Double
    public let fmr1000: Double
    public let zeroFMR: Double
    public let genuine: Int
    public let impostors: Int

    public init(genuine: [Double], impostor: [Double]) {
        precondition(!genuine.isEmpty && !impostor.isEmpty, "error rates need both kinds of scores")
        self.genuine = genuine.count
        self.impostors = impostor.count
        let g = genuine.sorted(), i = impostor.sorted()
        // Candidate thresholds: every score seen, and one above them all.
        let candidates = Array(Set(g + i)).sorted() + [Double.infinity]
        func fmr(_ t: Double) -> Double { Double(i.count - Self.lowerBound(i, t)) / Double(i.count) }
        func fnmr(_ t: Double) -> Double { Double(Self.lowerBound(g, t)) / Double(g.count) }
        // FVC: t1 the highest threshold with FNMR ≤ FMR, t2 the lowest with FNMR ≥ FMR.
        let t1 = candidates.last { fnmr($0) <= fmr($0) } ?? candidates[0]
        let t2 = candidates.first { fnmr($0) >= fmr($0) } ?? candidates[candidates.count - 1]
        let (low, high): (Double, Double) = fnmr(t1) + fmr(t1) <= fmr(t2) + fnmr(t2)
            ? (fnmr(t1), fmr(t1)) : (fmr(t2), fnmr(t2))
        equalErrorRate = (low + high) / 2
        func best(atMostFMR limit: Double) -> Double {
            candidates.filter { fmr($0) <= limit }.map(fnmr).min() ?? 1
        }
        fmr100 = best(atMostFMR: 0.01)
        fmr1000 = best(atMostFMR: 0.001)
        zeroFMR = best(atMostFMR: 0)
    }

    /// The lowest score at which at most `limit` of the impostors match: the threshold a run
    /// uses for "FMR ≤ limit".
    public static func threshold(impostor: [Double], atMostFMR limit: Double) -> Double {
        let sorted = impostor.sorted(by: >)
        let allowed = Int((limit * Double(sorted.count)).rounded(.down))
        guard allowed < sorted.count else { return -.infinity }
        // Above the (allowed + 1)-th highest impostor score.
        return sorted[allowed].nextUp
    }

    /// How many of the sorted `values` are below `t`.
    static func lowerBound(_ values: [Double], _ t: Double) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < t { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
