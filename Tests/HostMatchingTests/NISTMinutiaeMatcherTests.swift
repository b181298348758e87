import Imaging
import Testing
@testable import HostMatching

/// The Swift matcher on impressions of the NIST prints at the FPC1020's 192×192 (±15°, ±12 px),
/// with seeds other than the bench's, so the threshold chosen there is checked on new pairs.
@Suite(.enabled(if: NIST.available, NIST.skipReason))
struct NISTMinutiaeMatcherTests {
    let matcher = MinutiaeMatcher()

    @Test func atSensorSizeAFingerIsFoundOrNobodyNeverAnother() throws {
        let prints = try NISTPrints.load(from: NIST.directory)
        let maker = ImpressionMaker()
        let templates = try prints.enumerated().map { finger, print in
            try matcher.enroll(images: maker.impressions(of: print.image, count: 8, seed: UInt64(finger + 40)))
        }
        let gallery = try MinutiaeGallery(templates)
        var found = 0, probes = 0
        for (finger, print) in prints.enumerated() {
            for index in 8..<12 {
                let probe = try matcher.probe(maker.impression(of: print.image, index: index, seed: UInt64(finger + 40)))
                let scores = matcher.scores(probe: probe, gallery: gallery)
                for (other, score) in scores.enumerated() where other != finger {
                    #expect(score < matcher.threshold, "\(print.name) scored \(score) against \(prints[other].name)")
                }
                let match = matcher.identify(probe: probe, gallery: gallery)
                #expect(match == nil || match?.index == finger, "\(print.name) identified as \(prints[match?.index ?? 0].name)")
                probes += 1
                if match?.index == finger { found += 1 }
            }
        }
        // The bench's false non-match rate at this threshold is ~16%; far worse means a regression.
        #expect(found * 10 >= probes * 7, "only \(found) of \(probes) probes were identified")
    }
}
