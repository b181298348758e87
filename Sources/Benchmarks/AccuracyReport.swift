import Foundation
import JSONValue
import MatcherAccuracy

/// One database's table: fpmod and NBIS side by side, rates and score distributions.
public struct AccuracyReport {
    public let name: String
    public let folder: FVCFolder
    public let ours: PairScores
    public let theirs: PairScores?
    /// How far the rates could move on other fingers (`FingerResampling`): the table's rates
    /// come from ten fingers, and its differences mean something only beyond these.
    public let ourIntervals: RateIntervals?
    public let theirIntervals: RateIntervals?

    /// `seed`: each database its own, so that averaging their draws averages independent ones.
    public init(name: String, folder: FVCFolder, ours: PairScores, theirs: PairScores?, seed: UInt64 = 2002) {
        self.name = name
        self.folder = folder
        self.ours = ours
        self.theirs = theirs
        ourIntervals = FingerResampling.intervals(ours, seed: seed)
        theirIntervals = theirs.flatMap { FingerResampling.intervals($0, seed: seed) }
    }

    public func table() -> String {
        let a = ErrorRates(genuine: ours.genuine, impostor: ours.allImpostor)
        let aFVC = ErrorRates(genuine: ours.genuine, impostor: ours.fvcImpostor)
        let b = theirs.map { ErrorRates(genuine: $0.genuine, impostor: $0.allImpostor) }
        let bFVC = theirs.map { ErrorRates(genuine: $0.genuine, impostor: $0.fvcImpostor) }
        var rows: [(String, String, String)] = [
            ("failure to extract", "\(ours.refused)/\(ours.images)", theirs.map { "\($0.refused)/\($0.images)" } ?? "—"),
            ("EER (\(ours.allImpostor.count) impostor pairs)", Self.percent(a.equalErrorRate), b.map { Self.percent($0.equalErrorRate) } ?? "—"),
            ("EER (FVC's \(ours.fvcImpostor.count) impostor pairs)", Self.percent(aFVC.equalErrorRate), bFVC.map { Self.percent($0.equalErrorRate) } ?? "—"),
            ("EER, 95 % interval over fingers", Self.range(ourIntervals?.equalErrorRate), theirs == nil ? "—" : Self.range(theirIntervals?.equalErrorRate)),
            ("FMR100 (misses at 1 % false matches)", Self.percent(a.fmr100), b.map { Self.percent($0.fmr100) } ?? "—"),
            ("FMR1000 (misses at 0.1 %)", Self.percent(a.fmr1000), b.map { Self.percent($0.fmr1000) } ?? "—"),
            ("FMR1000, 95 % interval over fingers", Self.range(ourIntervals?.fmr1000), theirs == nil ? "—" : Self.range(theirIntervals?.fmr1000)),
            ("ZeroFMR (misses at none)", Self.percent(a.zeroFMR), b.map { Self.percent($0.zeroFMR) } ?? "—"),
            ("genuine scores p10 / p50 / p90", Self.quantiles(ours.genuine, [0.1, 0.5, 0.9]), theirs.map { Self.quantiles($0.genuine, [0.1, 0.5, 0.9]) } ?? "—"),
            ("impostor scores p50 / p99 / max", Self.quantiles(ours.allImpostor, [0.5, 0.99, 1]), theirs.map { Self.quantiles($0.allImpostor, [0.5, 0.99, 1]) } ?? "—"),
        ]
        rows.insert(("", "fpmod", theirs == nil ? "" : "NBIS"), at: 0)
        let width = rows.map(\.0.count).max() ?? 0
        var text = "\n\(name): \(folder.fingers.count) fingers × \(folder.impressions.count) impressions, \(ours.genuine.count) genuine pairs\n"
        for row in rows {
            text += row.0.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                + row.1.padding(toLength: 16, withPad: " ", startingAt: 0) + row.2 + "\n"
        }
        return text
    }

    public func json() -> [String: JSONValue] {
        func rates(_ scores: PairScores, _ intervals: RateIntervals?) -> JSONValue {
            let r = ErrorRates(genuine: scores.genuine, impostor: scores.allImpostor)
            let fvc = ErrorRates(genuine: scores.genuine, impostor: scores.fvcImpostor)
            var object: [String: JSONValue] = [
                "failureToExtract": .int(Int64(scores.refused)), "images": .int(Int64(scores.images)),
                "eer": .double(r.equalErrorRate), "eerFVC": .double(fvc.equalErrorRate), "fmr100": .double(r.fmr100),
                "fmr1000": .double(r.fmr1000), "zeroFMR": .double(r.zeroFMR),
                "genuinePairs": .int(Int64(scores.genuine.count)), "impostorPairs": .int(Int64(scores.allImpostor.count)),
            ]
            if let intervals {
                object["eerInterval"] = Self.json(intervals.equalErrorRate)
                object["fmr1000Interval"] = Self.json(intervals.fmr1000)
            }
            return .object(object)
        }
        var out: [String: JSONValue] = ["database": .string(name), "fpmod": rates(ours, ourIntervals)]
        if let theirs { out["nbis"] = rates(theirs, theirIntervals) }
        return out
    }

    public static func percent(_ rate: Double) -> String { String(format: "%.1f %%", 100 * rate) }

    /// "0.1–1.4 %"; "—" where there is none (fewer than two fingers).
    public static func range(_ interval: ClosedRange<Double>?) -> String {
        guard let interval else { return "—" }
        return String(format: "%.1f–%.1f %%", 100 * interval.lowerBound, 100 * interval.upperBound)
    }

    public static func json(_ interval: ClosedRange<Double>) -> JSONValue {
        .array([.double(interval.lowerBound), .double(interval.upperBound)])
    }

    /// Quantiles of the scores a comparison gave (refused images left out).
    public static func quantiles(_ scores: [Double], _ at: [Double]) -> String {
        let real = scores.filter { $0 > -Double.greatestFiniteMagnitude }.sorted()
        guard !real.isEmpty else { return "—" }
        return at.map { q in String(Int(real[min(real.count - 1, Int(q * Double(real.count - 1)))].rounded())) }.joined(separator: " / ")
    }

    /// `det.svg` for the second database DB2_B: `det-DB2_B.svg`.
    public static func numbered(_ path: String, _ name: String, _ index: Int) -> String {
        let stem = (path as NSString).deletingPathExtension, ext = (path as NSString).pathExtension
        return stem + "-" + name + (ext.isEmpty ? "" : "." + ext)
    }
}
