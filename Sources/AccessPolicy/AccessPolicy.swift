/// The unlock/lockout policy of the door/kiosk lock: a pure function of state, event and time.
public struct AccessPolicy: Sendable {
    public let config: PolicyConfig
    /// Schedules, validity and uses (nil: nobody has rules; everyone may enter at any time).
    public var access: AccessRules?

    public init(config: PolicyConfig = PolicyConfig(), access: AccessRules? = nil) {
        self.config = config
        self.access = access
    }

    /// The next state and the effects to execute, in order.
    /// `side`: the reader a credential was presented at (anti-passback; `.entry` for a door
    /// with one reader).
    public func decide(_ state: PolicyState, _ event: PolicyEvent, now: PolicyTime, side: ReaderSide = .entry)
        -> (PolicyState, [PolicyEffect]) {
        AccessPolicyModule.decide(state, event, now: now, config: config, access: access, side: side)
    }

    /// When the runtime must send `.tick` next (nil: nothing pending).
    public func nextDeadline(_ state: PolicyState) -> PolicyTime? {
        AccessPolicyModule.nextDeadline(state, access: access)
    }
}

/// Namespace so the free functions stay reachable from inside `AccessPolicy`'s methods.
enum AccessPolicyModule {
    static func decide(_ state: PolicyState, _ event: PolicyEvent, now: PolicyTime,
                       config: PolicyConfig, access: AccessRules? = nil,
                       side: ReaderSide = .entry) -> (PolicyState, [PolicyEffect]) {
        var step = Step(config: config, now: now, state: state, access: access, side: side)
        step.advanceClock(acrossRestart: event == .started)
        step.expireDeadlines()
        // A boundary passed since the last event is settled first, so a credential just after
        // the window's end gets its own pulse rather than the passage that is ending.
        if event != .started { step.settlePassage() }
        step.handle(event)
        step.settlePassage()
        let stepped = step.wallStep != nil
        step.reportWallStep()
        // After a reboot the new boot's anchor is saved at once: else a second restart in this
        // boot would find the old boot again and credit nothing for this run either. After a
        // wall step the new offset is, so a restart does not report the same step again.
        if step.state.durable != state.durable || step.rebooted || stepped {
            step.effects.append(.persist)
        }
        return (step.state, step.effects)
    }

    static func nextDeadline(_ state: PolicyState, access: AccessRules? = nil) -> PolicyTime? {
        guard let observed = state.lastObserved else { return nil }
        var candidates: [Double] = []
        if case .unlocked(let until, _, _) = state.lock { candidates.append(until) }
        if let until = state.fingerprintFailures.lockedUntil { candidates.append(until) }
        if let until = state.pinFailures.lockedUntil { candidates.append(until) }
        if let until = state.cardFailures?.lockedUntil { candidates.append(until) }
        if let until = state.pendingFactor?.until { candidates.append(until) }
        if let deadline = state.door.heldOpenDeadline { candidates.append(deadline) }
        if let until = state.twoPersonWaiting?.until { candidates.append(until) }
        // A passage boundary is a wall-clock moment: convert it to the policy clock.
        if state.doorMode == .passage || state.doorMode == .firstPersonIn,
           let boundary = access?.nextPassageBoundary(afterUTC: Int64(observed.wall.rounded(.down))) {
            candidates.append(state.clock + (Double(boundary) - observed.wall))
        }
        guard let earliest = candidates.min() else { return nil }
        return observed.advanced(by: max(0, earliest - state.clock))
    }
}

/// Decides what `event` does to `state` at `now` under `config`.
/// Returns the next state and the effects to execute in order (ends with `.persist` when the
/// durable part changed). After executing them, schedule a `.tick` at `nextDeadline`.
public func decide(_ state: PolicyState, _ event: PolicyEvent, now: PolicyTime,
                   config: PolicyConfig) -> (PolicyState, [PolicyEffect]) {
    AccessPolicyModule.decide(state, event, now: now, config: config)
}

/// When the runtime must call `decide` with `.tick` next: the earliest of the re-lock, the
/// end of a lockout, the held-open alarm and the two-person window (without access rules, so
/// no passage boundary: use `AccessPolicy.nextDeadline` when a passage schedule is set). nil when nothing is pending (no polling needed).
/// The returned time is on both clocks; wait on the monotonic one.
public func nextDeadline(_ state: PolicyState) -> PolicyTime? {
    AccessPolicyModule.nextDeadline(state)
}
