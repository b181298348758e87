/// Which reader of a door with two a credential was presented at; the runtime passes it to
/// `decide` (a door with one reader leaves it at `.entry`).
public enum ReaderSide: String, Codable, Sendable {
    case entry
    case exit
}

/// Anti-passback: a user who entered must leave through the exit reader before entering
/// again (a card passed back through the fence to a friend is refused, or reported).
public enum AntiPassbackMode: String, Codable, Sendable {
    case off
    /// A second entry is granted but reported (`passback-violation`).
    case soft
    /// A second entry is refused (`passback`).
    case hard
}

/// The side a user was last granted at, and when (UTC seconds).
public struct PassbackRecord: Codable, Equatable, Sendable {
    public internal(set) var side: ReaderSide
    public internal(set) var at: Int64
}

/// The memory of sides is bounded two ways: the runtime sends `.passbackReset(user:)` when a
/// user is deleted (or an admin forgives one, or everyone), and past `passbackCapacity` users
/// the oldest record is dropped (that user's next entry is taken as a first one).
extension Step {
    static let passbackCapacity = 10_000

    /// Hard mode refuses a second entry; soft mode reports it. Exits are always allowed
    /// (people tailgate out, and keeping someone in is a safety matter).
    mutating func refusedByPassback(_ user: String) -> Bool {
        guard config.antiPassback != .off, side == .entry,
              let last = state.passback?[user], last.side == .entry else { return false }
        if config.antiPassback == .hard {
            deny(.passback(lastEntry: last.at), user: user)
            return true
        }
        event("passback-violation", ["user": user, "last-entry": String(last.at)])
        audit("passback-violation", user: user, "entered again without leaving; last entry at \(last.at) (UTC seconds)")
        return false
    }

    /// Remembers the side of a grant at a reader.
    mutating func recordPassback(_ user: String) {
        guard config.antiPassback != .off else { return }
        var records = state.passback ?? [:]
        records[user] = PassbackRecord(side: side, at: Int64(now.wall.rounded(.down)))
        if records.count > Self.passbackCapacity,
           let oldest = records.min(by: { $0.value.at < $1.value.at })?.key {
            records[oldest] = nil
        }
        state.passback = records
    }

    /// Forgets one user's side (deleted, or forgiven by an admin), or everyone's.
    mutating func handlePassbackReset(user: String?, by who: String?) {
        if let user {
            guard state.passback?[user] != nil else { return }
            state.passback?[user] = nil
            if state.passback?.isEmpty == true { state.passback = nil }
        } else {
            guard state.passback != nil else { return }
            state.passback = nil
        }
        event("passback-reset", user.map { ["user": $0] } ?? [:])
        audit("passback-reset", user: user, "\(user == nil ? "every user's" : "this user's") last reader side forgotten, by \(who ?? "the service")")
    }
}
