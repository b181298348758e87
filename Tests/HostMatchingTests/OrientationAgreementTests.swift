import Glibc
@testable import HostMatching
import MinutiaeExtraction
import Testing

/// The ridges' flow weighed in the comparison's last step: a print agrees with itself, with a
/// copy turned and shifted once the placement says so, not with a flow crossing it, and a print
/// without directions (or without overlap) is weighed as the rules say.
@Suite struct OrientationAgreementTests {
    /// A 192 × 192 print, all of it foreground, whose ridges run at `direction(x, y)`, turned by
    /// `turn` about the origin and then shifted by (dx, dy): the direction at each block's centre is
    /// the field's at the point that block came from.
    static func print(turn: Float = 0, dx: Float = 0, dy: Float = 0, withDirections: Bool = true,
                      _ direction: (Float, Float) -> Float) -> CylinderTemplate {
        let c = cos(-turn), s = sin(-turn)
        var orientations: [Float] = []
        for row in 0..<24 {
            for column in 0..<24 {
                let x = Float(column * 8) + 4 - dx, y = Float(row * 8) + 4 - dy
                // Back to the unturned print, and the direction there turned forward.
                let (u, v) = (c * x - s * y, s * x + c * y)
                var angle = (direction(u, v) + turn).truncatingRemainder(dividingBy: .pi)
                if angle < 0 { angle += .pi }
                orientations.append(angle)
            }
        }
        let print = ExtractedPrint(width: 192, height: 192, minutiae: [], blockSize: 8, blocksAcross: 24, blocksDown: 24,
                                   foreground: Array(repeating: true, count: 576), orientations: withDirections ? orientations : [],
                                   quality: PrintQuality(score: 80, area: 1, clarity: 0.6))
        return CylinderTemplate(print)
    }

    /// A loop-like flow: the direction turns with the position, so a wrong placement disagrees.
    static func loop(_ x: Float, _ y: Float) -> Float { atan2(y - 96, x - 96) + .pi / 2 }

    @Test func aPrintAgreesWithItselfAndWithATurnedCopyPlacedRight() {
        let a = Self.print(Self.loop)
        let identity = OrientationAgreement.Placement(turn: 0, shiftX: 0, shiftY: 0)
        #expect(OrientationAgreement.mean(a, a, identity) > 0.99)
        // Full agreement over the whole crop (every other block each way: 144 compared), shrunk by the prior.
        let prior = OrientationAgreement.priorAgreement, blocks = OrientationAgreement.priorBlocks
        let whole = (144 + blocks * prior) / (144 + blocks)
        #expect(abs(OrientationAgreement.factor(a, a, identity) - whole * whole) < 1e-4)
        // The same finger turned by 0.3 rad and shifted: placed by that motion, it agrees again.
        let turned = Self.print(turn: 0.3, dx: 20, dy: -10, Self.loop)
        let right = OrientationAgreement.Placement(turn: 0.3, shiftX: 20, shiftY: -10)
        #expect(OrientationAgreement.mean(a, turned, right) > 0.95)
        // Placed without the turn, it disagrees.
        #expect(OrientationAgreement.mean(a, turned, identity) < OrientationAgreement.mean(a, turned, right) - 0.1)
    }

    @Test func aCrossingFlowDisagreesAndCostsTheWholeScore() {
        let along = Self.print { _, _ in 0.2 }
        let across = Self.print { _, _ in 0.2 + .pi / 2 }
        let identity = OrientationAgreement.Placement(turn: 0, shiftX: 0, shiftY: 0)
        #expect(OrientationAgreement.mean(along, across, identity) < -0.99)
        #expect(OrientationAgreement.factor(along, across, identity) == 0)
        // A direction and the same turned by π are one direction.
        let flipped = Self.print { _, _ in 0.2 + .pi - 0.001 }
        #expect(OrientationAgreement.mean(along, flipped, identity) > 0.99)
    }

    @Test func unknownDirectionsWeighNothingAndNoOverlapGivesThePrior() {
        let known = Self.print(Self.loop), unknown = Self.print(withDirections: false, Self.loop)
        let identity = OrientationAgreement.Placement(turn: 0, shiftX: 0, shiftY: 0)
        #expect(OrientationAgreement.factor(known, unknown, identity) == 1)
        let away = OrientationAgreement.Placement(turn: 0, shiftX: 1_000, shiftY: 0)
        // No block compared: the prior agreement alone.
        let prior = OrientationAgreement.priorAgreement
        #expect(OrientationAgreement.factor(known, known, away) == prior * prior)
    }
}
