/// Why a door did not join its hub. Each says what to do; none leaves a fleet file behind, only,
/// unless the hub refused the join, the key pair a request was sent for (`FleetFiles.pendingKeyPath(code:)`).
public enum FleetJoinError: Error, Equatable, CustomStringConvertible {
    /// The hub's address is not one (before anything is sent).
    case badAddress(String)
    /// The join code cannot be one (before anything is sent).
    case badCode
    /// This door follows a hub already.
    case joinedAlready(hub: String, door: String)
    /// The store's folder cannot take the fleet's files (before anything is sent).
    case files(String)
    /// The hub could not be reached, or TLS refused it.
    case unreachable(String)
    /// The authority the hub presented is not the one the person expected.
    case authorityMismatch(presented: String, expected: String)
    /// The hub answered, and refused (its words).
    case refused(status: Int, message: String)
    /// The hub's answer was not what a hub answers.
    case unexpectedAnswer(String)

    public var description: String {
        switch self {
        case .badAddress(let why): "The hub's address: \(why)."
        case .badCode: "That is not a join code: it is 20 letters and digits in groups of five, as `fpmod hub add-door NAME` printed it."
        case let .joinedAlready(hub, door):
            "This door follows the hub at \(hub) already, as \(door.debugDescription). To join another fleet, remove the fleet files beside the store (fleet.json, fleet-*.pem) and run fpmod join again."
        case .files(let why): "The fleet's files: \(why)."
        case .unreachable(let why): "The hub could not be reached: \(why). Check the address and that `fpmod hub serve` runs there."
        case let .authorityMismatch(presented, expected):
            "The hub presented the fleet authority SHA-256 \(presented), not the \(expected) you gave: nothing was sent. Someone may be in between, or the hub was set up again; compare with what `fpmod hub serve` prints."
        case let .refused(status, message): "The hub refused the join (HTTP \(status)): \(message)."
        case .unexpectedAnswer(let what): "The hub's answer was not understood: \(what)."
        }
    }
}
