import Foundation
import Glibc
import Posix
import Synchronization

/// A TCP relay between a client and the broker, on a free 127.0.0.1 port of its own, to cut the
/// network under a live MQTT connection: `cut()` keeps every socket open but drops what either
/// side sends (as a pulled cable or a dead Wi-Fi does: no FIN, no RST, only silence, so only a
/// keepalive can notice), and connections made during the cut go nowhere either. `restore()`
/// closes the connections that lived through the cut (their streams have holes now) and
/// forwards new ones again. One thread, one poll over every socket; stopped at `deinit`.
public final class TCPRelay: Sendable {
    public let port: Int
    private let target: Int
    private let listener: Int32
    private let state = Mutex(State())
    private let wakeup: WakeupPipe
    private let finished = DispatchSemaphore(value: 0)

    private struct State {
        var cut = false
        /// Bumped by `restore()`: pairs from an older epoch are closed.
        var epoch = 0
        var stopping = false
        var accepted = 0
    }

    private struct Pair {
        var client: Int32
        var broker: Int32
        var epoch: Int
        /// Accepted during a cut: it never reaches the broker, like one whose packets are lost.
        var blackHoled: Bool
    }

    /// Relays to the broker on 127.0.0.1:`targetPort`.
    public init(to targetPort: Int) throws {
        target = targetPort
        wakeup = try WakeupPipe()
        port = try freeLoopbackPort()
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Errno.current }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = loopbackAddress(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 8) == 0 else {
            let error = Errno.current
            Glibc.close(socket)
            throw error
        }
        listener = socket
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "tcp-relay"
        thread.start()
    }

    deinit {
        state.withLock { $0.stopping = true }
        wakeup.signal()
        finished.wait()
        Glibc.close(listener)
    }

    /// From now on nothing gets through, in either direction, on any connection.
    public func cut() {
        state.withLock { $0.cut = true }
        wakeup.signal()
    }

    /// The connections that lived through the cut are closed; new ones are relayed again.
    public func restore() {
        state.withLock {
            $0.cut = false
            $0.epoch += 1
        }
        wakeup.signal()
    }

    /// How many connections the relay has accepted (a reconnect shows as one more).
    public var acceptedConnections: Int { state.withLock { $0.accepted } }

    private func run() {
        var pairs: [Pair] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        defer { for pair in pairs { close(pair) } }
        while true {
            let (stopping, cutNow, epoch) = state.withLock { ($0.stopping, $0.cut, $0.epoch) }
            if stopping { return }
            // Connections from before a restore are dead: close both ends.
            pairs.removeAll { pair in
                guard pair.epoch < epoch else { return false }
                close(pair)
                return true
            }
            var descriptors: [(FileDescriptor, PollEvents)] = [(wakeup.fileDescriptor, .readable),
                                                               (FileDescriptor(rawValue: listener), .readable)]
            for pair in pairs {
                descriptors.append((FileDescriptor(rawValue: pair.client), .readable))
                descriptors.append((FileDescriptor(rawValue: pair.broker), .readable))
            }
            guard let ready = try? poll(descriptors, deadline: .now + .milliseconds(200)) else { continue }
            if !ready[0].isEmpty { wakeup.drain() }
            // Only the pairs that were polled have events; one accepted now waits for the next turn.
            let polled = pairs.count
            if !ready[1].isEmpty, let pair = accept(epoch: epoch, blackHoled: cutNow) { pairs.append(pair) }
            var closed: Set<Int> = []
            for (index, pair) in pairs.prefix(polled).enumerated() {
                let fromClient = ready[2 + index * 2], fromBroker = ready[3 + index * 2]
                let blocked = cutNow || pair.blackHoled
                if !fromClient.isEmpty, !forward(pair.client, to: pair.broker, blocked: blocked, &buffer) { closed.insert(index) }
                if !fromBroker.isEmpty, !forward(pair.broker, to: pair.client, blocked: blocked, &buffer) { closed.insert(index) }
            }
            for index in closed.sorted(by: >) {
                close(pairs[index])
                pairs.remove(at: index)
            }
        }
    }

    /// Reads what is there; passes it on unless `blocked`. False when either side is gone.
    private func forward(_ from: Int32, to: Int32, blocked: Bool, _ buffer: inout [UInt8]) -> Bool {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(from, $0.baseAddress, $0.count) }
        guard count > 0 else { return count < 0 && (errno == EAGAIN || errno == EINTR) }
        if blocked { return true }
        var offset = 0
        while offset < count {
            let written = buffer.withUnsafeBytes { Glibc.write(to, $0.baseAddress! + offset, count - offset) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private func accept(epoch: Int, blackHoled: Bool) -> Pair? {
        let client = Glibc.accept(listener, nil, nil)
        guard client >= 0 else { return nil }
        state.withLock { $0.accepted += 1 }
        let broker = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopbackAddress(port: target)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(broker, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard broker >= 0, connected == 0 else {
            Glibc.close(client)
            if broker >= 0 { Glibc.close(broker) }
            return nil
        }
        return Pair(client: client, broker: broker, epoch: epoch, blackHoled: blackHoled)
    }

    private func close(_ pair: Pair) {
        Glibc.close(pair.client)
        Glibc.close(pair.broker)
    }
}
