extension Step {
    /// Moves the policy clock forward to `now`.
    ///
    /// Within a run the clock is `origin + (monotonic − monotonic at origin)`: wall-clock jumps
    /// (either way) change nothing and rounding does not accumulate. Across a restart only the
    /// wall clock spans the gap; if it went back, no time is counted, so a lockout resumes with
    /// what remained when it was last observed — never longer than configured, never shorter.
    mutating func advanceClock(acrossRestart: Bool) {
        defer { state.lastObserved = now }
        guard let last = state.lastObserved else {
            startRun()
            return
        }
        if !acrossRestart, now.monotonic >= last.monotonic, let origin = state.clockOrigin {
            let candidate = origin.clock + (now.monotonic - origin.monotonic)
            if candidate.isFinite { state.clock = max(state.clock, candidate) }
            return
        }
        // A restart, or a monotonic clock that went back (a reboot nobody told us about).
        let wallDelta = now.wall - last.wall
        if wallDelta.isFinite && wallDelta > 0 { state.clock += wallDelta }
        startRun()
    }

    /// Anchors the policy clock to the monotonic clock for this run.
    private mutating func startRun() {
        state.clockOrigin = ClockOrigin(clock: state.clock, monotonic: now.monotonic)
    }
}
