import Imaging
import Testing
@testable import HostMatching

/// The host matcher on impressions of the NIST prints (Debian 13's libfprint-2-tests; the CI
/// runs these in its Debian 13 tier). Skipped, saying so, where the prints are not installed.
@Suite(.enabled(if: NIST.available, NIST.skipReason))
struct NISTMatchingTests {
    let matcher = NBISMatcher()

    /// At the FPC1020's 192×192 with ±15° turns and ±12 px moves, no finger may pass for another.
    @Test func fingersAreNeverTakenForEachOtherAtSensorSize() throws {
        let prints = try NISTPrints.load(from: NIST.directory)
        let maker = ImpressionMaker()
        var templates: [HostTemplate] = []
        for (finger, print) in prints.enumerated() {
            templates.append(try matcher.enroll(images: maker.impressions(of: print.image, count: 8, seed: UInt64(finger + 1))))
        }
        for (finger, print) in prints.enumerated() {
            let probes = (8..<11).map { maker.impression(of: print.image, index: $0, seed: UInt64(finger + 1)) }
            for probe in probes {
                let others = templates.enumerated().filter { $0.offset != finger }
                for (index, template) in others {
                    let result = try matcher.verify(image: probe, template: template)
                    #expect(!result.matched, "\(print.name) matched \(prints[index].name) (score \(result.score ?? -1))")
                }
            }
        }
    }

    /// With the whole image and gentle differences, each finger is found in the gallery of all four.
    @Test func eachFingerIsIdentifiedAmongAllFour() throws {
        let prints = try NISTPrints.load(from: NIST.directory)
        var maker = Fingers.gentle
        maker.sensorWidth = 256
        maker.sensorHeight = 240
        let gallery = try prints.enumerated().map { finger, print in
            try matcher.enroll(images: maker.impressions(of: print.image, count: 6, seed: UInt64(finger + 20)))
        }
        for (finger, print) in prints.enumerated() {
            let probe = maker.impression(of: print.image, index: 9, seed: UInt64(finger + 20))
            let found = try matcher.identify(image: probe, gallery: gallery)
            #expect(found?.index == finger, "\(print.name) was identified as \(found.map { prints[$0.index].name } ?? "nobody")")
        }
    }

    @Test func theNISTFilesReadAsFingers() throws {
        for print in try NISTPrints.load(from: NIST.directory) {
            #expect(print.image.width >= 250 && print.image.height >= 234)
            #expect(FingerCoverage().evaluate(print.image).holdsFinger, "\(print.name) does not read as a finger")
        }
    }
}
