import Imaging

/// What an image sensor is: its model, size and resolution, and how it was reached.
public struct SensorIdentity: Sendable, Equatable, CustomStringConvertible {
    /// "FPC1020A".
    public var model: String
    /// The value of the sensor's hardware-id register, when it has one.
    public var hardwareID: UInt16?
    public var width: Int
    public var height: Int
    public var dotsPerInch: Int
    /// Where it is attached, e.g. "/dev/spidev0.0 (mode 0, 4000000 Hz)".
    public var connection: String

    public init(model: String, hardwareID: UInt16?, width: Int, height: Int, dotsPerInch: Int, connection: String) {
        self.model = model
        self.hardwareID = hardwareID
        self.width = width
        self.height = height
        self.dotsPerInch = dotsPerInch
        self.connection = connection
    }

    public var description: String {
        let id = hardwareID.map { " (hardware id \(hexText($0, digits: 4)))" } ?? ""
        return "\(model)\(id), \(width)×\(height) at \(dotsPerInch) dpi on \(connection)"
    }
}

/// A bare fingerprint sensor that delivers raw images and leaves matching to the host: the
/// FPC1020 over SPI, or a simulated sensor serving image files.
public protocol ImageSensor: AnyObject, Sendable {
    var identity: SensorIdentity { get }
    /// Resets the sensor and sets it up again (after an error, or to leave a sleep mode).
    func reset() throws(ImageSensorError)
    /// Arms finger detection and waits until a finger is down: true, or false once `deadline`
    /// passed without one. Waits in poll(2) on the sensor's interrupt; never spins.
    func waitForFinger(deadline: ContinuousClock.Instant) throws(ImageSensorError) -> Bool
    /// Captures one image, as the sensor delivers it (no finger check: see `captureFinger`).
    func capture() throws(ImageSensorError) -> SensorImage
}

extension ImageSensor {
    /// Captures an image and hands it on only if it holds a finger: enough sub-blocks with
    /// ridge contrast (`FingerCoverage`). Throws `.noFinger` otherwise, so matching never sees
    /// an empty, smeared or half-placed print.
    public func captureFinger(check: FingerCoverage = FingerCoverage()) throws(ImageSensorError) -> (image: SensorImage, coverage: FingerCoverage.Result) {
        let image = try capture()
        let result = check.evaluate(image)
        guard result.holdsFinger else { throw .noFinger(result) }
        return (image, result)
    }
}
