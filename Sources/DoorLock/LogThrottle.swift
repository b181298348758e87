/// Keeps a flood of bad messages from becoming a flood of log lines: per kind of line, the
/// first one in each `interval` is logged, the rest only counted, and the count rides on the
/// next line that is logged. A broker client can send thousands of malformed commands a
/// second; each one logged would fill the journal and cost the loop a write per message.
/// Pure: the caller passes the time.
struct LogThrottle {
    let interval: Duration
    private var windows: [String: (opened: ContinuousClock.Instant, suppressed: Int)] = [:]

    init(interval: Duration = .seconds(10)) { self.interval = interval }

    /// Whether a line of `kind` may be logged now, and how many like it were held back since
    /// the last one that was (to be said on this line).
    mutating func admit(_ kind: String, at now: ContinuousClock.Instant) -> (log: Bool, suppressed: Int) {
        if let window = windows[kind], now < window.opened + interval {
            windows[kind]?.suppressed += 1
            return (false, 0)
        }
        let suppressed = windows[kind]?.suppressed ?? 0
        windows[kind] = (now, 0)
        return (true, suppressed)
    }
}
