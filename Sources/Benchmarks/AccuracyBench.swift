import Foundation
import HostMatching
import Imaging
import JSONValue
import MatcherAccuracy
import MinutiaeExtraction
import PrintableText

/// The FVC protocol on real impressions, fpmod's matcher and NBIS side by side
/// (docs/accuracy.md), over FVC folders (`FVCFolder.databases(under:)`).
public enum AccuracyBench {
    public struct Options: Sendable {
        public var window: Window = .sensor(side: 192)
        public var door = false
        public var baseline = true
        public var det: String?
        /// --check EER,FMR1000[,DOOR] (percent): fail when fpmod does worse on any database; DOOR
        /// (with `door`): later touches missed at the product's thresholds, and any stranger let in.
        public var bounds: (eer: Double, fmr1000: Double, doorMissed: Double?)?
        /// --save-scores FILE: every pair's score kept for a later --against.
        public var saveScores: String?
        /// --against FILE: an earlier run (read before this one starts) to compare with pair by pair.
        public var against: AccuracyScoresFile.Run?

        public init() {}
    }

    /// The report (text and JSON) and the databases where fpmod did worse than `bounds`.
    public struct Result {
        public let text: String
        public let json: JSONValue
        public let failed: [String]
    }

    public static func run(_ options: Options, databases: [FVCFolder], progress: @escaping (String) -> Void) throws -> Result {
        let matcher = MinutiaeMatcher()
        var text = "FVC protocol, \(options.window == .full ? "whole images" : "the 192 × 192 window an FPC1020 sees (each image's centre)")"
            + "; fpmod at its defaults\(options.baseline ? ", NBIS (libfprint's mindtct + bozorth3) beside it" : "").\n"
        var reports: [JSONValue] = []
        var failed: [String] = []
        var allScores: [(folder: FVCFolder, ours: PairScores, theirs: PairScores?)] = []
        var ourDraws: [[Double]] = []
        var doorMissed: [[(count: Int, of: Int)]] = []
        var changeDraws: [[Double]] = [], changes: [Double] = []
        var nbisTooHot = false
        for (index, folder) in databases.enumerated() {
            let name = (folder.path as NSString).lastPathComponent
            progress("fpmod bench accuracy: \(name)…")
            var ours = FpmodScorer(matcher: matcher)
            let ourScores = try PairScores.measure(&ours, folder: folder, window: options.window, progress: progress)
            var theirScores: PairScores?
            if options.baseline, !nbisTooHot {
                var nbis = NBISScorer()
                // Whole scanned prints have white margins; a sensor's window must be mostly finger.
                nbis.matcher.checksCoverage = options.window != .full
                do {
                    theirScores = try PairScores.measure(&nbis, folder: folder, window: options.window, progress: progress)
                } catch HostMatchingError.deviceTooHot {
                    // libfprint models every device as heating while busy and pauses it for
                    // minutes; what it measured so far would be a biased sample, so none is shown.
                    nbisTooHot = true
                    text += "(NBIS stopped at \(name): libfprint's overheating guard paused its device; run the baseline "
                        + "one database at a time, e.g. fpmod bench accuracy DIR/\(name)\(options.window == .full ? " --full" : ""))\n"
                }
            }
            allScores.append((folder, ourScores, theirScores))
            let ourRates = ErrorRates(genuine: ourScores.genuine, impostor: ourScores.allImpostor)
            let report = AccuracyReport(name: name, folder: folder, ours: ourScores, theirs: theirScores,
                                        seed: 2002 + UInt64(index))
            text += report.table()
            if let intervals = report.ourIntervals { ourDraws.append(intervals.equalErrorRates) }
            var json = report.json()
            if let against = options.against {
                if let before = against.databases[name], let change = FingerResampling.change(from: before, to: ourScores, seed: 2002 + UInt64(index)) {
                    text += Self.changeLine(change)
                    changeDraws.append(change.equalErrorRateDraws)
                    changes.append(change.equalErrorRate)
                    json["change"] = .object(["eer": .double(change.equalErrorRate), "eerInterval": AccuracyReport.json(change.equalErrorRateInterval),
                                              "fmr1000": .double(change.fmr1000), "fmr1000Interval": AccuracyReport.json(change.fmr1000Interval)])
                } else {
                    text += "against the earlier run: it has no \(Printable.escaped(name)) of \(ourScores.images) images, nothing to compare\n"
                }
            }
            if options.door {
                let door = try DoorRun.run(folder: folder, window: options.window, matcher: matcher, ours: ourScores,
                                           theirs: theirScores, strangers: databases.filter { $0.path != folder.path })
                text += door.text
                json["door"] = door.json
                doorMissed.append(door.missedPerFinger)
                if let bound = options.bounds?.doorMissed {
                    let missed = 100 * Double(door.missedAtProduct) / Double(max(1, door.genuineTouches))
                    if missed > bound || door.strangersAtProduct > 0 {
                        failed.append("\(name): door missed \(door.missedAtProduct)/\(door.genuineTouches) later touches, "
                                      + "let in \(door.strangersAtProduct) strangers at the product's thresholds (bound \(bound) %, no stranger)")
                    }
                }
            }
            reports.append(.object(json))
            if let bounds = options.bounds,
               100 * ourRates.equalErrorRate > bounds.eer || 100 * ourRates.fmr1000 > bounds.fmr1000 {
                failed.append("\(name): EER \(AccuracyReport.percent(ourRates.equalErrorRate)), FMR1000 \(AccuracyReport.percent(ourRates.fmr1000)) "
                              + "(bounds \(bounds.eer) %, \(bounds.fmr1000) %)")
            }
        }
        var top: [String: JSONValue] = ["window": .string(options.window == .full ? "full" : "fpc1020"), "databases": .array(reports)]
        if ourDraws.count > 1, ourDraws.count == allScores.count {
            // Each database's fingers drawn apart, the draws averaged one by one: the mean's interval.
            let mean = allScores.map { ErrorRates(genuine: $0.ours.genuine, impostor: $0.ours.allImpostor).equalErrorRate }
                .reduce(0, +) / Double(allScores.count)
            let means = ourDraws[0].indices.map { draw in ourDraws.reduce(0) { $0 + $1[draw] } / Double(ourDraws.count) }
            let interval = FingerResampling.central(means)
            text += "\nfpmod's mean EER over the \(allScores.count) databases: \(AccuracyReport.percent(mean)) "
                + "(95 % interval over fingers \(AccuracyReport.range(interval)))\n"
            top["meanEER"] = .double(mean)
            top["meanEERInterval"] = AccuracyReport.json(interval)
        }
        if changeDraws.count > 1 {
            let means = changeDraws[0].indices.map { draw in changeDraws.reduce(0) { $0 + $1[draw] } / Double(changeDraws.count) }
            let interval = FingerResampling.central(means)
            let mean = changes.reduce(0, +) / Double(changes.count)
            text += "fpmod's mean EER against the earlier run: \(Self.points(mean)) (95 % interval over fingers \(Self.bound(interval.lowerBound))…\(Self.bound(interval.upperBound)))"
                + "\(Self.verdict(interval))\n"
            top["meanEERChange"] = .double(mean)
            top["meanEERChangeInterval"] = AccuracyReport.json(interval)
        }
        if doorMissed.count > 1, let interval = FingerResampling.shareInterval(doorMissed) {
            // Each database's fingers drawn again within it, the missed touches summed over all.
            let missed = doorMissed.joined().reduce(0) { $0 + $1.count }, touches = doorMissed.joined().reduce(0) { $0 + $1.of }
            text += "fpmod at the door over the \(doorMissed.count) databases: missed \(missed)/\(touches) later touches at the product's thresholds "
                + "(95 % interval over fingers \(AccuracyReport.range(interval)))\n"
            top["doorMissed"] = .int(Int64(missed))
            top["doorTouches"] = .int(Int64(touches))
            top["doorMissedInterval"] = AccuracyReport.json(interval)
        }
        if let det = options.det {
            for (index, entry) in allScores.enumerated() {
                let name = (entry.folder.path as NSString).lastPathComponent
                var curves = [DETPicture.Curve(label: "fpmod", genuine: entry.ours.genuine, impostor: entry.ours.allImpostor)]
                if let theirs = entry.theirs { curves.append(.init(label: "NBIS", genuine: theirs.genuine, impostor: theirs.allImpostor)) }
                let file = allScores.count == 1 ? det : AccuracyReport.numbered(det, name, index)
                do {
                    try DETPicture.svg(title: "\(name): DET, all-pairs impostors", curves: curves).write(toFile: file, atomically: true, encoding: .utf8)
                } catch {
                    throw BenchError(.io, "cannot write the DET picture \(file): \(error.localizedDescription)")
                }
                text += "DET curve of \(Printable.escaped(name)): \(Printable.escaped(file))\n"
            }
        }
        text += "FVC2002 (if that is what was measured): D. Maio, D. Maltoni, R. Cappelli, J.L. Wayman, A.K. Jain, Proc. 16th ICPR, 2002.\n"
        if let path = options.saveScores {
            let run = AccuracyScoresFile.json(window: options.window == .full ? "full" : "fpc1020",
                                              databases: allScores.map { (($0.folder.path as NSString).lastPathComponent, $0.ours) })
            do {
                try run.encoded.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw BenchError(.io, "cannot write the scores to \(Printable.escaped(path)): \(error.localizedDescription)")
            }
            text += "Every pair's score: \(Printable.escaped(path)) (compare a later run with it: --against \(Printable.escaped(path)))\n"
        }
        return Result(text: text, json: .object(top), failed: failed)
    }

    /// "against the earlier run: EER −0.4 points (…), FMR1000 +1.1 points (…)".
    static func changeLine(_ change: RateChange) -> String {
        let eer = change.equalErrorRateInterval, fmr = change.fmr1000Interval
        return "against the earlier run: EER \(points(change.equalErrorRate)) (95 % interval over fingers \(bound(eer.lowerBound))…\(bound(eer.upperBound)))"
            + "\(verdict(eer)), FMR1000 \(points(change.fmr1000)) (\(bound(fmr.lowerBound))…\(bound(fmr.upperBound)))\(verdict(fmr))\n"
    }

    /// "+0.4 points", "−1.2 points": percentage points of a rate.
    static func points(_ change: Double) -> String { bound(change) + " points" }

    /// "+0.4", "−1.2" (a true minus sign; a change that rounds to 0 is "+0.0").
    static func bound(_ change: Double) -> String {
        let tenths = (1000 * change).rounded()
        return (tenths < 0 ? "−" : "+") + String(format: "%.1f", abs(tenths) / 10)
    }

    /// Lower rates are better: an interval wholly below 0 shows a gain, wholly above a loss.
    static func verdict(_ interval: ClosedRange<Double>) -> String {
        interval.upperBound < 0 ? ": better" : interval.lowerBound > 0 ? ": worse" : ": not shown either way"
    }
}

