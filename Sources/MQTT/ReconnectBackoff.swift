/// Delays between reconnect attempts: doubling from `initial` up to `maximum`. No jitter: one
/// lock talks to one broker, so there is no herd to spread, and tests can follow the sequence.
struct ReconnectBackoff: Sendable, Equatable {
    let initial: Duration
    let maximum: Duration
    private var upcoming: Duration

    init(initial: Duration, maximum: Duration) {
        self.initial = initial
        self.maximum = max(initial, maximum)
        upcoming = initial
    }

    /// The delay before the next attempt; each call doubles the one after, up to `maximum`.
    mutating func next() -> Duration {
        defer { upcoming = min(upcoming * 2, maximum) }
        return upcoming
    }

    /// After an accepted connection the next loss starts from `initial` again.
    mutating func reset() { upcoming = initial }
}
