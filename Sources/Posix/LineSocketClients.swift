/// The clients of a line-protocol Unix socket, served from its owner's poll loop: put
/// `pollSet` in the poll, hand the events back to `serve`, which answers each complete line
/// with one reply line and accepts newcomers. Shared by the simulators' control sockets (the
/// module's and the image sensor's) and the simulated sensor's link. Not thread-safe: it
/// belongs to the one thread that polls.
public struct LineSocketClients {
    public let listener: UnixListener
    public private(set) var connections: [UnixConnection] = []

    public init(listener: UnixListener) { self.listener = listener }

    /// What to poll, in this order: the listener, then each connection.
    public var pollSet: [(FileDescriptor, PollEvents)] {
        [(listener.fileDescriptor, .readable)] + connections.map { ($0.fileDescriptor, .readable) }
    }

    /// After a poll over `pollSet`, with its `events` in the same order: every readable
    /// connection's lines are answered (blank lines skipped), connections that are gone are
    /// closed, then one waiting client is accepted. `reply` returns the reply line, or nil when
    /// the answer comes later (the caller keeps the connection and sends it itself).
    public mutating func serve(_ events: some Collection<PollEvents>, reply: (String, UnixConnection) -> String?) {
        let events = Array(events)
        guard events.count == connections.count + 1 else { return }
        var gone: [Int] = []
        for (index, connection) in connections.enumerated() where !events[index + 1].isEmpty {
            if !Self.answer(connection, reply: reply) { gone.append(index) }
        }
        for index in gone.reversed() { connections.remove(at: index).close() }
        // Served before accepting, so the events above still line up with the connections.
        if !events[0].isEmpty, let connection = try? listener.accept(deadline: .now) {
            connections.append(connection)
        }
    }

    /// Closes every connection (the listener stays: its owner closes it).
    public mutating func closeAll() {
        for connection in connections { connection.close() }
        connections.removeAll()
    }

    /// Answers the lines that have arrived. False when the client is gone.
    private static func answer(_ connection: UnixConnection, reply: (String, UnixConnection) -> String?) -> Bool {
        while true {
            let line: String?
            do { line = try connection.readLine(deadline: .now) } catch { return false }
            guard let line else { return !connection.isClosedByPeer }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            guard let answer = reply(line, connection) else { continue }
            do { try connection.send(line: answer, deadline: .now + .seconds(2)) } catch { return false }
        }
    }
}
