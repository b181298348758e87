import ImageSensor
import Posix
import Synchronization

/// An image sensor served by another process (`fpmod sim --profile fpc1020 --link PATH`),
/// reached through its Unix socket (`SensorLinkProtocol`): what `--sensor-socket PATH` opens,
/// so the CLI and the service can use a sensor whose fingers a separate simulator controls.
/// Thread-safe: one request at a time on the connection, under its lock.
public final class SocketImageSensor: ImageSensor {
    public let identity: SensorIdentity
    public let path: String
    private let connection: Mutex<UnixConnection>

    /// How long a reply may take beyond what was asked (a capture renders an image).
    static let replyAllowance: Duration = .seconds(10)

    /// Connects to `path` and asks the sensor's identity.
    public init(path: String) throws(ImageSensorError) {
        self.path = path
        let connection: UnixConnection
        do { connection = try UnixConnection.connect(path: path) } catch {
            throw .sensorLink(path: path, problem: "cannot connect (\(error)); is the simulator running?")
        }
        let reply = try Self.request("identity", on: connection, path: path, deadline: .now + Self.replyAllowance)
        guard let identity = SensorLinkProtocol.identity(from: reply) else {
            connection.close()
            throw .sensorLink(path: path, problem: "it answered \"\(reply.prefix(80))\", not a sensor's identity")
        }
        self.identity = identity
        self.connection = Mutex(connection)
    }

    deinit { connection.withLock { $0.close() } }

    public func reset() throws(ImageSensorError) {
        let reply = try request("reset", deadline: .now + Self.replyAllowance)
        guard reply == "ok" else { throw unexpected(reply) }
    }

    public func waitForFinger(deadline: ContinuousClock.Instant) throws(ImageSensorError) -> Bool {
        let remaining = max(.zero, ContinuousClock.now.duration(to: deadline))
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        let reply = try request("wait \(milliseconds)", deadline: deadline + Self.replyAllowance)
        switch reply {
        case "ok down": return true
        case "ok up": return false
        default: throw unexpected(reply)
        }
    }

    public func capture() throws(ImageSensorError) -> SensorImage {
        let reply = try request("capture", deadline: .now + Self.replyAllowance)
        guard let image = SensorLinkProtocol.image(from: reply) else { throw unexpected(reply) }
        return image
    }

    private func request(_ line: String, deadline: ContinuousClock.Instant) throws(ImageSensorError) -> String {
        try connection.withLock { (connection) throws(ImageSensorError) -> String in
            try Self.request(line, on: connection, path: path, deadline: deadline)
        }
    }

    /// Sends `line` and returns the reply, or throws the error it carries.
    private static func request(_ line: String, on connection: UnixConnection, path: String,
                                deadline: ContinuousClock.Instant) throws(ImageSensorError) -> String {
        let reply: String?
        do {
            try connection.send(line: line, deadline: deadline)
            reply = try connection.readLine(deadline: deadline)
        } catch {
            throw .sensorLink(path: path, problem: "the connection failed (\(error))")
        }
        guard let reply else {
            let problem = connection.isClosedByPeer ? "the simulator closed the connection" : "no answer to \"\(line)\" in time"
            throw .sensorLink(path: path, problem: problem)
        }
        if let error = SensorLinkProtocol.error(from: reply, path: path) { throw error }
        return reply
    }

    private func unexpected(_ reply: String) -> ImageSensorError {
        .sensorLink(path: path, problem: "unexpected reply \"\(reply.prefix(80))\"")
    }
}
