import ImageSensor
import Posix

/// Serves a `SimulatedImageSensor` to other processes on a Unix socket, in the line protocol
/// of `SensorLinkProtocol`; `SocketImageSensor` is the other end. Serves on its own thread
/// from the moment it is made until `stop()` (or release), idle in poll(2): a `wait` is held
/// until the sensor reports a finger (its presence observer wakes the poll) or its time is up,
/// so any number of clients wait without a thread each.
public final class SimulatedSensorLink: Sendable {
    public let sensor: SimulatedImageSensor
    public let path: String
    private let listener: UnixListener
    private let thread: ServingThread

    /// Listens on `path` (mode 0660; a stale socket file is replaced) and starts serving.
    public init(sensor: SimulatedImageSensor, path: String) throws(SensorSocketError) {
        self.sensor = sensor
        self.path = path
        (listener, thread) = try ServingThread.listening(at: path)
        let (listener, thread) = (listener, thread)
        let wakeup = thread.wakeup
        sensor.observeFingerPresence { _ in wakeup.signal() }
        thread.start(name: "fpmod-sensor-link") { Self.serve(sensor, listener: listener, thread: thread) }
    }

    deinit { stop() }

    /// Stops serving and removes the socket file. Idempotent.
    public func stop() {
        thread.stop()
        listener.close()
    }

    /// A `wait` not answered yet.
    private struct PendingWait {
        let connection: UnixConnection
        let deadline: ContinuousClock.Instant
    }

    private static func serve(_ sensor: SimulatedImageSensor, listener: UnixListener, thread: ServingThread) {
        var clients = LineSocketClients(listener: listener)
        var waits: [PendingWait] = []
        while !thread.isStopping {
            let due = waits.map(\.deadline).min()
            guard let events = try? poll([(thread.wakeup.fileDescriptor, .readable)] + clients.pollSet, deadline: due) else { break }
            if !events[0].isEmpty { thread.wakeup.drain() }
            clients.serve(events.dropFirst()) { line, connection in
                if let milliseconds = waitRequest(line) {
                    waits.append(PendingWait(connection: connection, deadline: .now + .milliseconds(milliseconds)))
                    return nil
                }
                return reply(to: line, sensor: sensor)
            }
            waits.removeAll { wait in
                let answer: String
                do throws(ImageSensorError) {
                    if try sensor.waitForFinger(deadline: .now) {
                        answer = "ok down"
                    } else if ContinuousClock.now >= wait.deadline {
                        answer = "ok up"
                    } else {
                        return false
                    }
                } catch {
                    answer = SensorLinkProtocol.errorReply(error)
                }
                // A client gone meanwhile loses its answer; nothing else to do.
                try? wait.connection.send(line: answer, deadline: .now + .seconds(2))
                return true
            }
        }
        clients.closeAll()
    }

    /// The milliseconds of a `wait MS` line, nil for any other line.
    private static func waitRequest(_ line: String) -> Int? {
        let words = line.split(separator: " ")
        guard words.count == 2, words[0] == "wait", let milliseconds = Int(words[1]), milliseconds >= 0 else { return nil }
        return milliseconds
    }

    private static func reply(to line: String, sensor: SimulatedImageSensor) -> String {
        do throws(ImageSensorError) {
            switch line {
            case "identity": return SensorLinkProtocol.identityReply(sensor.identity)
            case "reset":
                try sensor.reset()
                return "ok"
            case "capture": return SensorLinkProtocol.imageReply(try sensor.capture())
            default:
                return "error other unknown request \"\(line)\"; requests: identity, reset, wait MS, capture"
            }
        } catch {
            return SensorLinkProtocol.errorReply(error)
        }
    }
}
