import FingerprintModule
import FingerprintProtocol
import ImageSensor
import Imaging

/// One finger's image from the reader, for `fpmod capture` and a console's placement preview:
/// waits for a finger, then uploads the module's image or reads the sensor's. A sensor's image
/// comes with its coverage, so a front end can keep a bad placement to look at and still refuse it.
public enum FingerCapture {
    /// The image, and for an image sensor how much of it holds a finger.
    public struct Captured {
        public let image: FingerprintImage
        public let coverage: FingerCoverage.Result?
    }

    /// Nobody touched the sensor before the timeout.
    public struct NoFingerInTime: Error, CustomStringConvertible, Sendable {
        public init() {}
        public var description: String { "No finger was placed on the sensor in time. Try again, pressing the whole fingertip flat." }
    }

    /// From a module: GenImg polled until it captures (no touch line on the CLI's path; each
    /// round trip is a few ms of wire time), then the image uploaded.
    public static func capture(from module: FingerprintModule, timeout: Duration, progress: (String) -> Void) throws -> Captured {
        progress("Place your finger on the sensor.")
        let deadline = ContinuousClock.now + timeout
        while try module.captureImage() != .captured {
            if ContinuousClock.now >= deadline { throw NoFingerInTime() }
        }
        let size = module.imageSize
        progress("Captured; reading the \(size.width)×\(size.height) image from the module…")
        return Captured(image: try module.uploadImage(), coverage: nil)
    }

    /// From an image sensor: its finger detection waited on, the image read and judged.
    public static func capture(from sensor: any ImageSensor, timeout: Duration, progress: (String) -> Void) throws -> Captured {
        progress("Place your finger on the sensor.")
        guard try sensor.waitForFinger(deadline: .now + timeout) else { throw NoFingerInTime() }
        let image = try sensor.capture()
        return Captured(image: try FingerprintImage(width: image.width, height: image.height, pixels: image.pixels),
                        coverage: FingerCoverage().evaluate(image))
    }
}
