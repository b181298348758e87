import Foundation
import Testing
@testable import MinutiaeExtraction

/// The extractor's cleaning, on small patterns whose answer is known exactly: specks and pores
/// gone from the binarised ridges, spurs from the skeleton, and a broken ridge's two endings
/// removed as a pair while endings that do not face each other stay.
struct SkeletonCleaningTests {
    @Test func aSpeckOfRidgeAndAPoreAreRemovedButARidgeStays() {
        let width = 20, height = 10
        var mask = [UInt8](repeating: 0, count: width * height)
        // A ridge along row 5 (20 px), with a one-pixel pore in it; a 2-pixel speck at (2, 1).
        for x in 0..<width { mask[5 * width + x] = 1; mask[4 * width + x] = 1; mask[6 * width + x] = 1 }
        mask[5 * width + 10] = 0
        mask[1 * width + 2] = 1
        mask[1 * width + 3] = 1
        BinaryCleanup.removeSmallComponents(&mask, width: width, height: height, of: 1, smallerThan: 20)
        #expect(mask[1 * width + 2] == 0 && mask[1 * width + 3] == 0, "the speck is gone")
        #expect(mask[5 * width + 0] == 1 && mask[5 * width + 19] == 1, "the ridge (60 px) stays")
        BinaryCleanup.removeSmallComponents(&mask, width: width, height: height, of: 0, smallerThan: 30)
        #expect(mask[5 * width + 10] == 1, "the pore is filled")
        #expect(mask[0] == 0, "the valley around stays")
    }

    @Test func aShortSpurIsPrunedAndTheRidgeItHangsFromStays() {
        let width = 30, height = 12
        var skeleton = [UInt8](repeating: 0, count: width * height)
        for x in 2..<28 { skeleton[6 * width + x] = 1 }       // the ridge
        for y in 3..<6 { skeleton[y * width + 15] = 1 }      // a 3-pixel spur up from (15, 6)
        BinaryCleanup.pruneSpurs(&skeleton, width: width, height: height, shorterThan: 6)
        #expect((3..<6).allSatisfy { skeleton[$0 * width + 15] == 0 }, "the spur is gone")
        #expect((2..<28).allSatisfy { skeleton[6 * width + $0] == 1 }, "the ridge is whole")
    }

    @Test func twoEndingsFacingAcrossAGapAreOneBrokenRidge() {
        // An ending's angle points into its own ridge: the left piece runs left (angle π), the
        // right piece right (angle 0); the gap between them is 10 px.
        let left = RidgeMinutia(x: 40, y: 50, angle: .pi, kind: .ending, quality: 1)
        let right = RidgeMinutia(x: 50, y: 50, angle: 0, kind: .ending, quality: 1)
        #expect(SkeletonMinutiae.removingBrokenRidges([left, right], distance: 20, angle: 0.5).isEmpty)
        // Too far apart, side by side (not facing), or a fork: all kept.
        let far = RidgeMinutia(x: 70, y: 50, angle: 0, kind: .ending, quality: 1)
        #expect(SkeletonMinutiae.removingBrokenRidges([left, far], distance: 20, angle: 0.5).count == 2)
        let parallel = RidgeMinutia(x: 40, y: 60, angle: .pi, kind: .ending, quality: 1)
        #expect(SkeletonMinutiae.removingBrokenRidges([left, parallel], distance: 20, angle: 0.5).count == 2)
        let fork = RidgeMinutia(x: 50, y: 50, angle: 0, kind: .bifurcation, quality: 1)
        #expect(SkeletonMinutiae.removingBrokenRidges([left, fork], distance: 20, angle: 0.5).count == 2)
    }
}
