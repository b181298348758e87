import AccessPolicy
import Foundation
import Posix

/// Where the service reads the time the policy sees (tests may substitute their own).
public struct LockClock: Sendable {
    public var now: @Sendable () -> PolicyTime

    public init(now: @escaping @Sendable () -> PolicyTime) { self.now = now }

    /// The wall clock and CLOCK_BOOTTIME (which keeps counting through suspend).
    public static let system = LockClock {
        PolicyTime(wall: Date().timeIntervalSince1970, monotonic: BootTime.seconds())
    }
}
