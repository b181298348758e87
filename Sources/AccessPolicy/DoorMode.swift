/// How the door treats people, chosen by an admin (durable: it survives a restart).
///
/// - `normal`: every opening needs a credential; a passage schedule, if configured, is ignored.
/// - `passage`: held unlocked while the passage schedule is open, or for as long as the mode
///   lasts when no schedule is configured.
/// - `firstPersonIn`: inside each window of the passage schedule the door stays locked until
///   the first authorised person is granted, then is held unlocked until the window ends
///   (without a schedule: from the first person until the mode changes).
/// - `lockdown`: only admins are let in by credentials; passage ends at once; the exit button
///   still opens (egress is a life-safety matter and must never depend on a mode).
/// Leaving lockdown is a `.setDoorMode` naming the mode to return to.
public enum DoorMode: String, Codable, Sendable, CaseIterable {
    case normal
    case passage
    case lockdown
    case firstPersonIn = "first-person-in"
}

extension PolicyState {
    /// The door's mode (stored as nil while normal, so a state saved before modes reads as is).
    public var doorMode: DoorMode { storedDoorMode ?? .normal }

    /// Whether passage holds the door unlocked right now.
    public var passageHolding: Bool { lock == .passage }
}

extension DoorMode {
    /// Whether going from `old` to `new` only ever keeps more people out: into lockdown, or from
    /// a held-open mode back to normal. Home Assistant may do that without an admin's PIN.
    public static func tightens(from old: DoorMode, to new: DoorMode) -> Bool {
        new == .lockdown || (new == .normal && (old == .passage || old == .firstPersonIn))
    }
}
