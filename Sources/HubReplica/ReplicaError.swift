/// Why a batch of the hub's changes was not applied. Nothing of the batch is then in the store,
/// and the door keeps deciding from what it had.
public enum ReplicaError: Error, Equatable, CustomStringConvertible {
    /// A change this door cannot read (a name its rules refuse, a schedule it cannot parse).
    case unreadable(kind: String, key: String, revision: Int64, problem: String)
    /// A kind of change this fpmod does not apply yet: skipping it would lose it for good, since
    /// the door's revision would pass it.
    case unsupported(kind: String, revision: Int64)
    /// The door's store refused the batch (a full disk, a schedule a user still needs).
    case store(String)

    public var description: String {
        switch self {
        case let .unreadable(kind, key, revision, problem):
            "The hub's change \(revision) (\(kind) \(key.debugDescription)) cannot be applied: \(problem). Nothing of this sync was applied; fix it on the hub."
        case let .unsupported(kind, revision):
            "The hub's change \(revision) is a \(kind) change, which this fpmod does not apply yet. Nothing of this sync was applied; update fpmod on this door."
        case let .store(problem):
            "The door's store refused the hub's changes: \(problem). Nothing of this sync was applied."
        }
    }
}
