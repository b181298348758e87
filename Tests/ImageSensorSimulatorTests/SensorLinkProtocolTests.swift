import ImageSensor
import Imaging
import Testing
@testable import ImageSensorSimulator

/// The link's line encoding on its own: what goes out comes back the same.
@Suite struct SensorLinkProtocolTests {
    @Test func identitiesAndImagesRoundTrip() throws {
        let identity = SensorIdentity(model: "FPC1020A (simulated)", hardwareID: nil, width: 192, height: 192, dotsPerInch: 508,
                                      connection: "simulation (images from /tmp/a b)")
        #expect(SensorLinkProtocol.identity(from: SensorLinkProtocol.identityReply(identity)) == identity)
        let image = try SensorImage(width: 3, height: 2, pixels: [0, 1, 2, 253, 254, 255])
        #expect(SensorLinkProtocol.image(from: SensorLinkProtocol.imageReply(image)) == image)
        // A length that does not match the size is no image.
        #expect(SensorLinkProtocol.image(from: "ok image 3 3 AAECAw==") == nil)
        #expect(SensorLinkProtocol.identity(from: "ok placed alice") == nil)
    }

    @Test func errorsRoundTripAndForeignOnesNameTheLink() {
        for error: ImageSensorError in [.noImages(folder: "/x/alice"), .unreadableImage(path: "/x/a.png", reason: "bad\nfile")] {
            let decoded = SensorLinkProtocol.error(from: SensorLinkProtocol.errorReply(error), path: "/link")
            if case .unreadableImage = error {
                #expect(decoded == .unreadableImage(path: "/x/a.png", reason: "bad file"))
            } else {
                #expect(decoded == error)
            }
        }
        let other = SensorLinkProtocol.error(from: SensorLinkProtocol.errorReply(.interruptStuck), path: "/link")
        guard case .sensorLink("/link", let problem)? = other else { Issue.record("got \(String(describing: other))"); return }
        #expect(problem.contains("IRQ line stays high"))
        #expect(SensorLinkProtocol.error(from: "ok down", path: "/link") == nil)
    }
}
