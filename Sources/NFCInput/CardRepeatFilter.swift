/// A card held on a reader is found at every poll; a door must take it once, or one held card
/// would open, re-open and (an unknown one) count toward a lockout many times a second. A UID
/// passes when it differs from the last one, or when the last sighting of it is at least
/// `quiet` seconds old: the card was taken away and presented again. Pure: times are given.
public struct CardRepeatFilter: Sendable {
    public let quiet: Double
    private var last: (uid: [UInt8], seenAt: Double)?

    public init(quiet: Double) {
        self.quiet = quiet
    }

    /// Whether a sighting of `uid` at `time` (seconds on a monotonic clock) is a new presentation.
    public mutating func admit(_ uid: [UInt8], at time: Double) -> Bool {
        defer { last = (uid, time) }
        guard let last, last.uid == uid else { return true }
        return time - last.seenAt >= quiet
    }

    /// Forgets the last card (the reader was reopened: whatever is on it is presented anew).
    public mutating func reset() { last = nil }
}
