/// The simulated sensor's state as the control socket's `status` prints it (JSON, sorted keys).
public struct SimulatedSensorStatus: Codable, Equatable, Sendable {
    public var model: String
    /// Where the images come from ("simulation (images from DIR)" or generated fingers).
    public var connection: String
    /// The finger that is down, nil when none is.
    public var finger: String?
    /// True when `finger` was touched and lifts after the next capture.
    public var liftsAfterCapture: Bool
    public var autoTouch: String?
    /// Captures taken since start, with or without a finger.
    public var captures: Int
}
