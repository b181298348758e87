import Glibc

/// Wakes when entries appear in a directory or change (`inotify(7)`: `IN_CREATE`, `IN_ATTRIB`,
/// `IN_MOVED_TO`), so a program waiting for a device node (a keypad plugged in, a uinput device
/// made) sleeps until the kernel says something changed instead of listing the folder in a loop.
/// A wake is a hint: the caller looks again at what it waits for.
public final class DirectoryWatch {
    public let path: String
    /// Readable when something changed: for a caller's own poll set.
    public var fileDescriptor: FileDescriptor { descriptor }
    private let descriptor: FileDescriptor

    /// Calls `inotify_init1` and `inotify_add_watch`.
    public init(path: String) throws(Errno) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw Errno.current }
        let watch = inotify_add_watch(fd, path, UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO))
        guard watch >= 0 else {
            let error = Errno.current
            Glibc.close(fd)
            throw error
        }
        self.path = path
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { Glibc.close(descriptor.rawValue) }

    /// Waits until something changed in the folder (true) or `deadline` passed (false), and
    /// reads the notifications so the next wait starts afresh.
    public func waitForChange(deadline: ContinuousClock.Instant?) throws(Errno) -> Bool {
        let ready = try poll(descriptor, .readable, deadline: deadline)
        guard ready.contains(.readable) else { return false }
        while true {
            do {
                if try descriptor.read(maxCount: 4096).isEmpty { break }
            } catch .wouldBlock {
                break
            }
        }
        return true
    }
}
