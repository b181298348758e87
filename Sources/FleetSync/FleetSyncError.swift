import DoorFleet
import HubReplica

/// Why a sync with the hub stopped. The door keeps deciding from what its store has.
public enum FleetSyncError: Error, Equatable, CustomStringConvertible {
    /// The door joined no fleet (no fleet.json beside the store), or its files do not load.
    case notJoined(String)
    case unreachable(String)
    /// The hub refused the door: revoked (403), its certificate not taken (401), or another status.
    case refused(status: Int, message: String)
    case unexpectedAnswer(String)
    /// The hub's changes could not be applied (nothing of the batch was).
    case replica(ReplicaError)
    /// The door's store could not be read or written.
    case store(String)
    /// The service is stopping.
    case stopped

    public var description: String {
        switch self {
        case .notJoined(let why): why
        case .unreachable(let why): "The hub could not be reached: \(why)."
        case let .refused(status, message):
            status == 403 ? "The hub refused this door (HTTP 403: \(message)): it was revoked; join again under a new name."
                : "The hub refused the request (HTTP \(status)): \(message)."
        case .unexpectedAnswer(let what): "The hub's answer was not understood: \(what)."
        case .replica(let error): error.description
        case .store(let why): "The door's store: \(why)."
        case .stopped: "stopped"
        }
    }
}
