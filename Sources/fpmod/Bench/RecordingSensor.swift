import ImageSensor
import Posix
import Synchronization

/// The sensor the bench hands to the host reader: it forwards every call to the real (or
/// simulated) sensor and keeps the last image it delivered, so the matcher's own floor for
/// extract and search is measured on the very image the reader just matched.
final class RecordingSensor: ImageSensor {
    let sensor: any ImageSensor
    private let last = Mutex<SensorImage?>(nil)

    init(_ sensor: any ImageSensor) { self.sensor = sensor }

    var identity: SensorIdentity { sensor.identity }

    func reset() throws(ImageSensorError) { try sensor.reset() }

    func waitForFinger(deadline: ContinuousClock.Instant) throws(ImageSensorError) -> Bool {
        try sensor.waitForFinger(deadline: deadline)
    }

    func capture() throws(ImageSensorError) -> SensorImage {
        let image = try sensor.capture()
        last.withLock { $0 = image }
        return image
    }

    /// The image of the latest capture, once: nil when nothing was captured since the last call.
    func takeLastImage() -> SensorImage? {
        last.withLock { image in
            defer { image = nil }
            return image
        }
    }
}
