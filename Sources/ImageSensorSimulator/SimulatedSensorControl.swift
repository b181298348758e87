import Foundation
import Posix
import Synchronization

/// The simulated sensor's control socket: one line in, one reply line out, the finger verbs of
/// the simulated module's control socket (`place NAME`, `lift`, `touch NAME`, `status`, plus
/// `auto-touch NAME|off`), replies `ok …`, JSON for status, `error: …`. Serves on its own thread
/// from the moment it is made until `stop()` (or release), idle in poll(2).
public final class SimulatedSensorControl: Sendable {
    public let sensor: SimulatedImageSensor
    public let path: String
    private let listener: UnixListener
    private let thread: ServingThread
    private let responder: Responder

    /// Listens on `path` (mode 0660; a stale socket file is replaced) and starts serving.
    /// Where `fpmod sim --profile fpc1020` listens without --control: a socket named after the
    /// process in $TMPDIR (or /tmp).
    public static func defaultPath(environment: [String: String], processID: Int32) -> String {
        let directory = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return directory + "/fpmod-sensor-sim-\(processID).control"
    }

    public init(sensor: SimulatedImageSensor, path: String) throws(SensorSocketError) {
        self.sensor = sensor
        self.path = path
        responder = Responder(sensor: sensor)
        (listener, thread) = try ServingThread.listening(at: path)
        // The thread holds what it serves, not `self`, so releasing the control stops it.
        let (listener, thread, responder) = (listener, thread, responder)
        thread.start(name: "fpmod-sensor-control") {
            Self.serve(listener: listener, thread: thread, reply: responder.perform(line:))
        }
    }

    deinit { stop() }

    /// Stops serving and removes the socket file. Idempotent.
    public func stop() {
        thread.stop()
        listener.close()
    }

    /// Lines the sensor does not know go to `handler` before they are refused; it returns the
    /// reply, or nil for "not mine either". `usage` is added to the refusal of unknown lines.
    /// (`fpmod run --sim --sim-gpio` answers its GPIO verbs here.)
    public func acceptExtraCommands(usage: String, _ handler: @escaping @Sendable (String) -> String?) {
        responder.extra.withLock { $0 = Responder.Extra(handler: handler, usage: usage) }
    }

    /// Runs one control line and returns its reply, as the socket does.
    public func perform(line: String) -> String { responder.perform(line: line) }

    private static func serve(listener: UnixListener, thread: ServingThread, reply: (String) -> String) {
        var clients = LineSocketClients(listener: listener)
        while !thread.isStopping {
            guard let events = try? poll([(thread.wakeup.fileDescriptor, .readable)] + clients.pollSet, deadline: nil) else { break }
            if !events[0].isEmpty { thread.wakeup.drain() }
            clients.serve(events.dropFirst()) { line, _ in reply(line) }
        }
        clients.closeAll()
    }
}

/// The control verbs applied to the sensor, and the extra verbs' hook.
private final class Responder: Sendable {
    let sensor: SimulatedImageSensor
    let extra = Mutex<Extra>(Extra())

    struct Extra {
        var handler: (@Sendable (String) -> String?)?
        var usage: String?
    }

    init(sensor: SimulatedImageSensor) { self.sensor = sensor }

    func perform(line: String) -> String {
        let command: SensorControlCommand
        do { command = try SensorControlCommand(line: line) } catch {
            let (handler, usage) = extra.withLock { ($0.handler, $0.usage) }
            if let reply = handler?(line) { return reply }
            return "error: \(error.message)" + (usage.map { "; " + $0 } ?? "")
        }
        switch command {
        case let .place(name):
            sensor.place(name)
            return "ok placed \(name)"
        case .lift:
            sensor.lift()
            return "ok lifted"
        case let .touch(name):
            sensor.touch(name)
            return "ok touch \(name) ×1"
        case let .autoTouch(name):
            sensor.autoTouch = name
            return "ok auto-touch " + (name ?? "off")
        case .status:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(sensor.status) else { return "error: cannot encode status" }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
