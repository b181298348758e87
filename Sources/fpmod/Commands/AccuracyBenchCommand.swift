import ArgumentParsing
import Benchmarks
import Foundation
import HostMatching
import Imaging
import JSONValue
import MatcherAccuracy
import MinutiaeExtraction
import PrintableText

/// `fpmod bench accuracy DIR`: the FVC protocol on real impressions, fpmod's matcher and NBIS
/// side by side (docs/accuracy.md). DIR is a folder of NNN_K.png images, or a folder of such
/// folders (FVC2002's DB1_B … DB4_B).
enum AccuracyBenchCommand {
    static func run(_ invocation: Invocation, folder path: String) throws -> ExitCode {
        let parsed = invocation.parsed
        var options = AccuracyBench.Options()
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
            guard (2...3).contains(parts.count), parts.allSatisfy({ $0.map { (0...100).contains($0) } ?? false }) else {
                throw CommandFailure(.usage, "--check takes two percentages, EER and FMR1000, and with --door a third, the later touches "
                                     + "the door may miss, e.g. --check 20,60 or --check 20,60,35; got '\(check)'.")
            }
            guard parts.count == 2 || options.door else {
                throw CommandFailure(.usage, "--check's third percentage bounds the door's misses: give --door with it.")
            }
            options.bounds = (parts[0]!, parts[1]!, parts.count == 3 ? parts[2] : nil)
        }
        let databases: [FVCFolder]
        do { databases = try FVCFolder.databases(under: path) } catch { throw CommandFailure(.usage, error.description) }
        if options.door, let short = databases.first(where: { $0.impressions.count <= DoorRun.enrolled.count }) {
            throw CommandFailure(.usage, "--door enrolls impressions 1–\(DoorRun.enrolled.count) and identifies the later ones, but \(short.path) holds "
                                 + "\(short.impressions.count) impressions per finger; use a set with at least \(DoorRun.enrolled.count + 1) (the FVC sets have 8).")
        }
        // Both files checked before minutes of measuring: the earlier run read whole, the new
        // file's folder writable.
        if let path = parsed.string("against") {
            let earlier = try AccuracyScoresFile.read(path)
            let window = options.window == .full ? "full" : "fpc1020"
            guard earlier.window == window else {
                throw CommandFailure(.usage, "--against \(Printable.escaped(path)) holds a run on \(earlier.window == "full" ? "whole images" : "the sensor's window"); "
                                     + "compare like with like: \(earlier.window == "full" ? "add" : "drop") --full.")
            }
            options.against = earlier
        }
        if let save = parsed.string("save-scores") {
            let folder = (save as NSString).deletingLastPathComponent
            guard FileManager.default.isWritableFile(atPath: folder.isEmpty ? "." : folder) else {
                throw CommandFailure(.usage, "--save-scores \(Printable.escaped(save)): its folder is not writable; give a path where the scores can be written.")
            }
            options.saveScores = save
        }
        if let det = options.det, !FileManager.default.isWritableFile(atPath: (det as NSString).deletingLastPathComponent.isEmpty ? "." : (det as NSString).deletingLastPathComponent) {
            throw CommandFailure(.usage, "--det \(det): its folder is not writable; give a path where the SVG can be written.")
        }

        let result = try AccuracyBench.run(options, databases: databases, progress: invocation.progress)
        invocation.emit(result.text, json: result.json)
        guard result.failed.isEmpty else {
            throw CommandFailure(.denied, "accuracy below the bounds of --check: " + result.failed.joined(separator: "; "))
        }
        return .ok
    }
}
