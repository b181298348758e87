import Foundation

/// Failed sign-ins per client address in a sliding window: the per-name lockout stops guessing
/// one account's password, this stops one address trying many names (each costing an Argon2
/// check). Kept in memory: a restart forgets it, the per-name counters in the store do not.
final class LoginThrottle: @unchecked Sendable {
    let limit: Int
    let window: Double
    private let clock: @Sendable () -> Double
    private let lock = NSLock()
    // Guarded by `lock`.
    private var failures: [String: [Double]] = [:]

    init(limit: Int = 20, windowSeconds: Double = 300, clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.limit = limit
        window = windowSeconds
        self.clock = clock
    }

    /// Seconds until `address` may try again; nil when it may now.
    func wait(for address: String) -> Int? {
        lock.withLock {
            let now = clock()
            let recent = (failures[address] ?? []).filter { now - $0 < window }
            failures[address] = recent.isEmpty ? nil : recent
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return max(1, Int((oldest + window - now).rounded(.up)))
        }
    }

    func failed(_ address: String) {
        lock.withLock {
            failures[address, default: []].append(clock())
            // Bounded: at most this many addresses remembered (the oldest forgotten first).
            if failures.count > 10_000, let stalest = failures.min(by: { ($0.value.last ?? 0) < ($1.value.last ?? 0) })?.key {
                failures[stalest] = nil
            }
        }
    }
}
