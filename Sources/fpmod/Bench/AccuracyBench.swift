import ArgumentParsing
import Foundation
import HostMatching
import Imaging
import JSONValue
import MatcherAccuracy
import MinutiaeExtraction

/// `fpmod bench accuracy DIR`: the FVC protocol on real impressions, fpmod's matcher and NBIS
/// side by side (docs/accuracy.md). DIR is a folder of NNN_K.png images, or a folder of such
/// folders (FVC2002's DB1_B … DB4_B).
enum AccuracyBench {
    struct Options {
        var window: Window = .sensor(side: 192)
        var door = false
        var baseline = true
        var det: String?
        /// --check EER,FMR1000 (percent): fail when fpmod does worse on any database.
        var bounds: (eer: Double, fmr1000: Double)?
    }

    static func run(_ invocation: Invocation, folder path: String) throws -> ExitCode {
        let parsed = invocation.parsed
        var options = Options()
        if parsed.flag("full") { options.window = .full }
        if let sensor = parsed.string("sensor"), sensor != "fpc1020" {
            throw CommandFailure(.usage, "--sensor takes fpc1020 (the 192 × 192 window it sees); got '\(sensor)'. --full compares whole images.")
        }
        if parsed.flag("full"), parsed.isExplicit("sensor") {
            throw CommandFailure(.usage, "--full compares whole images and --sensor the sensor's window: give one of them.")
        }
        options.door = parsed.flag("door")
        options.baseline = !parsed.flag("no-baseline")
        options.det = parsed.string("det")
        if let check = parsed.string("check") {
            let parts = check.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let eer = parts[0], let fmr1000 = parts[1], (0...100).contains(eer), (0...100).contains(fmr1000) else {
                throw CommandFailure(.usage, "--check takes two percentages, EER and FMR1000, e.g. --check 20,60; got '\(check)'.")
            }
            options.bounds = (eer, fmr1000)
        }
        let databases: [FVCFolder]
        do { databases = try FVCFolder.databases(under: path) } catch { throw CommandFailure(.usage, error.description) }
        if options.door, let short = databases.first(where: { $0.impressions.count <= DoorRun.enrolled.count }) {
            throw CommandFailure(.usage, "--door enrolls impressions 1–\(DoorRun.enrolled.count) and identifies the later ones, but \(short.path) holds "
                                 + "\(short.impressions.count) impressions per finger; use a set with at least \(DoorRun.enrolled.count + 1) (the FVC sets have 8).")
        }
        if let det = options.det, !FileManager.default.isWritableFile(atPath: (det as NSString).deletingLastPathComponent.isEmpty ? "." : (det as NSString).deletingLastPathComponent) {
            throw CommandFailure(.usage, "--det \(det): its folder is not writable; give a path where the SVG can be written.")
        }

        let matcher = MinutiaeMatcher()
        var text = "FVC protocol, \(options.window == .full ? "whole images" : "the 192 × 192 window an FPC1020 sees (each image's centre)")"
            + "; fpmod at its defaults\(options.baseline ? ", NBIS (libfprint's mindtct + bozorth3) beside it" : "").\n"
        var reports: [JSONValue] = []
        var failed: [String] = []
        var allScores: [(folder: FVCFolder, ours: PairScores, theirs: PairScores?)] = []
        var nbisTooHot = false
        for folder in databases {
            let name = (folder.path as NSString).lastPathComponent
            invocation.progress("fpmod bench accuracy: \(name)…")
            var ours = FpmodScorer(matcher: matcher)
            let ourScores = try PairScores.measure(&ours, folder: folder, window: options.window, progress: invocation.progress)
            var theirScores: PairScores?
            if options.baseline, !nbisTooHot {
                var nbis = NBISScorer()
                // Whole scanned prints have white margins; a sensor's window must be mostly finger.
                nbis.matcher.checksCoverage = options.window != .full
                do {
                    theirScores = try PairScores.measure(&nbis, folder: folder, window: options.window, progress: invocation.progress)
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
            let report = AccuracyReport(name: name, folder: folder, ours: ourScores, theirs: theirScores)
            text += report.table()
            var json = report.json()
            if options.door {
                let door = try DoorRun.run(folder: folder, window: options.window, matcher: matcher, ours: ourScores,
                                           theirs: theirScores, strangers: databases.filter { $0.path != folder.path })
                text += door.text
                json["door"] = door.json
            }
            reports.append(.object(json))
            if let bounds = options.bounds,
               100 * ourRates.equalErrorRate > bounds.eer || 100 * ourRates.fmr1000 > bounds.fmr1000 {
                failed.append("\(name): EER \(AccuracyReport.percent(ourRates.equalErrorRate)), FMR1000 \(AccuracyReport.percent(ourRates.fmr1000)) "
                              + "(bounds \(bounds.eer) %, \(bounds.fmr1000) %)")
            }
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
                    throw CommandFailure(.ioError, "cannot write the DET picture \(file): \(error.localizedDescription)")
                }
                text += "DET curve of \(name): \(file)\n"
            }
        }
        text += "FVC2002 (if that is what was measured): D. Maio, D. Maltoni, R. Cappelli, J.L. Wayman, A.K. Jain, Proc. 16th ICPR, 2002.\n"
        invocation.emit(text, json: .object(["window": .string(options.window == .full ? "full" : "fpc1020"), "databases": .array(reports)]))
        guard failed.isEmpty else {
            throw CommandFailure(.denied, "accuracy below the bounds of --check: " + failed.joined(separator: "; "))
        }
        return .ok
    }
}
