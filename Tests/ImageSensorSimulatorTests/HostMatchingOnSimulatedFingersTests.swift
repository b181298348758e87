import HostMatching
import ImageSensor
import Imaging
import Testing
@testable import ImageSensorSimulator
import TestSupport

/// The simulated sensor's impressions are ones the host matcher (threshold 45) matches: the
/// same finger identifies, another does not. What the door service and the CLI rely on.
@Suite struct HostMatchingOnSimulatedFingersTests {
    let matcher = MinutiaeMatcher()

    func captures(_ sensor: SimulatedImageSensor, _ finger: String, count: Int) throws -> [GreyImage] {
        try (0..<count).map { _ in
            sensor.touch(finger)
            return try sensor.captureFinger().image
        }
    }

    @Test(arguments: [UInt64(1), 2])
    func fiveGeneratedCapturesEnrollAndThreeMoreIdentify(seed: UInt64) throws {
        let sensor = try SimulatedImageSensor(seed: seed)
        try check(sensor)
    }

    @Test func fiveCapturesFromFilesEnrollAndThreeMoreIdentify() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        for finger in ["alice-right-index", "bob-left-thumb", "alice-left-index"] {
            try FingerImageFolder.write(finger: finger, captures: 8, directory: scratch.path)
        }
        try check(try SimulatedImageSensor(imagesDirectory: scratch.path))
    }

    private func check(_ sensor: SimulatedImageSensor) throws {
        let names = ["alice-right-index", "bob-left-thumb"]
        let templates = try names.map { try matcher.enroll(images: try captures(sensor, $0, count: 5)) }
        let gallery = try MinutiaeGallery(templates)
        for (index, name) in names.enumerated() {
            for probe in try captures(sensor, name, count: 3) {
                let match = try matcher.identify(image: probe, gallery: gallery)
                #expect(match?.index == index, "\(name): \(String(describing: match))")
            }
        }
        for probe in try captures(sensor, "alice-left-index", count: 3) {
            #expect(try matcher.identify(image: probe, gallery: gallery) == nil)
        }
    }
}
