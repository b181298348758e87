extension Step {
    /// Moves the policy clock forward by the time elapsed since the last observation.
    ///
    /// Within a run the monotonic clock is trusted, so wall-clock jumps (either way) change
    /// nothing. Across a restart only the wall clock spans the gap; if it went back, no time
    /// is counted, so a lockout resumes with what remained when it was last observed —
    /// never longer than configured, never shorter.
    mutating func advanceClock(acrossRestart: Bool) {
        defer { state.lastObserved = now }
        guard let last = state.lastObserved else { return }
        let monotonicDelta = now.monotonic - last.monotonic
        let wallDelta = now.wall - last.wall
        var elapsed: Double
        if !acrossRestart && monotonicDelta >= 0 {
            elapsed = monotonicDelta
        } else {
            // A restart, or a monotonic clock that went back (a reboot nobody told us about).
            elapsed = max(0, wallDelta)
        }
        if !elapsed.isFinite { elapsed = 0 }
        state.clock += elapsed
    }
}
