import Foundation
import Imaging
@testable import MatcherAccuracy
import Testing
import TestSupport

/// The FVC error rates against small cases worked out by hand.
@Suite struct ErrorRatesTests {
    @Test func separatedScoresHaveNoErrors() {
        let rates = ErrorRates(genuine: [10, 11, 12], impostor: [1, 2, 3, 4])
        #expect(rates.equalErrorRate == 0)
        #expect(rates.fmr100 == 0 && rates.fmr1000 == 0 && rates.zeroFMR == 0)
    }

    @Test func theEqualErrorRateIsWhereTheRatesCross() {
        // Genuine 1…10, impostor 0…9 (10 each): at t = 1, FNMR 0 and FMR 0.9; each step up
        // trades 0.1 of one for 0.1 of the other; they cross between t = 5 (FNMR 0.4, FMR 0.5)
        // and t = 6 (FNMR 0.5, FMR 0.4): FVC's estimate is the middle, 0.45.
        let rates = ErrorRates(genuine: (1...10).map(Double.init), impostor: (0...9).map(Double.init))
        #expect(abs(rates.equalErrorRate - 0.45) < 1e-9)
        // No false match at all needs t = 10: FNMR 0.9.
        #expect(abs(rates.zeroFMR - 0.9) < 1e-9)
    }

    @Test func fmr1000NeverSplitsATieAtTheThreshold() {
        // 2,000 impostors, two scoring 50: 0.1 % is two false matches, so any threshold above 1
        // will do, and the genuine 49 passes.
        let two = [Double](repeating: 1, count: 1998) + [50, 50]
        #expect(ErrorRates(genuine: [49, 50, 60, 70], impostor: two).fmr1000 == 0)
        #expect(ErrorRates.threshold(impostor: two, atMostFMR: 0.001) == Double(1).nextUp)
        // Three scoring 50: letting one of them through lets all three through, so the threshold
        // must rise above 50, and the genuine 49 and 50 are missed.
        let three = [Double](repeating: 1, count: 1997) + [50, 50, 50]
        let rates = ErrorRates(genuine: [49, 50, 60, 70], impostor: three)
        #expect(rates.fmr1000 == 0.5)
        #expect(rates.zeroFMR == 0.5)
        #expect(ErrorRates.threshold(impostor: three, atMostFMR: 0.001) == Double(50).nextUp)
    }

    @Test func aRefusedImageIsAMiss() {
        let refused = -Double.greatestFiniteMagnitude
        let rates = ErrorRates(genuine: [refused, 10, 10, 10], impostor: [1, 2])
        #expect(rates.zeroFMR == 0.25)
    }
}

/// File names, pair counts and the DET picture.
@Suite struct FVCProtocolTests {
    func folder(fingers: Int, impressions: Int, extra: [String] = []) throws -> String {
        let path = NSTemporaryDirectory() + "fpmod-fvc-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for f in 0..<fingers {
            for k in 1...impressions { _ = FileManager.default.createFile(atPath: "\(path)/\(101 + f)_\(k).png", contents: Data()) }
        }
        for name in extra { _ = FileManager.default.createFile(atPath: "\(path)/\(name)", contents: Data()) }
        return path
    }

    @Test func aTenByEightFolderIsReadInOrder() throws {
        let path = try folder(fingers: 10, impressions: 8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let set = try FVCFolder(path: path)
        #expect(set.fingers == Array(101...110))
        #expect(set.impressions == Array(1...8))
        #expect(set.file(finger: 103, impression: 2) == path + "/103_2.png")
    }

    @Test func badNamesAndUnevenSetsAreRefusedNamingTheFix() throws {
        let bad = try folder(fingers: 2, impressions: 2, extra: ["scan.png"])
        defer { try? FileManager.default.removeItem(atPath: bad) }
        #expect(throws: AccuracyError.badName(name: "scan.png", folder: bad)) { try FVCFolder(path: bad) }
        let uneven = try folder(fingers: 2, impressions: 2, extra: ["101_3.png"])
        defer { try? FileManager.default.removeItem(atPath: uneven) }
        #expect(throws: AccuracyError.unevenImpressions(folder: uneven)) { try FVCFolder(path: uneven) }
        #expect(AccuracyError.badName(name: "scan.png", folder: bad).description.contains("NNN_K.png"))
    }

    /// A scorer that needs no matcher: equal for images of one finger, apart otherwise.
    struct FingerOracle: PairScorer {
        let name = "oracle"
        let impressions: Int
        mutating func prepare(_ index: Int, image: GreyImage) throws -> Bool { index != 4 }
        mutating func score(_ a: Int, _ b: Int) throws -> Double { a / impressions == b / impressions ? 1 : 0 }
    }

    @Test(.disabled(if: FVC2002.skipped, FVC2002.skipReason)) func thePairsAreFVCsOnARealFolder() throws {
        let path = NSTemporaryDirectory() + "fpmod-fvc-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for finger in 101...103 {
            for impression in 1...3 {
                try FileManager.default.copyItem(atPath: "\(FVC2002.directory)/DB3_B/\(finger)_\(impression).png", toPath: "\(path)/\(finger)_\(impression).png")
            }
        }
        var oracle = FingerOracle(impressions: 3)
        let scores = try PairScores.measure(&oracle, folder: try FVCFolder(path: path), window: .sensor(side: 192))
        #expect(scores.genuine.count == 3 * 3)
        #expect(scores.allImpostor.count == 9 * 8 / 2 - 9)
        #expect(scores.fvcImpostor.count == 3)
        #expect(scores.refused == 1 && scores.images == 9)
        // Image 4 (finger 102's second) was refused: its two genuine pairs count as misses.
        let rates = ErrorRates(genuine: scores.genuine, impostor: scores.allImpostor)
        #expect(abs(rates.zeroFMR - 2.0 / 9) < 1e-9)
    }

    @Test func theDETPictureIsWellFormedSVG() throws {
        let svg = DETPicture.svg(title: "DB <test>", curves: [.init(label: "fpmod", genuine: [5, 6, 7], impostor: [1, 2, 6])])
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"))
        #expect(svg.contains("DB &lt;test&gt;"))
        #expect(svg.contains("<polyline"))
        // Every element opened is closed or self-closing.
        #expect(svg.components(separatedBy: "<text").count == svg.components(separatedBy: "</text>").count)
    }
}
