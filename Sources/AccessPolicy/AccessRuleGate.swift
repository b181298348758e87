/// The door's access rules as the policy applies them: the calendar and each user's rules,
/// loaded from the store by the runtime (absent: nobody has any, everyone may enter at any time).
public struct AccessRules: Sendable, Equatable {
    public var calendar: AccessCalendar
    /// By user name; a user missing here has no rules of their own.
    public var users: [String: UserAccess]
    /// When passage and first-person-in modes may hold the door open (nil: passage mode holds
    /// it for as long as the mode lasts). Evaluated in the calendar's time zone.
    public var passage: WeeklySchedule?
    /// The passage schedule's name, for events and the audit log.
    public var passageName: String

    /// Why the rules could not be read; set, every credential is refused with it, and passage
    /// never holds the door open.
    public var unreadable: String?

    /// Set while the fleet's hub has been silent too long and the config says to keep people
    /// out for it (`fleet.whenStale`); nil otherwise (and on a door that follows no hub).
    public var staleFleet: StaleFleet?

    public init(calendar: AccessCalendar = AccessCalendar(), users: [String: UserAccess] = [:],
                passage: WeeklySchedule? = nil, passageName: String = "passage") {
        self.calendar = calendar
        self.users = users
        self.passage = passage
        self.passageName = passageName
    }

    /// Rules that could not be read: nobody may enter by a credential until they can.
    public init(unreadable reason: String) {
        self.init()
        unreadable = reason
    }

    /// The verdict for `user` at `wall` (seconds since 1970, UTC).
    public func verdict(for user: String, atWall wall: Double) -> AccessVerdict {
        if let unreadable { return .denied(.rulesUnreadable(unreadable)) }
        return calendar.verdict(for: users[user] ?? UserAccess(), atUTC: Int64(wall.rounded(.down)))
    }
}

extension Step {
    /// Every check between "these credentials are right" and "open", in order: the user's own
    /// access rules, a silent fleet hub, lockdown, anti-passback and the two-person rule. Remote grants are not at
    /// a reader, so anti-passback and the two-person rule do not apply to them.
    mutating func refusedAtGrant(_ user: String?, isAdmin: Bool, source: RequestSource = .local) -> Bool {
        if refusedByAccessRules(user, source: source) { return true }
        if let stale = access?.staleFleet, stale.refuses(isAdmin: isAdmin) {
            deny(.hubSilent(minutes: stale.minutes, mode: stale.mode), user: user, source: source)
            return true
        }
        if state.doorMode == .lockdown && !isAdmin {
            deny(.lockdown, user: user, source: source)
            return true
        }
        guard !source.isRemote else { return false }
        if let user, refusedByPassback(user) { return true }
        // Passage already holds the door open: a second person would add nothing.
        return state.lock != .passage && heldForSecondPerson(user)
    }

    /// A user identified by their credentials may still be kept out by their schedule, validity
    /// or uses: refused here, before any "accepted" feedback, and audited with the rule that
    /// refused. The person at the door sees a plain refusal ("not now").
    mutating func refusedByAccessRules(_ user: String?, source: RequestSource = .local) -> Bool {
        guard let user, let access, case .denied(let denial) = access.verdict(for: user, atWall: now.wall) else { return false }
        deny(.accessRule(denial), user: user, source: source)
        return true
    }

    /// Whether a grant to `user` uses one of a limited number of uses (the runtime takes it from
    /// the store before it opens: see `PolicyEffect.consumeUse`).
    func grantConsumesUse(_ user: String?, _ reason: UnlockReason) -> Bool {
        guard let user, reason.isByCredential, reason != .grace else { return false }
        return access?.users[user]?.usesLeft != nil
    }

    /// The runtime could not take a use (another door took the last one first): the grant of
    /// this very decision is withdrawn before the relay moved.
    mutating func withdrawGrant(of user: String) {
        withdrawFirstPerson(user)
        relock(cause: "no uses left")
        deny(.accessRule(.noUsesLeft), user: user)
    }
}
