import Glibc
import Posix
import Synchronization
import Transport

/// A termios UART (or a pseudo-terminal slave standing in for one), raw 8N1 without flow
/// control. All waiting is `poll(2)` with deadlines; the descriptor is non-blocking.
public final class SerialPort: ByteTransport, Sendable {
    /// The path as configured, e.g. /dev/serial0.
    public let path: String
    /// `path` with symlinks resolved, e.g. /dev/ttyAMA0.
    public let resolvedPath: String
    public let fileDescriptor: FileDescriptor
    private let state: Mutex<State>

    private struct State {
        var baudRate: Int
        var closed = false
    }

    private init(path: String, resolvedPath: String, fileDescriptor: FileDescriptor, baudRate: Int) {
        self.path = path
        self.resolvedPath = resolvedPath
        self.fileDescriptor = fileDescriptor
        self.state = Mutex(State(baudRate: baudRate))
    }

    deinit { close() }

    /// Opens `path` with `O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK`, makes it raw 8N1 at
    /// `baudRate`, and drops whatever was queued before. With `exclusive`, takes an advisory
    /// `flock(LOCK_EX | LOCK_NB)` (which holds even against root) and sets `TIOCEXCL` (which
    /// keeps out other non-root openers, lock-aware or not).
    public static func open(path: String, baudRate: Int = BaudRate.factoryDefault, exclusive: Bool = true) throws(SerialPortError) -> SerialPort {
        guard BaudRate.isSupported(baudRate) else { throw .unsupportedBaudRate(baudRate) }
        let resolved = resolvingSymlinks(path)
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        } catch {
            throw openError(error, path: path, resolved: resolved)
        }
        do throws(SerialPortError) {
            guard isatty(fd.rawValue) == 1 else { throw SerialPortError.notATerminal(path: path) }
            if let what = DeviceDiagnostics.nonUARTTerminal(resolved) {
                throw SerialPortError.notAUART(path: path, what: what, candidates: DeviceDiagnostics.existingSerialDevices())
            }
            if exclusive {
                let locked: Bool
                do { locked = try fd.lockExclusively() } catch { throw SerialPortError.io(error, operation: "flock \(path)") }
                guard locked else { throw SerialPortError.busy(path: path, holderPID: DeviceDiagnostics.lockHolder(of: resolved)) }
                _ = try call("ioctl(TIOCEXCL) \(path)") { ioctl(fd.rawValue, UInt(TIOCEXCL)) }
            }
            try configure(fd, path: path, baudRate: baudRate)
            _ = try call("tcflush \(path)") { tcflush(fd.rawValue, TCIOFLUSH) }
        } catch {
            try? fd.close()
            throw error
        }
        return SerialPort(path: path, resolvedPath: resolved, fileDescriptor: fd, baudRate: baudRate)
    }

    /// "/dev/serial0 → /dev/ttyAMA0 @ 57600", or "/dev/ttyUSB0 @ 57600" without a symlink.
    public var description: String { "\(portName) @ \(baudRate)" }

    /// "/dev/serial0 → /dev/ttyAMA0", or "/dev/ttyUSB0".
    public var portName: String { path == resolvedPath ? path : "\(path) → \(resolvedPath)" }

    public var baudRate: Int { state.withLock { $0.baudRate } }

    /// Re-applies raw mode and sets the new speed; the port stays open.
    public func setBaudRate(_ baud: Int) throws(SerialPortError) {
        guard BaudRate.isSupported(baud) else { throw .unsupportedBaudRate(baud) }
        try checkOpen()
        try SerialPort.configure(fileDescriptor, path: path, baudRate: baud)
        state.withLock { $0.baudRate = baud }
    }

    /// Writes the whole frame. Gives up (`.io(ETIMEDOUT)`) if the driver will not take it within
    /// a second plus twice its time on the wire.
    public func send(_ bytes: [UInt8]) throws(SerialPortError) {
        try checkOpen()
        let wireTime = Duration.seconds(Double(bytes.count * 10) / Double(baudRate))
        let deadline = ContinuousClock.now + .seconds(1) + wireTime * 2
        do {
            try fileDescriptor.writeAll(bytes, deadline: deadline)
        } catch {
            throw ioError(error, "write")
        }
    }

    public func receive(maxCount: Int, deadline: ContinuousClock.Instant) throws(SerialPortError) -> [UInt8] {
        try checkOpen()
        // A deadline already past asks for what is queued: one non-blocking read, no poll.
        if deadline <= .now { return try readAvailable(maxCount: maxCount) }
        while true {
            let events: PollEvents
            do {
                events = try poll(fileDescriptor, .readable, deadline: deadline)
            } catch {
                throw ioError(error, "poll")
            }
            if events.isEmpty { return [] }
            if events.contains(.invalid) { throw .io(.badFileDescriptor, operation: "poll \(path)") }
            let bytes = try readAvailable(maxCount: maxCount)
            if !bytes.isEmpty { return bytes }
            // With VMIN = 0 a read of an empty queue returns 0 rather than EAGAIN, so 0 alone
            // proves nothing; 0 together with a hang-up or error does.
            if !events.isDisjoint(with: [.hangUp, .error]) { throw .disconnected(path: path) }
            if deadline <= .now { return [] }
        }
    }

    /// One non-blocking read of whatever is queued ([] when nothing is), into a buffer sized to
    /// what came rather than to `maxCount`.
    private func readAvailable(maxCount: Int) throws(SerialPortError) -> [UInt8] {
        let result = withUnsafeTemporaryAllocation(byteCount: min(maxCount, 4096), alignment: 1) { buffer in
            Result { () throws(Errno) -> [UInt8] in
                let count = try fileDescriptor.read(into: buffer)
                return count > 0 ? Array(UnsafeRawBufferPointer(rebasing: buffer[..<count])) : []
            }
        }
        do {
            return try result.get()
        } catch .wouldBlock {
            return []
        } catch {
            throw ioError(error, "read")
        }
    }

    /// `tcflush(TCIFLUSH)`, then reads and drops anything that is readable already (bytes that
    /// were still on their way into the queue when it was flushed).
    public func discardInput() throws(SerialPortError) {
        try checkOpen()
        _ = try SerialPort.call("tcflush \(path)") { tcflush(fileDescriptor.rawValue, TCIFLUSH) }
        while try !readAvailable(maxCount: 4096).isEmpty {}
    }

    /// Closes the port, releasing its lock. Idempotent.
    public func close() {
        let wasClosed = state.withLock { state in
            defer { state.closed = true }
            return state.closed
        }
        if !wasClosed { try? fileDescriptor.close() }
    }

    private static func configure(_ fd: FileDescriptor, path: String, baudRate: Int) throws(SerialPortError) {
        do {
            try TerminalSettings.makeRaw(fd)
            try TerminalSettings.setBaudRate(baudRate, on: fd)
        } catch {
            throw error.meansDisconnected ? .disconnected(path: path) : .io(error, operation: "configure \(path) (termios)")
        }
        // The kernel or driver may round; a rate more than 3 % off would garble every byte.
        if let actual = TerminalSettings.baudRate(of: fd), abs(actual - baudRate) * 100 > baudRate * 3 {
            throw .io(.invalidArgument, operation: "set \(path) to \(baudRate) baud (driver chose \(actual))")
        }
    }

    /// After `close()` the descriptor number may already belong to something else: never use it.
    private func checkOpen() throws(SerialPortError) {
        if state.withLock({ $0.closed }) { throw .io(.badFileDescriptor, operation: "use \(path) after close()") }
    }

    private func ioError(_ error: Errno, _ operation: String) -> SerialPortError {
        error.meansDisconnected ? .disconnected(path: path) : .io(error, operation: "\(operation) \(path)")
    }

    private static func call(_ operation: String, _ body: () -> Int32) throws(SerialPortError) -> Int32 {
        do {
            return try retryingOnInterrupt(body)
        } catch {
            throw .io(error, operation: operation)
        }
    }

    private static func openError(_ error: Errno, path: String, resolved: String) -> SerialPortError {
        switch error {
        case .noSuchFile, .noDevice, .noSuchDeviceOrAddress:
            .noSuchDevice(path: path, candidates: DeviceDiagnostics.existingSerialDevices())
        case .permissionDenied, .notPermitted:
            .permissionDenied(path: path)
        case .busy:
            .busy(path: path, holderPID: DeviceDiagnostics.lockHolder(of: resolved))
        case .isDirectory:
            .notAUART(path: path, what: "a directory, not a serial device", candidates: DeviceDiagnostics.existingSerialDevices())
        default:
            .io(error, operation: "open \(path)")
        }
    }
}
