/// A moment as the runtime observed it: the wall clock and a monotonic clock read together.
///
/// Why both: deadlines must survive a restart (only the wall clock means anything across
/// one), but within a run the wall clock may jump (NTP, a Pi without RTC, an admin) while the
/// monotonic clock does not. The policy measures elapsed time with the monotonic clock inside
/// a run and with the wall clock across a `.started`, never letting time run backwards.
/// Read `wall` from `CLOCK_REALTIME` and `monotonic` from `CLOCK_BOOTTIME` (or
/// `CLOCK_MONOTONIC`), both in seconds.
public struct PolicyTime: Codable, Hashable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01 UTC.
    public var wall: Double
    /// Seconds on a clock that never goes back within one boot; restarts at boot.
    public var monotonic: Double

    public init(wall: Double, monotonic: Double) {
        self.wall = wall
        self.monotonic = monotonic
    }

    /// The moment `seconds` later on both clocks.
    public func advanced(by seconds: Double) -> PolicyTime {
        PolicyTime(wall: wall + seconds, monotonic: monotonic + seconds)
    }

    public var description: String { "wall \(wall) s, monotonic \(monotonic) s" }
}
