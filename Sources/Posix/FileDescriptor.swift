import Glibc

/// An open file descriptor. A value type: copying it does not duplicate the descriptor, and
/// exactly one owner must call `close()`.
public struct FileDescriptor: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: 0)
    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    public var description: String { "fd \(rawValue)" }

    /// `open(2)`. `flags` are the C `O_*` flags; `mode` applies only with `O_CREAT`.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        let fd = try retryingOnInterrupt { Glibc.open(path, flags, mode) }
        return FileDescriptor(rawValue: fd)
    }

    /// `read(2)` into `buffer`; returns the byte count (0 = end of file).
    /// A non-blocking descriptor with nothing to read throws `Errno.wouldBlock`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// `read(2)` of at most `maxCount` bytes; `[]` means end of file.
    public func read(maxCount: Int) throws(Errno) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: maxCount)
        // withUnsafeMutableBytes rethrows untyped, so the closure returns a Result.
        let count = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(Errno) -> Int in try read(into: buffer) }
        }
        bytes.removeSubrange(try count.get()...)
        return bytes
    }

    /// One `write(2)`; returns how many bytes the kernel took.
    public func write(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// `write(2)` until every byte is written. On a non-blocking descriptor a full buffer is
    /// waited out with `poll(2)`; past `deadline` it throws `Errno.timedOut`.
    public func writeAll(_ bytes: [UInt8], deadline: ContinuousClock.Instant? = nil) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Result { () throws(Errno) -> Int in try write(UnsafeRawBufferPointer(rebasing: buffer[offset...])) }
            }
            do {
                offset += try written.get()
            } catch .wouldBlock {
                let events = try poll([(self, .writable)], deadline: deadline)[0]
                if events.isEmpty { throw Errno.timedOut }
            }
        }
    }

    /// `close(2)`. EINTR is not retried: on Linux the descriptor is released either way.
    public func close() throws(Errno) {
        if Glibc.close(rawValue) == -1 {
            let error = Errno.current
            if error != .interrupted { throw error }
        }
    }

    /// `flock(LOCK_EX | LOCK_NB)`: an advisory lock on the open file that holds against root
    /// too, so two fpmod programs never drive one device. False when another open file holds
    /// it; released when this descriptor closes.
    public func lockExclusively() throws(Errno) -> Bool {
        do {
            _ = try retryingOnInterrupt { flock(rawValue, LOCK_EX | LOCK_NB) }
            return true
        } catch .wouldBlock {
            return false
        }
    }

    /// `fcntl(F_SETFL, O_NONBLOCK)` on or off.
    public func setNonBlocking(_ enabled: Bool = true) throws(Errno) {
        let flags = try retryingOnInterrupt { fcntl(rawValue, F_GETFL) }
        let updated = enabled ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        _ = try retryingOnInterrupt { fcntl(rawValue, F_SETFL, updated) }
    }

    /// `fcntl(F_SETFD, FD_CLOEXEC)` on or off.
    public func setCloseOnExec(_ enabled: Bool = true) throws(Errno) {
        let flags = try retryingOnInterrupt { fcntl(rawValue, F_GETFD) }
        let updated = enabled ? flags | FD_CLOEXEC : flags & ~FD_CLOEXEC
        _ = try retryingOnInterrupt { fcntl(rawValue, F_SETFD, updated) }
    }

    /// `poll(2)` for readability. True when readable (or hung up / in error, so the next read
    /// reports it); false when `deadline` passed first. `nil` waits forever.
    public func waitReadable(deadline: ContinuousClock.Instant?) throws(Errno) -> Bool {
        !(try poll([(self, .readable)], deadline: deadline)[0]).isEmpty
    }
}
