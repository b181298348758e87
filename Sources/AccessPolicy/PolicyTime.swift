/// A moment as the runtime observed it: the wall clock and a monotonic clock read together,
/// and the boot they were read in.
///
/// Why all three (issue 27, item 5; the decision is made, see docs/service.md, "The clocks"): the
/// wall clock may step at any time (NTP on a Pi without a real-time clock steps it at every
/// boot, an admin sets it), so no duration is ever measured on it. Within a run the policy
/// counts the monotonic clock. Across a restart it counts the monotonic clock too, but only
/// when `bootID` says the boot is the same (the monotonic clock then still runs from the same
/// origin); across a reboot (boot id differs or is unknown) nothing can be measured, so no
/// time is credited and the permissive windows end (`Step.advanceClock`).
/// Read `wall` from `CLOCK_REALTIME`, `monotonic` from `CLOCK_BOOTTIME` (or
/// `CLOCK_MONOTONIC`), both in seconds, and `bootID` from
/// `/proc/sys/kernel/random/boot_id` (once per process).
public struct PolicyTime: Codable, Hashable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01 UTC.
    public var wall: Double
    /// Seconds on a clock that never goes back within one boot; restarts at boot.
    public var monotonic: Double
    /// The kernel's boot id; nil when unknown (and in states saved before it was recorded,
    /// which therefore decode as "another boot").
    public var bootID: String?

    public init(wall: Double, monotonic: Double, bootID: String? = nil) {
        self.wall = wall
        self.monotonic = monotonic
        self.bootID = bootID
    }

    /// The moment `seconds` later on both clocks, in the same boot.
    public func advanced(by seconds: Double) -> PolicyTime {
        PolicyTime(wall: wall + seconds, monotonic: monotonic + seconds, bootID: bootID)
    }

    /// The wall clock's offset against the monotonic clock: constant within a boot unless the
    /// wall clock is stepped (or slewed, which moves it by well under a second a day).
    public var wallOffset: Double { wall - monotonic }

    /// How far the wall clock stepped between this reading and `later` (seconds, + forward),
    /// or nil when it did not (its offset against the monotonic clock moved by at most 2 s:
    /// NTP slews far less; a step is an hour or a day), or when the two readings are not in one
    /// boot (the monotonic clock went back, or the boot ids differ), where it cannot be told.
    public func wallStep(until later: PolicyTime) -> Double? {
        guard later.monotonic >= monotonic, bootID == later.bootID else { return nil }
        let stepped = later.wallOffset - wallOffset
        return stepped.isFinite && stepped.magnitude > Self.wallStepThreshold ? stepped : nil
    }

    /// Seconds the wall clock's offset may drift before it counts as a step.
    public static let wallStepThreshold = 2.0

    /// Whether `later` was read in the same boot as this, with the monotonic clock not gone
    /// back: only then does the monotonic difference measure the time between them.
    public func sameBoot(as later: PolicyTime) -> Bool {
        guard let bootID, bootID == later.bootID else { return false }
        return later.monotonic >= monotonic
    }

    public var description: String {
        "wall \(wall) s, monotonic \(monotonic) s" + (bootID.map { ", boot \($0)" } ?? "")
    }
}
