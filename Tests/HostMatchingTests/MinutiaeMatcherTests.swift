import Imaging
import Testing
@testable import HostMatching
import TestSupport

/// Minutiae read out of libfprint's prints, and the Swift matcher on generated fingers.
@Suite struct MinutiaeMatcherTests {
    let matcher = MinutiaeMatcher()

    @Test func anEnrolledTemplateHoldsOneMinutiaListPerStage() throws {
        let template = try matcher.enroll(images: Fingers.impressions(finger: 201, count: 5))
        let images = try MinutiaeGallery.minutiae(of: template, index: 0)
        let stages = try matcher.enrollStages()
        #expect(images.count == stages)
        for minutiae in images {
            #expect(minutiae.count >= 10)
            #expect(minutiae.allSatisfy { (0..<256).contains($0.x) && (0..<256).contains($0.y) })
        }
    }

    @Test func aProbeGivesTheMinutiaeOfItsImageAlone() throws {
        let image = Fingers.impressions(finger: 202, count: 1)[0]
        let first = try matcher.probe(image), second = try matcher.probe(image)
        #expect(first.minutiaCount >= 10)
        #expect(first.xs == second.xs && first.ys == second.ys)
    }

    @Test func damagedPrintsAreErrorsNotCrashes() throws {
        let template = try matcher.enroll(images: Fingers.impressions(finger: 203, count: 5))
        let payload = Array(try TemplateEnvelope.unwrap(template.bytes).get())
        #expect(MinutiaeReader.images(inPrint: ArraySlice(Array("XY3".utf8) + payload.dropFirst(3))) == .failure(.notAPrint))
        // Cut short or with bytes flipped: GLib reads what is there, we check what it gives.
        for cut in [4, payload.count / 2, payload.count - 1] {
            if case .success(let images) = MinutiaeReader.images(inPrint: payload.prefix(cut)) {
                #expect(images.allSatisfy { $0.count <= MinutiaeReader.maximumPerImage })
            }
        }
        var flipped = payload
        for index in stride(from: 3, to: flipped.count, by: 7) { flipped[index] ^= 0x5A }
        if case .success(let images) = MinutiaeReader.images(inPrint: flipped[...]) {
            #expect(images.allSatisfy { $0.allSatisfy { (-180...180).contains($0.theta) } })
        }
        let error = expectThrows(HostMatchingError.self) { try MinutiaeGallery([HostTemplate(bytes: TemplateEnvelope.wrap(Array("FP3nonsense".utf8)))]) }
        guard case .unreadableTemplate(index: 0, _)? = error else { Issue.record("got \(String(describing: error))"); return }
    }

    @Test func theSameFingerMatchesAndOthersDoNot() throws {
        let gallery = try [204, 205, 206].map { (seed: UInt64) in try matcher.enroll(images: Fingers.impressions(finger: seed, count: 5)) }
        let prepared = try MinutiaeGallery(gallery)
        let found = try matcher.identify(image: Fingers.impressions(finger: 205, count: 1, from: 10)[0], gallery: prepared)
        #expect(found?.index == 1)
        #expect((found?.score ?? 0) >= matcher.threshold)
        for other: UInt64 in [207, 208] {
            let probe = Fingers.impressions(finger: other, count: 1, from: 10)[0]
            #expect(try matcher.identify(image: probe, gallery: prepared) == nil)
            let result = try matcher.verify(image: probe, template: gallery[0])
            #expect(!result.matched, "finger \(other) scored \(result.score)")
        }
        #expect(try matcher.verify(image: Fingers.impressions(finger: 204, count: 1, from: 11)[0], template: gallery[0]).matched)
        #expect(try matcher.identify(image: Fingers.impressions(finger: 204, count: 1)[0], gallery: [HostTemplate]()) == nil)
    }

    @Test func aBlankImageIsRefusedBeforeMatching() throws {
        let template = try matcher.enroll(images: Fingers.impressions(finger: 209, count: 5))
        let blank = GreyImage(width: 192, height: 192, filledWith: 255)
        let error = expectThrows(HostMatchingError.self) { try matcher.verify(image: blank, template: template) }
        guard case .unusableImage? = error else { Issue.record("got \(String(describing: error))"); return }
    }
}
