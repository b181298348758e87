import Glibc

/// A non-blocking pipe whose read end is readable exactly while a memory line has events
/// pending, so `poll()` treats a simulated line like a libgpiod event descriptor.
/// (eventfd and pipe2 are not visible through `import Glibc`; pipe + fcntl is.)
struct EventPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws(GPIOError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw .system(operation: "pipe", chip: "memory", offset: nil, errno: errno)
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Makes the read end readable (a full pipe is already readable, so EAGAIN is fine).
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe so the read end is no longer readable.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }

    func close() {
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
    }
}

/// CLOCK_MONOTONIC in nanoseconds: the clock the kernel stamps line events with.
@Sendable public func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
