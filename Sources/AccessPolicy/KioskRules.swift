extension Step {
    /// Kiosk mode: activity keeps an unlocked kiosk open for another idle period.
    mutating func handleActivity() {
        guard config.mode == .kiosk, case .unlocked(_, let reason, let user) = state.lock else { return }
        state.lock = .unlocked(until: clock + config.idleTimeoutSeconds, reason: reason, user: user)
    }

    /// Kiosk mode: in the background the kiosk re-locks within `backgroundTimeoutSeconds`.
    mutating func handleBackground() {
        guard config.mode == .kiosk, case .unlocked(let until, let reason, let user) = state.lock else { return }
        let newUntil = min(until, clock + config.backgroundTimeoutSeconds)
        if newUntil <= clock {
            relock(cause: "background")
        } else {
            state.lock = .unlocked(until: newUntil, reason: reason, user: user)
        }
    }
}
