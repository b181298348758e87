/// What a fleet door does when its hub has been silent longer than it allows (config
/// `fleet.whenStale`): the hub may have revoked someone meanwhile, and only the site knows
/// whether that risk outweighs keeping its people out.
public enum StaleFleetMode: String, Sendable, Equatable, CaseIterable, Codable {
    /// Decide from the store as ever; the alarm is raised.
    case keep
    /// Only admins are let in by a credential.
    case adminsOnly = "admins-only"
    /// No credential opens; the exit button still does.
    case locked
}

/// The door's hub has been silent for `minutes`, and the door applies `mode` (never `keep`:
/// nothing is set then). Set on the policy's rules by the runtime before each decision.
public struct StaleFleet: Sendable, Equatable {
    public var mode: StaleFleetMode
    public var minutes: Int

    public init(mode: StaleFleetMode, minutes: Int) {
        self.mode = mode
        self.minutes = minutes
    }

    /// Whether a grant to someone who is (or is not) an admin is refused.
    func refuses(isAdmin: Bool) -> Bool {
        switch mode {
        case .keep: false
        case .adminsOnly: !isAdmin
        case .locked: true
        }
    }
}
