import Foundation
@testable import AccessPolicy

/// A lock driven through `decide` with a fake clock, as the runtime would drive it.
struct Harness {
    var config: PolicyConfig
    var state = PolicyState()
    /// Schedules, validity and uses, as the runtime loads them from the store.
    var access: AccessRules?
    /// Clocks in whole milliseconds, so 29.999 + 0.001 is exactly 30.
    var wallMillis: Int = 1_700_000_000_000
    var monotonicMillis: Int = 1_000_000
    /// The kernel's boot id, as the runtime reads it; `restart` (a reboot) changes it.
    var bootID: String? = "boot-1"
    var boots = 1
    var wall: Double { Double(wallMillis) / 1000 }
    var monotonic: Double { Double(monotonicMillis) / 1000 }
    /// Every effect seen, in order, across all events.
    var log: [PolicyEffect] = []

    var now: PolicyTime { PolicyTime(wall: wall, monotonic: monotonic, bootID: bootID) }

    /// A started lock with the given config changes.
    init(_ configure: (inout PolicyConfig) -> Void = { _ in }) {
        var config = PolicyConfig()
        configure(&config)
        self.config = config
        send(.started)
    }

    @discardableResult
    mutating func send(_ event: PolicyEvent) -> [PolicyEffect] {
        let (next, effects) = AccessPolicy(config: config, access: access).decide(state, event, now: now)
        state = next
        log += effects
        return effects
    }

    /// Time passes on both clocks (no event).
    mutating func advance(_ seconds: Double) {
        wallMillis += Self.millis(seconds)
        monotonicMillis += Self.millis(seconds)
    }

    /// Only the wall clock jumps (NTP, an admin); the monotonic clock does not.
    mutating func jumpWall(_ seconds: Double) {
        wallMillis += Self.millis(seconds)
    }

    static func millis(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }

    /// Advance, then `.tick` as the runtime would at a deadline.
    @discardableResult
    mutating func tick(after seconds: Double) -> [PolicyEffect] {
        advance(seconds)
        return send(.tick)
    }

    /// A reboot: persist as JSON, go down for `downtime` seconds, come back in a new boot (a
    /// new boot id, a fresh monotonic clock) with the wall clock off by `wallError`, then send
    /// `.started`.
    @discardableResult
    mutating func restart(downtime: Double = 0, wallError: Double = 0) throws -> [PolicyEffect] {
        let data = try JSONEncoder().encode(state)
        state = try JSONDecoder().decode(PolicyState.self, from: data)
        wallMillis += Self.millis(downtime + wallError)
        monotonicMillis = 7_000 // a new boot: the monotonic clock restarts near 0
        boots += 1
        bootID = "boot-\(boots)"
        return send(.started)
    }

    /// A restart of the service within the boot (`systemctl restart`, a crash): persist as
    /// JSON, down for `downtime` seconds on both clocks, the wall clock then stepped by
    /// `wallStep`, then `.started`.
    @discardableResult
    mutating func restartService(downtime: Double = 0, wallStep: Double = 0) throws -> [PolicyEffect] {
        let data = try JSONEncoder().encode(state)
        state = try JSONDecoder().decode(PolicyState.self, from: data)
        advance(downtime)
        jumpWall(wallStep)
        return send(.started)
    }

    mutating func match(_ user: String = "alice", slot: Int = 1, admin: Bool = false,
                        duress: Bool = false, enabled: Bool = true) -> [PolicyEffect] {
        send(.fingerMatched(user: user, slot: slot, score: 120, isAdmin: admin, isDuress: duress,
                            fingerprintUnlockEnabled: enabled))
    }

    mutating func noMatch(times: Int) {
        for _ in 0..<times { send(.fingerNotMatched) }
    }

    mutating func wrongPin(times: Int) {
        for _ in 0..<times { send(.pinEntered(user: nil, correct: false)) }
    }
}

extension Array where Element == PolicyEffect {
    var denials: [DenyReason] {
        compactMap { if case .deny(let reason) = $0 { reason } else { nil } }
    }

    var unlocks: [UnlockReason] {
        compactMap { if case .unlock(let reason, _, _) = $0 { reason } else { nil } }
    }

    var unlocked: Bool { !unlocks.isEmpty }

    var locked: Bool { contains(.lock) }

    var eventNames: [String] {
        compactMap { if case .event(let name, _) = $0 { name } else { nil } }
    }

    func fields(of name: String) -> [String: String]? {
        for effect in self {
            if case .event(name, let fields) = effect { return fields }
        }
        return nil
    }

    var alarms: [AlarmKind] {
        compactMap { if case .alarm(let kind) = $0 { kind } else { nil } }
    }

    /// Remaining seconds of the first lockout denial, for boundary checks.
    var lockoutRemaining: Double? {
        for reason in denials {
            if case .lockedOut(let remaining) = reason { return remaining }
            if case .pinLockedOut(let remaining) = reason { return remaining }
        }
        return nil
    }
}
