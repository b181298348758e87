import FingerprintProtocol

/// What `status` reports (one line of JSON on the control socket).
public struct SimulatorStatus: Codable, Equatable, Sendable {
    public var profile: String
    public var devicePath: String
    /// Eight hex digits.
    public var address: String
    /// The baud rate in use now and the one stored for the next power-up.
    public var baudRate: Int
    public var storedBaudRate: Int
    public var packetSize: Int
    public var securityLevel: Int
    public var passwordSet: Bool
    public var passwordVerified: Bool
    public var templateCount: Int
    public var occupiedSlots: [Int]
    public var sensor: String
    public var faults: [String]
    public var timing: String
    /// `best-match` or `first-match` (`SearchModel`).
    public var searchModel: String
    /// Frames answered since start.
    public var commandsHandled: Int
}
