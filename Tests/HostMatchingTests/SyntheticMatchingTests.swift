import Imaging
import Testing
@testable import HostMatching
import TestSupport

/// Enroll, verify and identify through libfprint's NBIS on generated fingers: runs everywhere
/// libfprint does, no image files needed.
@Suite struct SyntheticMatchingTests {
    let matcher = NBISMatcher()

    @Test func anotherImpressionOfTheSameFingerMatches() throws {
        let template = try matcher.enroll(images: Fingers.impressions(finger: 101, count: 5))
        #expect(!template.bytes.isEmpty)
        let result = try matcher.verify(image: Fingers.impressions(finger: 101, count: 1, from: 10)[0], template: template)
        #expect(result.matched)
        #expect((result.score ?? 0) >= matcher.threshold)
    }

    @Test func aDifferentFingerDoesNotMatch() throws {
        let template = try matcher.enroll(images: Fingers.impressions(finger: 102, count: 5))
        for other: UInt64 in [103, 104, 105] {
            let probe = Fingers.impressions(finger: other, count: 1, from: 10)[0]
            let result = try matcher.verify(image: probe, template: template)
            #expect(!result.matched, "finger \(other) matched finger 102 with score \(result.score ?? -1)")
            #expect((result.score ?? 0) < matcher.threshold)
            #expect(try matcher.identify(image: probe, gallery: [template]) == nil)
        }
    }

    @Test func identifyFindsTheFingerInAGallery() throws {
        let gallery = try [106, 107, 108].map { (seed: UInt64) in try matcher.enroll(images: Fingers.impressions(finger: seed, count: 5)) }
        let found = try matcher.identify(image: Fingers.impressions(finger: 107, count: 1, from: 10)[0], gallery: gallery)
        #expect(found?.index == 1)
        #expect((found?.score ?? 0) >= matcher.threshold)
        #expect(try matcher.identify(image: Fingers.impressions(finger: 109, count: 1)[0], gallery: gallery) == nil)
        #expect(try matcher.identify(image: Fingers.impressions(finger: 107, count: 1)[0], gallery: []) == nil)
    }

    @Test func blankImagesCannotEnrollAndTheMatcherStillWorksAfterwards() throws {
        let blank = GreyImage(width: 192, height: 192, filledWith: 255)
        let error = expectThrows(HostMatchingError.self) { try matcher.enroll(images: Array(repeating: blank, count: 6)) }
        #expect(error == .notEnoughUsableImages(needed: 5, accepted: 0, rejectedIndices: [0, 1, 2, 3, 4, 5]))
        // Rejected images among good ones are skipped, and the enrollment completes.
        var mixed = Fingers.impressions(finger: 110, count: 5)
        mixed.insert(blank, at: 2)
        let template = try matcher.enroll(images: mixed)
        #expect(try matcher.verify(image: Fingers.impressions(finger: 110, count: 1, from: 10)[0], template: template).matched)
    }

    @Test func aBlankProbeIsUnusableNotANonMatch() throws {
        let template = try matcher.enroll(images: Fingers.impressions(finger: 111, count: 5))
        let blank = GreyImage(width: 192, height: 192, filledWith: 255)
        let error = expectThrows(HostMatchingError.self) { try matcher.identify(image: blank, gallery: [template]) }
        guard case .unusableImage(let reason) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains("0% of the image shows ridges"))
        // Ridges on a quarter of the sensor are refused too, by verify as by identify.
        var corner = blank
        let finger = Fingers.impressions(finger: 111, count: 1, from: 10)[0].fitted(width: 192, height: 192)
        for y in 0..<96 { for x in 0..<96 { corner[x, y] = finger[x, y] } }
        let partial = expectThrows(HostMatchingError.self) { try matcher.verify(image: corner, template: template) }
        guard case .unusableImage = partial else { Issue.record("got \(String(describing: partial))"); return }
    }

    @Test func damagedTemplatesAreRefusedByPosition() throws {
        let good = try matcher.enroll(images: Fingers.impressions(finger: 112, count: 5))
        var damaged = good.bytes
        damaged.removeLast(damaged.count / 2)
        let probe = Fingers.impressions(finger: 112, count: 1, from: 10)[0]
        let error = expectThrows(HostMatchingError.self) {
            try matcher.identify(image: probe, gallery: [good, HostTemplate(bytes: damaged)])
        }
        guard case .unreadableTemplate(let index, _) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(index == 1)
    }

    @Test func imagesTooLargeForTheDeviceAreRefusedBeforeSending() throws {
        let template = try matcher.enroll(images: Fingers.impressions(finger: 113, count: 5))
        let huge = GreyImage(width: 5001, height: 2, filledWith: 128)
        let error = expectThrows(HostMatchingError.self) { try matcher.verify(image: huge, template: template) }
        #expect(error == .imageTooLarge(width: 5001, height: 2, limit: 5000))
        // The connection to the device is still usable.
        #expect(try matcher.verify(image: Fingers.impressions(finger: 113, count: 1, from: 10)[0], template: template).matched)
    }

    @Test func aStricterThresholdOnlyTakesMatchesAway() throws {
        let gallery = try [114, 115].map { (seed: UInt64) in try matcher.enroll(images: Fingers.impressions(finger: seed, count: 5)) }
        let probe = Fingers.impressions(finger: 115, count: 1, from: 10)[0]
        let found = try #require(try matcher.identify(image: probe, gallery: gallery))
        #expect(found.index == 1)
        // Just above the score it matched with: the same finger no longer passes, by either call.
        let strict = NBISMatcher(threshold: found.score + 1)
        #expect(try strict.identify(image: probe, gallery: gallery) == nil)
        #expect(try !strict.verify(image: probe, template: gallery[1]).matched)
        #expect(try NBISMatcher(threshold: found.score).identify(image: probe, gallery: gallery)?.index == 1)
        // Below libfprint's own threshold is not possible: it decides first.
        #expect(NBISMatcher(threshold: 10).threshold == NBISMatcher.libfprintThreshold)
    }

    @Test func scoresAreReadFromLibfprintsLogLines() {
        #expect(BozorthScores.parse("score 57/40") == 57)
        #expect(BozorthScores.parse("score x/40") == nil)
        #expect(BozorthScores.parse("image data: 0x1234") == nil)
    }
}

/// The frame that keeps damaged bytes away from libfprint's deserializer (which aborts on them).
@Suite struct TemplateEnvelopeTests {
    @Test func intactFramesGiveBackTheirPayload() throws {
        let payload: [UInt8] = Array("a print".utf8)
        #expect(try TemplateEnvelope.unwrap(TemplateEnvelope.wrap(payload)).get() == payload[...])
        // zlib's CRC-32 of "123456789".
        #expect(TemplateEnvelope.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func everyKindOfDamageIsNamed() {
        let framed = TemplateEnvelope.wrap(Array(repeating: 7, count: 40))
        var flipped = framed
        flipped[20] ^= 1
        var otherVersion = framed
        otherVersion[4] = 9
        let cases: [([UInt8], String)] = [
            (Array(framed.dropLast()), "holds 39 of its 40 bytes"),
            (flipped, "checksum"),
            (otherVersion, "format 9"),
            (Array("FP3 raw libfprint bytes".utf8), "header"),
        ]
        for (bytes, words) in cases {
            guard case .failure(let damage) = TemplateEnvelope.unwrap(bytes) else {
                Issue.record("damage went unnoticed: \(words)")
                continue
            }
            #expect(damage.description.contains(words))
        }
    }
}
