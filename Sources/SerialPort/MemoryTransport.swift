import Posix
import Synchronization
import Transport

/// An in-process byte pipe with the same contract as `SerialPort`, for unit tests of the code
/// above the transport. What one end sends the other receives; deadlines are honoured (waits
/// are `poll(2)` on an eventfd, no sleeping loops). Thread-safe.
public final class MemoryTransport: ByteTransport, Sendable {
    /// "a" or "b", for `description`.
    public let name: String
    private let link: Link
    private let side: Int
    private let baud = Mutex(BaudRate.factoryDefault)

    /// What both ends share: one inbox and one wakeup per side.
    private final class Link: Sendable {
        let inboxes = Mutex<[[UInt8]]>([[], []])
        let wakeups: [WakeupPipe]
        let disconnected = Mutex(false)

        init() throws(Errno) { wakeups = [try WakeupPipe(), try WakeupPipe()] }
    }

    private init(name: String, link: Link, side: Int) {
        self.name = name
        self.link = link
        self.side = side
    }

    /// Two connected ends. Throws only if no descriptor is left for the wakeups.
    public static func pair() throws(Errno) -> (MemoryTransport, MemoryTransport) {
        let link = try Link()
        return (MemoryTransport(name: "a", link: link, side: 0), MemoryTransport(name: "b", link: link, side: 1))
    }

    public var description: String { "memory:\(name) @ \(baudRate)" }

    public var baudRate: Int { baud.withLock { $0 } }

    /// Only this end's speed changes; like a real UART, a mismatch is not detected.
    public func setBaudRate(_ baud: Int) throws(SerialPortError) {
        guard BaudRate.isSupported(baud) else { throw .unsupportedBaudRate(baud) }
        self.baud.withLock { $0 = baud }
    }

    /// This end is done: like pulling the cable, both ends throw `.disconnected` from now on.
    public func close() { disconnect() }

    /// Simulates pulling the cable: both ends throw `.disconnected` from now on.
    public func disconnect() {
        link.disconnected.withLock { $0 = true }
        link.wakeups.forEach { $0.signal() }
    }

    /// Bytes received but not yet read at this end.
    public var pendingInputCount: Int { link.inboxes.withLock { $0[side].count } }

    public func send(_ bytes: [UInt8]) throws(SerialPortError) {
        try checkConnected()
        let peer = 1 - side
        link.inboxes.withLock { $0[peer].append(contentsOf: bytes) }
        link.wakeups[peer].signal()
    }

    public func receive(maxCount: Int, deadline: ContinuousClock.Instant) throws(SerialPortError) -> [UInt8] {
        let wakeup = link.wakeups[side]
        while true {
            try checkConnected()
            // Drain before looking: a send after the look signals again, so the poll wakes.
            wakeup.drain()
            let bytes = link.inboxes.withLock { inboxes in
                let taken = Array(inboxes[side].prefix(maxCount))
                inboxes[side].removeFirst(taken.count)
                return taken
            }
            if !bytes.isEmpty { return bytes }
            do {
                if try !wakeup.fileDescriptor.waitReadable(deadline: deadline) { return [] }
            } catch {
                throw .io(error, operation: "poll \(description)")
            }
        }
    }

    public func discardInput() throws(SerialPortError) {
        try checkConnected()
        link.inboxes.withLock { $0[side].removeAll() }
    }

    private func checkConnected() throws(SerialPortError) {
        if link.disconnected.withLock({ $0 }) { throw .disconnected(path: "memory:\(name)") }
    }
}
