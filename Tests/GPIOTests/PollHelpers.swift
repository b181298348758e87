import Glibc
import Synchronization

/// True when `fd` is readable within `milliseconds` (0 = just look), using the same poll()
/// the door lock's event loop uses.
func isReadable(_ fd: Int32, waitingUpTo milliseconds: Int32 = 0) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
        let result = poll(&entry, 1, milliseconds)
        if result < 0 && errno == EINTR { continue }
        return result == 1 && entry.revents & Int16(POLLIN) != 0
    }
}

/// A clock that advances by one microsecond per reading, so timestamps are predictable.
final class StepClock: Sendable {
    private let now = Mutex<UInt64>(0)
    func read() -> UInt64 { now.withLock { $0 += 1_000; return $0 } }
}
