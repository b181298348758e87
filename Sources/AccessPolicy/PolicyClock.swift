/// The policy clock (issue 27, item 5). The decision, in short (docs/service.md, "The clocks"):
///
/// - Within a run: `origin + (monotonic − monotonic at origin)`. Wall-clock steps (either
///   way) change nothing and rounding does not accumulate.
/// - Across a restart within the same boot (same boot id, monotonic not gone back): the
///   `CLOCK_BOOTTIME` difference since the saved observation is counted. Exact; wall steps
///   change nothing.
/// - Across a reboot (boot id differs or is unknown, or the monotonic clock went back): the
///   time in between cannot be measured, so none is credited. A restrictive deadline (a
///   lockout) resumes with what remained when the state was saved: never shorter, so pulling
///   the plug never shortens one. Every permissive window a duration bounds ends instead
///   (`endPermissiveWindows`), as a phone asks for the PIN after a restart.
///
/// The wall clock is never used to measure a duration. Its steps are only reported: a change
/// of its offset against the monotonic clock by more than 2 s (`PolicyTime.wallStep`) between two
/// observations in one boot gives a `wall-clock-stepped` event and audit row, and while the
/// wall clock disagrees with the policy clock (its offset differs from the one at the
/// reference, kept across restarts within a boot) every event and audit row the policy writes
/// carries both (`policy-clock`, `wall-offset`).
extension Step {
    mutating func advanceClock(acrossRestart: Bool) {
        defer { state.lastObserved = now }
        guard let last = state.lastObserved else {
            startRun(reference: now.wallOffset)
            return
        }
        let withinRun = !acrossRestart && now.monotonic >= last.monotonic && last.bootID == now.bootID
        if withinRun || last.sameBoot(as: now) { wallStep = last.wallStep(until: now) }
        if withinRun, let origin = state.clockOrigin {
            let candidate = origin.clock + (now.monotonic - origin.monotonic)
            if candidate.isFinite { state.clock = max(state.clock, candidate) }
            return
        }
        if last.sameBoot(as: now) {
            // A restart within the boot: CLOCK_BOOTTIME kept counting while the service was down.
            let elapsed = now.monotonic - last.monotonic
            if elapsed.isFinite { state.clock += elapsed }
            startRun(reference: state.clockOrigin?.wallOffset ?? last.wallOffset)
            return
        }
        // A reboot (or a boot id unknown, or a monotonic clock that went back): credit nothing.
        rebooted = true
        startRun(reference: now.wallOffset)
        endPermissiveWindows(starting: acrossRestart)
    }

    /// Anchors the policy clock to the monotonic clock for this run; `reference` is the wall
    /// clock's offset the clocks are compared against (see `clockDisagreement`).
    private mutating func startRun(reference: Double) {
        state.clockOrigin = ClockOrigin(clock: state.clock, monotonic: now.monotonic, wallOffset: reference)
    }

    /// After a reboot no elapsed time is credited, which would stretch every window that lets
    /// something happen; so each ends here. Restrictive deadlines (lockouts) are left as they
    /// are, and so are the door's alarm timers (`.started` resets the door anyway).
    /// `starting`: this is `.started`, which locks anyway (and says so with its own events).
    private mutating func endPermissiveWindows(starting: Bool) {
        // An unlock or the kiosk's idle re-lock: expires now (`expireDeadlines` re-locks).
        if !starting, case .unlocked(_, let reason, let user) = state.lock {
            state.lock = .unlocked(until: clock, reason: reason, user: user)
        }
        endGrace()
        state.pendingFactor = nil
        state.twoPersonWaiting = nil
        state.door.forcedOpenExemptUntil = nil
        // "A PIN every N hours": the hours since the last PIN cannot be told, so one is due.
        state.lastPinAt = nil
    }

    /// How far the wall clock is off the policy clock's reference (seconds, + ahead), or nil
    /// while they agree to within `wallStepThreshold`.
    var clockDisagreement: Double? {
        guard let reference = state.clockOrigin?.wallOffset else { return nil }
        let offset = now.wallOffset - reference
        return offset.isFinite && offset.magnitude > PolicyTime.wallStepThreshold ? offset : nil
    }

    /// The fields an event gets while the clocks disagree (none while they agree).
    var clockFields: [String: String] {
        guard let offset = clockDisagreement else { return [:] }
        return ["policy-clock": String(Int(clock)), "wall-offset": String(wholeSecondsSigned(offset))]
    }

    /// The suffix an audit row's detail gets while the clocks disagree.
    var clockDetail: String {
        guard let offset = clockDisagreement else { return "" }
        let sign = offset > 0 ? "+" : ""
        return " [policy clock \(Int(clock)) s, wall offset \(sign)\(wholeSecondsSigned(offset)) s]"
    }

    /// One event and audit row for a wall-clock step seen since the last observation.
    mutating func reportWallStep() {
        guard let stepped = wallStep else { return }
        wallStep = nil
        event("wall-clock-stepped", ["seconds": String(wholeSecondsSigned(stepped)),
                                     "wall": String(wholeSecondsSigned(now.wall)),
                                     "monotonic": String(wholeSecondsSigned(now.monotonic))])
        effects.append(.audit(event: "wall-clock-stepped", user: nil, detail: WallClockStep.text(stepped)))
    }
}

/// The words for a wall-clock step, as the audit row and the service's log say it.
public enum WallClockStep {
    /// `wall clock stepped forward 1 d 0 h 0 min; lockouts and grace windows count on the
    /// monotonic clock`.
    public static func text(_ seconds: Double) -> String {
        let direction = seconds >= 0 ? "forward" : "back"
        return "wall clock stepped \(direction) \(span(seconds.magnitude)); lockouts and grace windows count on the monotonic clock"
    }

    /// `1 d 0 h 0 min`, `2 h 5 min`, `3 min 20 s`, `45 s`.
    static func span(_ seconds: Double) -> String {
        let total = wholeSecondsSigned(seconds)
        let days = total / 86_400, hours = total % 86_400 / 3600, minutes = total % 3600 / 60, rest = total % 60
        if days > 0 { return "\(days) d \(hours) h \(minutes) min" }
        if hours > 0 { return "\(hours) h \(minutes) min" }
        if minutes > 0 { return "\(minutes) min \(rest) s" }
        return "\(rest) s"
    }
}

/// Rounds to the nearest whole second, halves away from zero, without libm.
func wholeSecondsSigned(_ seconds: Double) -> Int {
    guard seconds.isFinite else { return 0 }
    let clamped = min(max(seconds, -1e15), 1e15)
    return clamped < 0 ? -Int(-clamped + 0.5) : Int(clamped + 0.5)
}
