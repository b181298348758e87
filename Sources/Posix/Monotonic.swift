import Glibc

/// The `CLOCK_MONOTONIC` clock, for timestamps that must survive wall-clock changes.
public enum Monotonic {
    /// `clock_gettime(CLOCK_MONOTONIC)` in nanoseconds since an arbitrary point (boot).
    public static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
