@testable import HostMatching
import Imaging
import MinutiaeExtraction
import Testing

/// The ridges laid on each other (`RidgeAgreement`): the same ridges agree exactly, a placement
/// a few pixels across the ridges is found again by the moves, a stranger's ridges agree by
/// chance only, and a print without ridges is left to the other factors. And the extractor's
/// ridge map lies where the image's ridges are.
@Suite struct RidgeAgreementTests {
    /// A 192 × 192 print, all of it print, with its ridges where `ridge(x, y)` says and its
    /// blocks' direction `direction` (radians, 0 ..< π).
    static func print(direction: Float = 0, ridge: (Int, Int) -> Bool) -> CylinderTemplate {
        let pixels = (0..<(192 * 192)).map { UInt8(ridge($0 % 192, $0 / 192) ? 1 : 0) }
        let foreground = [Bool](repeating: true, count: 24 * 24)
        let print = ExtractedPrint(width: 192, height: 192, minutiae: [], blockSize: 8, blocksAcross: 24, blocksDown: 24,
                                   foreground: foreground, orientations: foreground.map { _ in direction },
                                   ridges: RidgeMap(width: 192, height: 192, pixels: pixels) { _, _ in true },
                                   quality: PrintQuality(score: 80, area: 1, clarity: 0.6))
        return CylinderTemplate(print)
    }

    /// Pixel noise, half of it ridge, from a seed (SplitMix64 of the seed and the pixel).
    static func noise(_ seed: UInt64) -> (Int, Int) -> Bool {
        { x, y in
            var z = seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(y * 192 + x) &* 0xD1B5_4A32_D192_ED03
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return (z ^ (z >> 31)) >> 40 & 1 == 1
        }
    }

    static let still = OrientationAgreement.Placement(turn: 0, shiftX: 0, shiftY: 0)

    @Test func theSameRidgesInPlaceAgreeOnEverySample() {
        let a = Self.print(ridge: Self.noise(1))
        let factor = RidgeAgreement.factor(a, a, anchorX: 96, anchorY: 96, placement: Self.still)
        // Every one of the disc's samples lies on both prints and agrees: (n + 10) / (n + 20), squared.
        let n = Float(RidgeAgreement.maximumSamples)
        #expect(factor == ((n + 10) / (n + 20)) * ((n + 10) / (n + 20)))
        #expect(factor.bitPattern == referenceRidgeFactor(a, a, anchorX: 96, anchorY: 96, Self.still).bitPattern)
    }

    @Test func aPlacementAFewPixelsAcrossTheRidgesIsMovedBack() {
        // Ridges running down the image, 10 px apart (about a real finger's at 500 dpi): the
        // normal runs along x. A placement 3 px off across them lays ridge on valley for most
        // pixels; one of the moves lays them right.
        let stripes = Self.print(direction: .pi / 2) { x, _ in x % 10 < 5 }
        for offset: Float in [-3, 2, 3] {
            let placement = OrientationAgreement.Placement(turn: 0, shiftX: offset, shiftY: 0)
            let factor = RidgeAgreement.factor(stripes, stripes, anchorX: 96, anchorY: 96, placement: placement)
            #expect(factor > 0.9, "\(offset) px across the ridges: \(factor)")
            #expect(factor.bitPattern == referenceRidgeFactor(stripes, stripes, anchorX: 96, anchorY: 96, placement).bitPattern)
        }
        // Beyond the moves' reach along the normal (and along the ridges a move changes nothing):
        // a placement half a period off with ridges 20 px apart stays crossed.
        let wide = Self.print(direction: .pi / 2) { x, _ in x % 20 < 10 }
        let crossed = RidgeAgreement.factor(wide, wide, anchorX: 96, anchorY: 96,
                                            placement: OrientationAgreement.Placement(turn: 0, shiftX: 10, shiftY: 0))
        #expect(crossed < 0.5)
    }

    @Test func aStrangersRidgesAgreeByChanceOnly() {
        let a = Self.print(ridge: Self.noise(2)), b = Self.print(ridge: Self.noise(3))
        let factor = RidgeAgreement.factor(a, b, anchorX: 96, anchorY: 96, placement: Self.still)
        // About half the samples agree: (n/2 + 10) / (n + 20) ≈ ½, squared ≈ ¼.
        #expect(factor > 0.15 && factor < 0.36, "factor \(factor)")
        #expect(factor.bitPattern == referenceRidgeFactor(a, b, anchorX: 96, anchorY: 96, Self.still).bitPattern)
    }

    @Test func withoutRidgesTheFactorIsLeftOut() {
        let a = Self.print(ridge: Self.noise(4))
        var bare = ExtractedPrint(width: 192, height: 192, minutiae: [], blockSize: 8, blocksAcross: 24, blocksDown: 24,
                                  foreground: [Bool](repeating: true, count: 576), quality: PrintQuality(score: 80, area: 1, clarity: 0.6))
        #expect(RidgeAgreement.factor(a, CylinderTemplate(bare), anchorX: 96, anchorY: 96, placement: Self.still) == 1)
        #expect(RidgeAgreement.factor(CylinderTemplate(bare), a, anchorX: 96, anchorY: 96, placement: Self.still) == 1)
        // Ridges known but no print around the anchor: nothing compared, the prior alone (½ squared).
        bare.ridges = RidgeMap(width: 192, height: 192, tiles: [UInt64](repeating: 0, count: 576))
        bare.foreground = bare.foreground.map { _ in false }
        #expect(RidgeAgreement.factor(CylinderTemplate(bare), a, anchorX: 96, anchorY: 96, placement: Self.still) == 0.25)
        // Laid off B's image altogether: likewise.
        let away = OrientationAgreement.Placement(turn: 0, shiftX: 500, shiftY: -500)
        #expect(RidgeAgreement.factor(a, a, anchorX: 96, anchorY: 96, placement: away) == 0.25)
        #expect(referenceRidgeFactor(a, a, anchorX: 96, anchorY: 96, away) == 0.25)
    }

    @Test func theExtractorsRidgesAreTheImagesDarkLinesOnThePrintOnly() throws {
        let image = Fingers.impressions(finger: 7, count: 1)[0]
        let print = RidgeExtractor().extract(image)
        let ridges = print.ridges
        #expect(ridges.width == image.width && ridges.height == image.height)
        var onPrint = 0, ridge = 0, offPrint = 0
        var ridgeGrey = 0, valleyGrey = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let isRidge = ridges.isRidge(x: x, y: y), grey = Int(image.pixels[y * image.width + x])
                guard print.isForeground(x: Float(x), y: Float(y)) else {
                    if isRidge { offPrint += 1 }
                    continue
                }
                onPrint += 1
                if isRidge {
                    ridge += 1
                    ridgeGrey += grey
                } else {
                    valleyGrey += grey
                }
            }
        }
        #expect(offPrint == 0)
        #expect(onPrint > 20_000)
        // About half of a print is ridge, and the ridge pixels are the dark ones.
        let share = Double(ridge) / Double(onPrint)
        #expect(share > 0.3 && share < 0.7, "\(share)")
        let darker = Double(valleyGrey) / Double(onPrint - ridge) - Double(ridgeGrey) / Double(ridge)
        #expect(darker > 40, "ridge pixels only \(darker) grey levels darker than the valleys'")
    }
}
