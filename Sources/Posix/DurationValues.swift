import Glibc

extension Duration {
    /// Seconds with their fraction, for APIs that take a `TimeInterval` or a `Double`.
    public var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Whole nanoseconds, 0 for a negative duration: for kernel timestamps and deadlines.
    public var wholeNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
}

extension CurrentProcess {
    /// `nanosleep(2)` for `duration`, the rest slept again after a signal (EINTR).
    public static func sleep(for duration: Duration) {
        let nanoseconds = duration.wholeNanoseconds
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
