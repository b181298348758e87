import ImageSensor
import Posix
import Synchronization

/// The sensor the bench hands to the host reader: it forwards every call to the real (or
/// simulated) sensor and keeps the last image it delivered, so the matcher's own floor for
/// extract and search is measured on the very image the reader just matched.
public final class RecordingSensor: ImageSensor {
    public let sensor: any ImageSensor
    private let last = Mutex<SensorImage?>(nil)

    public init(_ sensor: any ImageSensor) { self.sensor = sensor }

    public var identity: SensorIdentity { sensor.identity }

    public func reset() throws(ImageSensorError) { try sensor.reset() }

    public func waitForFinger(deadline: ContinuousClock.Instant) throws(ImageSensorError) -> Bool {
        try sensor.waitForFinger(deadline: deadline)
    }

    public func capture() throws(ImageSensorError) -> SensorImage {
        let image = try sensor.capture()
        last.withLock { $0 = image }
        return image
    }

    /// The image of the latest capture, once: nil when nothing was captured since the last call.
    public func takeLastImage() -> SensorImage? {
        last.withLock { image in
            defer { image = nil }
            return image
        }
    }
}
