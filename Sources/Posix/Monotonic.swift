import Glibc

/// The `CLOCK_MONOTONIC` clock, for timestamps that must survive wall-clock changes.
public enum Monotonic {
    /// `clock_gettime(CLOCK_MONOTONIC)` in nanoseconds since an arbitrary point (boot).
    public static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// The same clock in seconds: what the kernel stamps input events with (evdev with
    /// `CLOCK_MONOTONIC` set) and what a keypad entry's pause is measured on.
    public static func seconds() -> Double { Double(nanoseconds()) / 1e9 }
}

/// `CLOCK_BOOTTIME`: monotonic, and it keeps counting through suspend (the policy's clock).
public enum BootTime {
    /// Seconds since boot, with nanosecond resolution.
    public static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
