/// The first authorised user of a two-person grant, waiting for a second.
public struct TwoPersonWaiting: Codable, Equatable, Sendable {
    public internal(set) var user: String
    /// Policy clock when the first is forgotten.
    public internal(set) var until: Double
    /// The reader the first was at (recorded for anti-passback when the pair opens).
    public internal(set) var side: ReaderSide
}

/// Two-person rule (`PolicyConfig.twoPersonSeconds`): a credential opens only when a second,
/// different authorised user follows within the window. Only users every other rule already
/// admitted count (refused and locked-out ones never reach here); a credential without a name
/// (an anonymous PIN) cannot tell two people apart, so it never counts. The exit button is
/// not a credential and is unaffected.
extension Step {
    /// True when this grant is held back: it is the first of a pair, or cannot count.
    mutating func heldForSecondPerson(_ user: String?) -> Bool {
        guard let window = config.twoPersonSeconds else { return false }
        guard let user else {
            event("two-person-unnamed")
            audit("two-person-unnamed", "a credential without a name cannot count toward the two-person rule")
            emit(.buzzer(.deny))
            return true
        }
        if let first = state.twoPersonWaiting, clock < first.until {
            if first.user == user {
                // The same person twice is still one person: the window is not extended.
                event("two-person-waiting", ["user": user, "again": "true"])
                audit("two-person-waiting", user: user, "presented again; a second, different person is still needed")
                emit(.buzzer(.retry))
                return true
            }
            state.twoPersonWaiting = nil
            let firstSide = side
            side = first.side
            recordPassback(first.user)
            side = firstSide
            audit("two-person", user: user, "opened by two people: \(first.user), then \(user)")
            event("two-person-complete", ["first": first.user, "second": user])
            return false
        }
        state.twoPersonWaiting = TwoPersonWaiting(user: user, until: clock + window, side: side)
        let seconds = String(wholeSecondsUp(window))
        event("two-person-waiting", ["user": user, "seconds": seconds])
        audit("two-person-waiting", user: user, "first of two; a second, different person has \(seconds) s")
        emit(.buzzer(.retry))
        return true
    }

    mutating func expireTwoPerson() {
        guard let first = state.twoPersonWaiting, clock >= first.until else { return }
        state.twoPersonWaiting = nil
        event("two-person-timeout", ["user": first.user])
        audit("two-person-timeout", user: first.user, "no second person came in time; the first is forgotten")
    }
}
