import Posix

/// The events socket: subscribers connect and receive one JSON line per public event. A slow
/// or gone subscriber is dropped; it never holds the service up.
final class EventHub {
    let listener: UnixListener
    private(set) var subscribers: [UnixConnection] = []

    init(path: String) throws(Errno) {
        listener = try UnixListener(path: path, mode: 0o660)
    }

    func acceptAll() {
        while let connection = try? listener.accept(deadline: .now) {
            subscribers.append(connection)
        }
    }

    /// Subscribers say nothing; anything readable is either chatter (ignored) or their hang-up.
    func serviceReadable(_ connection: UnixConnection) {
        while (try? connection.readLine(deadline: .now)) ?? nil != nil {}
        if connection.isClosedByPeer { drop(connection) }
    }

    func publish(_ line: String) {
        for connection in subscribers {
            do {
                try connection.send(line: line, deadline: .now + .milliseconds(20))
            } catch {
                drop(connection)
            }
        }
    }

    func drop(_ connection: UnixConnection) {
        connection.close()
        subscribers.removeAll { $0 === connection }
    }

    func close() {
        for connection in subscribers { connection.close() }
        subscribers.removeAll()
        listener.close()
    }
}
