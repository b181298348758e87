/// What went wrong between the hub and its PostgreSQL database, in words an operator can act
/// on: the libpq call that failed, PostgreSQL's SQLSTATE and message where there is one.
public enum HubStoreError: Error, Equatable, CustomStringConvertible, Sendable {
    /// `PQconnectdbParams` did not reach a usable connection.
    case connect(message: String)
    /// A statement failed (`call` is the libpq function, `sqlState` PostgreSQL's code).
    case statement(call: String, sqlState: String?, message: String)
    /// The connection broke and `PQreset` could not bring it back.
    case connectionLost(message: String)
    /// The database's schema is older than this fpmod: `HubStore.migrate` brings it up.
    case olderSchema(found: Int, known: Int)
    /// The database was migrated by a newer fpmod; this one must not write to it.
    case newerSchema(found: Int, known: Int)
    /// A reply of a shape the query cannot produce (a bug, never data from outside).
    case unexpectedReply(String)
    /// No door of that id, or a revoked one.
    case unknownDoor(id: Int64)
    case revokedDoor(id: Int64)
    /// An event whose `previousHash` is not the hash of the door's event before it.
    case brokenEventChain(door: Int64, sequence: Int64)
    /// An event the hub already holds, uploaded again with different contents.
    case conflictingEvent(door: Int64, sequence: Int64)
    /// A value refused before anything was written (`what` names it and why).
    case invalid(String)
    /// A finger for a user the hub does not have (removed meanwhile, or a door's own user).
    case unknownUser(String)

    /// PostgreSQL's SQLSTATE for a unique-key violation (`23505`).
    public static let uniqueViolation = "23505"

    public var description: String {
        switch self {
        case .connect(let message):
            "cannot connect to PostgreSQL (PQconnectdbParams): \(message)"
        case let .statement(call, sqlState, message):
            "PostgreSQL refused a statement (\(call)\(sqlState.map { ", SQLSTATE \($0)" } ?? "")): \(message)"
        case .connectionLost(let message):
            "the connection to PostgreSQL was lost and could not be made again (PQreset): \(message)"
        case let .olderSchema(found, known):
            "the hub's database has schema version \(found), this fpmod needs \(known); migrate it first (nothing was written)"
        case let .newerSchema(found, known):
            "the hub's database has schema version \(found), newer than this fpmod's \(known); use the fpmod that migrated it"
        case .unexpectedReply(let what):
            "PostgreSQL's reply was not what the query asks for: \(what)"
        case .unknownDoor(let id):
            "no door with id \(id) on this hub"
        case .revokedDoor(let id):
            "door \(id) was revoked on this hub"
        case let .brokenEventChain(door, sequence):
            "door \(door)'s event \(sequence) does not follow the event before it (its previous hash differs); nothing of this upload was kept"
        case let .conflictingEvent(door, sequence):
            "door \(door)'s event \(sequence) is already on the hub with other contents; nothing of this upload was kept"
        case .invalid(let what):
            "\(what); nothing was changed"
        case .unknownUser(let name):
            "no user \(name.debugDescription) on the hub; nothing was changed"
        }
    }
}
