import CShims
import Glibc

/// Wakes a thread blocked in `poll(2)` from any other thread: put `fileDescriptor` in the poll
/// set, call `signal()` elsewhere, and `drain()` after waking. Backed by an `eventfd(2)`
/// (non-blocking, close-on-exec), so any number of signals before a drain count as one wakeup.
/// The descriptor is closed when the object is released.
public final class WakeupPipe: Sendable {
    /// The descriptor to poll for `.readable`.
    public let fileDescriptor: FileDescriptor

    /// `eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)`.
    public init() throws(Errno) {
        let fd = try retryingOnInterrupt { fpmod_eventfd(0) }
        fileDescriptor = FileDescriptor(rawValue: fd)
    }

    deinit { try? fileDescriptor.close() }

    /// Makes `fileDescriptor` readable. Safe from any thread; never blocks.
    public func signal() {
        var one: UInt64 = 1
        // EAGAIN only when the counter would overflow: it is readable then, which is the point.
        _ = withUnsafeBytes(of: &one) { try? fileDescriptor.write($0) }
    }

    /// Clears pending signals so the next poll blocks again. Returns true if there were any.
    @discardableResult
    public func drain() -> Bool {
        var counter: UInt64 = 0
        let count = withUnsafeMutableBytes(of: &counter) { try? fileDescriptor.read(into: $0) }
        return count == 8 && counter > 0
    }
}
