import AccessPolicy
import Foundation
import Posix

/// Where the service reads the time the policy sees (tests may substitute their own).
public struct LockClock: Sendable {
    public var now: @Sendable () -> PolicyTime

    public init(now: @escaping @Sendable () -> PolicyTime) { self.now = now }

    /// The wall clock, CLOCK_BOOTTIME (which keeps counting through suspend) and the kernel's
    /// boot id, which tells the policy a restart within the boot (the CLOCK_BOOTTIME
    /// difference counts) from a reboot (nothing can be measured, so nothing is credited).
    public static let system = LockClock {
        PolicyTime(wall: Date().timeIntervalSince1970, monotonic: BootTime.seconds(), bootID: BootID.current)
    }
}

/// The kernel's boot id (`/proc/sys/kernel/random/boot_id`): a new random UUID every boot.
public enum BootID {
    /// Read once per process; nil when unreadable (the policy then treats every restart as
    /// a reboot: no time credited, which never shortens a lockout).
    public static let current: String? = read()

    static func read(path: String = "/proc/sys/kernel/random/boot_id") -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return id.isEmpty ? nil : id
    }
}
